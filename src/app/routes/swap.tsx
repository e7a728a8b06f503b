import { createFileRoute } from "@tanstack/react-router"
import { AggregatorPage } from "../features/aggregator/AggregatorPage"

export const Route = createFileRoute("/swap")({ component: AggregatorPage })
