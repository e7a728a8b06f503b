import { createFileRoute } from "@tanstack/react-router"
import { ExchangePage } from "../features/exchange/ExchangePage"

// `/` is the landing page: kept in the initial bundle, never split.
export const Route = createFileRoute("/")({
  component: ExchangePage,
  codeSplitGroupings: []
})
