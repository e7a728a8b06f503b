import { Duration, Effect } from "effect"
import { Toaster } from "../../services/Toaster"

/** Spec §9: the simulated claim takes 2 s. */
export const CLAIM_SIMULATION = Duration.seconds(2)

export const walletRequiredToast = Toaster.show({
  title: "Wallet Required",
  description: "Please connect your wallet to claim GKS tokens",
  variant: "destructive"
})

/** A simulated claim: 2 s of 'Claiming...' (the caller shows it while this runs), then 'Claim Successful'. */
export const simulateClaim = Effect.sleep(CLAIM_SIMULATION).pipe(
  Effect.zipRight(
    Toaster.show({
      title: "Claim Successful",
      description: "Your Season 1 claim is registered. GKS is distributed once the token is deployed."
    })
  ),
  Effect.asVoid,
  Effect.withSpan("Airdrop.simulateClaim")
)
