// @vitest-environment jsdom
import { screen, waitFor } from "@testing-library/react"
import { afterEach, expect, it, vi } from "vitest"
import { Toaster } from "../../src/app/services/Toaster"
import { renderApp } from "./harness"

// The sanitiser's chunk cannot be fetched (a deploy replaced it, the network dropped).
vi.mock("../../src/app/ui/sanitize", () => {
  throw new Error("Failed to fetch dynamically imported module")
})

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
  vi.restoreAllMocks()
})

it("shows a description as plain text when the sanitiser cannot load, and says so in the console", async () => {
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
  const h = await renderApp({ path: "/earn" })
  dispose = () => h.runtime.dispose()
  await h.run(
    Toaster.show({ title: "Swap Failed", description: `See <a href="https://x.example" onclick="y()">details</a>` })
  )
  const toast = await screen.findByTestId("toast")
  await waitFor(() => expect(toast).toHaveTextContent(`See <a href="https://x.example" onclick="y()">details</a>`))
  expect(toast.querySelector("a")).toBeNull()
  expect(error).toHaveBeenCalledWith(
    "could not load the toast sanitiser; showing the description as text",
    expect.anything()
  )
})
