import { createFileRoute } from "@tanstack/react-router"
import { AirdropPage } from "../features/airdrop/AirdropPage"

export const Route = createFileRoute("/airdrop")({ component: AirdropPage })
