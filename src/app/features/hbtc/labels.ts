import { isAmountPositive } from "../../../exchange/amount"

export type Direction = "import" | "export"
export type Destination = "bitcoin" | "lightning"

/** The main button's label (spec app §2 "Bitcoin bridge"). */
export const hbtcButtonLabel = (connected: boolean, direction: Direction, amount: string): string => {
  if (!connected) return "Connect Wallet"
  if (!isAmountPositive(amount)) return "Enter Amount"
  return direction === "import" ? `Import ${amount} BTC to Radix` : `Export ${amount} hBTC to Bitcoin/Lightning`
}

export const bridgeInDevelopmentToast = {
  title: "Bridge in Development",
  description: "This feature is currently under development. Stay tuned!"
} as const
