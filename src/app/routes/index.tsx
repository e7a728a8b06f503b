import { createFileRoute } from "@tanstack/react-router"
import { ExchangePage } from "../features/exchange/ExchangePage"

// `/` is the landing page; like every route it is its own chunk, requested with the live chunk at load.
export const Route = createFileRoute("/")({ component: ExchangePage })
