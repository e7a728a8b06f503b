import { ACCEPTED_ROUTES } from "../../../../exchange/swap"
import { Dialog } from "../../../ui/Dialog"

/**
 * The FAQ (spec §2, §9). It states the 0.3% spread; the fee line and its tooltip state 0.1% plus 0.1 USD. The spec
 * keeps both readings, so does the app.
 */
export const FAQ: ReadonlyArray<{ readonly question: string; readonly answer: string }> = [
  {
    question: "How does a swap work?",
    answer:
      "Connect your wallet, pick the token you give and the token you want, and enter an amount. Prepare the exchange to get a fixed-rate quote from live prices; it reloads every 15 seconds. When you execute it, your wallet signs one transaction that deposits your tokens to the exchange account, and the exchange sends the other token back to the same account."
  },
  {
    question: "What is an atomic swap?",
    answer:
      "When your wallet can, it signs a pre-authorisation instead of a deposit: you send exactly the amount shown and receive at least the quoted amount, or nothing moves. The exchange adds its payout and the ledger makes both in one transaction, so you never wait for a second payment."
  },
  {
    question: "And the deposit flow?",
    answer:
      "With a wallet that cannot sign pre-authorisations, or when the exchange has atomic swaps off, your wallet sends your tokens to the exchange account and the exchange pays you in a second transaction at the quote. The app picks this flow by itself; you do nothing different."
  },
  {
    question: "What does it cost?",
    answer:
      "The rate includes a 0.3% spread. Your wallet also pays the ledger's network fee for the deposit transaction, in XRD."
  },
  {
    question: "Is there slippage?",
    answer:
      "No. The rate is fixed when the quote is prepared, and swaps are backed by the operator's own liquidity, not by pools, so the size of your trade does not move the price."
  },
  {
    question: "How much can I swap?",
    answer:
      "About 1 USD at least and 200 USD at most per swap, shown in the token you give. The exchange must also hold enough of the token you want: at least 5% more than your output."
  },
  {
    question: "Which pairs can I swap?",
    answer: `The accepted routes: ${ACCEPTED_ROUTES.map((r) => `${r.from} to ${r.to}`).join(", ")}. The Routes button lists them.`
  },
  {
    question: "How long does it take?",
    answer:
      "Usually a few seconds: the payout is sent once your deposit is committed on the ledger. 'Your Transactions' shows each swap's status and links to the dashboard."
  },
  {
    question: "What if a swap fails?",
    answer: "If the exchange cannot pay you, your deposit will be refunded on request or automatically within 5 days."
  },
  {
    question: "How do I stay safe?",
    answer:
      "Use only the official interface, check the transaction in your wallet before you sign it, and never share your seed phrase with anyone."
  }
]

export function FaqDialog({
  open,
  onOpenChange
}: {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Frequently Asked Questions" testId="faq-dialog">
      <dl className="space-y-4">
        {FAQ.map((f) => (
          <div key={f.question}>
            <dt className="text-sm font-semibold">{f.question}</dt>
            <dd className="mt-1 text-sm text-muted">{f.answer}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  )
}
