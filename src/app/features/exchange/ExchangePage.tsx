import { lazy, Suspense, useState } from "react"
import { BenefitsCard } from "./panels/BenefitsCard"
import { NetworkActivity } from "./panels/NetworkActivity"
import { YourTransactions } from "./panels/YourTransactions"
import { SwapCard, type SwapDialog } from "./SwapCard"
import { LatestTransactionDialog } from "./dialogs/LatestTransactionDialog"

// The header dialogs load with their first opening.
const LiquidityDialog = lazy(() => import("./dialogs/LiquidityDialog").then((m) => ({ default: m.LiquidityDialog })))
const FaqDialog = lazy(() => import("./dialogs/FaqDialog").then((m) => ({ default: m.FaqDialog })))
const RoutesDialog = lazy(() => import("./dialogs/RoutesDialog").then((m) => ({ default: m.RoutesDialog })))

/** `/`: the swap card on the left; 'Your Transactions', 'Network Activity' and the benefits card on the right. */
export function ExchangePage() {
  const [dialog, setDialog] = useState<SwapDialog | undefined>(undefined)
  const close = (open: boolean) => {
    if (!open) setDialog(undefined)
  }
  return (
    <div className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)]">
      <SwapCard onOpenDialog={setDialog} />
      <div className="flex min-w-0 flex-col gap-6">
        <YourTransactions />
        <NetworkActivity />
        <BenefitsCard />
      </div>
      <Suspense fallback={null}>
        {dialog === "liquidity" && <LiquidityDialog open onOpenChange={close} />}
        {dialog === "faq" && <FaqDialog open onOpenChange={close} />}
        {dialog === "routes" && <RoutesDialog open onOpenChange={close} />}
      </Suspense>
      <LatestTransactionDialog />
    </div>
  )
}
