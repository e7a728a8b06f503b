import { Effect, Stream } from "effect"
import { useAppConfig } from "../config/useAppConfig"
import { useFork, useStream } from "../runtime/app-runtime"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { Dialog } from "../ui/Dialog"
import { ExternalLink } from "../ui/kit"

const openStream = Stream.unwrap(Effect.map(ValidatorSupport, (v) => v.open))

export function ValidatorDialog() {
  const open = useStream(openStream, false)
  const fork = useFork()
  const { dashboardUrl, validatorAddress, brand } = useAppConfig()
  const href =
    validatorAddress === undefined
      ? `${dashboardUrl}/network-staking`
      : `${dashboardUrl}/validator/${encodeURIComponent(validatorAddress)}`
  return (
    <Dialog
      open={open}
      testId="validator-dialog"
      onOpenChange={(next) => fork(next ? ValidatorSupport.show : ValidatorSupport.dismiss)}
      title={`Support ${brand.name}: stake with our validator`}
      description={`${brand.name} is built and run by a small team. Staking your XRD with our validator keeps fees low and the service independent, and you keep earning staking rewards.`}
    >
      <ul className="mb-5 list-disc space-y-1 pl-5 text-sm text-muted">
        <li>Your XRD stays in your account; you can unstake at any time.</li>
        <li>Rewards are paid every epoch, as with any Radix validator.</li>
      </ul>
      <div className="flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => fork(ValidatorSupport.dismiss)}
          className="rounded-lg px-4 py-2 text-sm font-semibold text-muted hover:text-ink"
        >
          Maybe later
        </button>
        <ExternalLink
          href={href}
          className="rounded-lg bg-accent px-4 py-2 text-sm font-semibold text-accent-ink hover:brightness-110"
        >
          View validator on the dashboard
        </ExternalLink>
      </div>
    </Dialog>
  )
}
