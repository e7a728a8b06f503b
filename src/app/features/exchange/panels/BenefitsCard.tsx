import { Card } from "../../../ui/kit"

/** Spec §1, §9: what the swap offers, and what it costs (the tooltip's reading: 0.1% + 0.1 USD). */
export const BENEFITS: ReadonlyArray<{ readonly title: string; readonly text: string }> = [
  { title: "Fixed rate", text: "The rate you are quoted is the rate you get, from live prices." },
  { title: "No slippage", text: "No pools, no price impact: the output does not move with the trade size." },
  {
    title: "Operator liquidity",
    text: "Swaps are backed by the operator's own liquidity, not by liquidity pools."
  },
  { title: "Low fees", text: "Fees are 0.1% + 0.1 USD per swap." }
]

export function BenefitsCard() {
  return (
    <Card testId="benefits-card">
      <h2 className="mb-3 text-lg font-semibold">Why swap here</h2>
      <ul className="space-y-3">
        {BENEFITS.map((b) => (
          <li key={b.title} className="flex gap-3">
            <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-accent" />
            <div>
              <p className="text-sm font-semibold">{b.title}</p>
              <p className="text-sm text-muted">{b.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  )
}
