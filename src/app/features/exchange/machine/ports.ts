import { Context, Effect, Layer, Schema } from "effect"
import { WalletRequest } from "../../../../toolkit/index"

/** The wallet refused, failed or never answered: the swap did not happen. */
export class SwapWalletError extends Schema.TaggedError<SwapWalletError>()("SwapWalletError", {
  reason: Schema.String
}) {}

/** What the swap machine needs from the wallet: one transaction, signed and submitted, reported by intent hash. */
export class SwapWallet extends Context.Tag("hswap/SwapWallet")<
  SwapWallet,
  {
    readonly send: (input: {
      readonly manifest: string
      readonly message: string
    }) => Effect.Effect<{ readonly transactionIntentHash: string }, SwapWalletError>
  }
>() {
  /** Through the toolkit: version 1, the message, then the toolkit's status poll until committed. */
  static readonly Live = Layer.effect(
    SwapWallet,
    Effect.map(WalletRequest, (wallet) => ({
      send: ({ manifest, message }) =>
        wallet.sendTransaction({ transactionManifest: manifest, version: 1, message }).pipe(
          Effect.flatMap((r) =>
            r.transactionIntentHash === ""
              ? Effect.fail(new SwapWalletError({ reason: "the wallet answered without a transaction hash" }))
              : Effect.succeed({ transactionIntentHash: r.transactionIntentHash })
          ),
          Effect.mapError((e) => (e instanceof SwapWalletError ? e : new SwapWalletError({ reason: describe(e) })))
        )
    }))
  )
}

const describe = (e: unknown): string =>
  typeof e === "object" && e !== null && "_tag" in e && typeof e._tag === "string" ? e._tag : String(e)

/** Confetti (2 s) and a sound after a successful swap. Loaded on first use: most visits never need it. */
export class Celebration extends Context.Tag("hswap/Celebration")<
  Celebration,
  { readonly celebrate: Effect.Effect<void> }
>() {
  static readonly Live = Layer.succeed(Celebration, {
    celebrate: Effect.tryPromise(() => import("./celebrate").then((m) => m.celebrate())).pipe(
      Effect.catchAll((e) => Effect.logWarning("celebration failed", e))
    )
  })
}
