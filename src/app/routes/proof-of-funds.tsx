import { createFileRoute } from "@tanstack/react-router"
import { ProofOfFundsPage } from "../features/proof-of-funds/ProofOfFundsPage"

export const Route = createFileRoute("/proof-of-funds")({ component: ProofOfFundsPage })
