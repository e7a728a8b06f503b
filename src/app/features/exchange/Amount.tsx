import { formatBalance, formatTokenAmount, formatTokenAmountFull } from "../../../exchange/format"

/**
 * A token amount as users read it: the token's one display rule (its divisibility capped by the spec's precision),
 * with every decimal it has in the tooltip for whoever asks (hover, or a long press on touch screens).
 */
export function Amount({
  value,
  decimals,
  balance = false
}: {
  readonly value: string
  /** The token's divisibility. */
  readonly decimals: number
  /** A balance (spec §9: fixed decimals) rather than an amount (the banded rule). */
  readonly balance?: boolean
}) {
  const shown = balance ? formatBalance(value, decimals) : formatTokenAmount(value, decimals)
  const full = formatTokenAmountFull(value, decimals)
  return (
    <span title={full === shown ? undefined : full} data-full={full}>
      {shown}
    </span>
  )
}
