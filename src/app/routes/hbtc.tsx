import { createFileRoute } from "@tanstack/react-router"
import { HbtcPage } from "../features/hbtc/HbtcPage"

export const Route = createFileRoute("/hbtc")({ component: HbtcPage })
