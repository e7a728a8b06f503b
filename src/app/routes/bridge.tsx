import { createFileRoute } from "@tanstack/react-router"
import { BridgePage } from "../features/bridge/BridgePage"

export const Route = createFileRoute("/bridge")({ component: BridgePage })
