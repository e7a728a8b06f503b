// @vitest-environment jsdom
import { createMemoryHistory, RouterProvider } from "@tanstack/react-router"
import { act, render, screen, within } from "@testing-library/react"
import { StrictMode } from "react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { boot, bootInTasks } from "../../src/app/live"
import { createAppRouter } from "../../src/app/router"
import { type Boot, LiveProvider, type LiveResource, makeLiveResource } from "../../src/app/runtime/live-context"
import { loadLiveModule } from "../../src/app/shell/islands"
import { json, makeHarnessRuntime } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

/** A resource the test settles by hand. */
const controlled = () => {
  let settle: (boot: Boot) => void = () => undefined
  let fail: (error: unknown) => void = () => undefined
  const resource = makeLiveResource(
    () =>
      new Promise<Boot>((resolve, reject) => {
        settle = resolve
        fail = reject
      })
  )
  return { resource, settle: (b: Boot) => settle(b), fail: (e: unknown) => fail(e) }
}

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
  })

const renderShell = async (resource: LiveResource, path = "/") => {
  await loadLiveModule()
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }))
  await act(async () => {
    render(
      <StrictMode>
        <LiveProvider resource={resource}>
          <RouterProvider router={router} />
        </LiveProvider>
      </StrictMode>
    )
  })
  await act(() => router.load())
  await flush()
  return router
}

describe("the shell before the live chunk", () => {
  it("paints the frame and the page skeleton at once, then the page when the runtime is ready", async () => {
    const c = controlled()
    await renderShell(c.resource)
    // The frame: brand, tagline, navigation, a placeholder where the wallet button goes, a disabled info button.
    expect(screen.getByText("hSwap")).toBeInTheDocument()
    expect(within(screen.getByTestId("tagline")).getByText("Swap, Bridge, Save and Earn")).toHaveClass("sr-only")
    expect(within(screen.getByTestId("sidebar")).getByText("Exchange hAssets")).toBeInTheDocument()
    expect(screen.getByTestId("wallet-button-loading")).toBeInTheDocument()
    expect(screen.getByTestId("welcome-info")).toBeDisabled()
    expect(screen.getByTestId("page-loading")).toHaveAttribute("aria-busy", "true")
    expect(screen.queryByText("Support our validator")).toBeNull()

    const h = makeHarnessRuntime({ route: () => json({ status: "ok" }) })
    dispose = () => h.runtime.dispose()
    await h.runtime.runtime()
    c.settle({ _tag: "Ready", live: { config: h.config, runtime: h.runtime } })
    await flush()
    expect(screen.queryByTestId("page-loading")).toBeNull()
    expect(screen.queryByTestId("wallet-button-loading")).toBeNull()
    expect(screen.getByTestId("welcome-info")).toBeEnabled()
    expect(screen.getByText("Support our validator")).toBeInTheDocument()
    expect(await screen.findByTestId("swap-card")).toBeInTheDocument()
  })

  it("names the bad variable in the content area when the build is misconfigured", async () => {
    // The boot says why on the console too.
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const bad = boot({ VITE_GATEWAY_URL: "ftp://example.com" })
    expect(bad._tag).toBe("Misconfigured")
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("VITE_GATEWAY_URL is invalid"))
    logged.mockRestore()
    await renderShell(makeLiveResource(() => Promise.resolve(bad)))
    const alert = screen.getByRole("alert")
    expect(within(alert).getByText("This build of the app is misconfigured")).toBeInTheDocument()
    expect(within(alert).getByText(/VITE_GATEWAY_URL/)).toBeInTheDocument()
    // The frame stays; the islands keep their placeholders instead of a blank header, still: nothing is loading.
    expect(screen.queryByTestId("wallet-button-loading")).toBeNull()
    expect(screen.getByTestId("wallet-button-unavailable")).not.toHaveClass("animate-pulse")
    expect(document.querySelectorAll(".animate-pulse")).toHaveLength(0)
    expect(screen.getByTestId("tagline")).toBeInTheDocument()
  })

  it("says the app could not load, with a Reload button, when the live chunk fails to load", async () => {
    const c = controlled()
    await renderShell(c.resource)
    c.fail(new TypeError("Failed to fetch dynamically imported module: /assets/live-x.js"))
    await flush()
    const alert = screen.getByRole("alert")
    expect(within(alert).getByText("The app could not load")).toBeInTheDocument()
    expect(within(alert).getByText(/Failed to fetch dynamically imported module/)).toBeInTheDocument()
    expect(within(alert).getByRole("button", { name: "Reload" })).toBeEnabled()
    expect(screen.getByTestId("wallet-button-unavailable")).toBeInTheDocument()
    expect(document.querySelectorAll(".animate-pulse")).toHaveLength(0)
  })

  it("renders hostile text in the failure message as text", async () => {
    const c = controlled()
    await renderShell(c.resource)
    c.settle({ _tag: "Unavailable", message: '<img src=x onerror="alert(1)">' })
    await flush()
    const alert = screen.getByRole("alert")
    expect(alert.querySelector("img")).toBeNull()
    expect(within(alert).getByText('<img src=x onerror="alert(1)">')).toBeInTheDocument()
  })
})

describe("makeLiveResource", () => {
  it("loads only once started, once however often started, and settles a rejection as Unavailable", async () => {
    let loads = 0
    const resource = makeLiveResource(() => {
      loads++
      return Promise.reject(new Error("chunk gone"))
    })
    await new Promise((r) => setTimeout(r, 0))
    expect(loads).toBe(0)
    expect(resource.current()).toBeUndefined()
    resource.start()
    resource.start()
    expect(await resource.promise).toEqual({ _tag: "Unavailable", message: "chunk gone" })
    expect(resource.current()).toEqual({ _tag: "Unavailable", message: "chunk gone" })
    expect(loads).toBe(1)
  })
})

describe("boot", () => {
  it("builds the runtime from a valid configuration", async () => {
    const ready = boot({})
    if (ready._tag !== "Ready") throw new Error(`expected Ready, got ${ready._tag}`)
    expect(ready.live.config.networkId).toBe(240)
    await ready.live.runtime.dispose()
  })

  it("in tasks: decodes, makes the layer, makes the runtime, starts its build, the browser's turn after each; a bad configuration stops before the wait", async () => {
    const steps: Array<string> = []
    const between = () => {
      steps.push("between")
      return Promise.resolve()
    }
    const ready = await bootInTasks({}, between)
    if (ready._tag !== "Ready") throw new Error(`expected Ready, got ${ready._tag}`)
    expect(steps).toEqual(["between", "between", "between", "between"])
    expect(ready.live.config.networkId).toBe(240)
    // Built without anyone asking for it (ManagedRuntime builds on first use otherwise). Its cache of the built
    // runtime is a property its type does not declare.
    const { runtime } = ready.live
    await vi.waitFor(() => expect((runtime as unknown as { cachedRuntime?: unknown }).cachedRuntime).toBeDefined())
    await ready.live.runtime.dispose()
    steps.length = 0

    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const bad = await bootInTasks({ VITE_GATEWAY_URL: "ftp://example.com" }, between)
    expect(bad).toEqual({ _tag: "Misconfigured", message: expect.stringContaining("VITE_GATEWAY_URL is invalid") })
    expect(steps).toEqual([])
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("VITE_GATEWAY_URL is invalid"))
    logged.mockRestore()
  })

  it("in tasks: makes no runtime before the browser's turn is over", async () => {
    let release: () => void = () => undefined
    const turn = new Promise<void>((resolve) => (release = resolve))
    let settled = false
    const booting = bootInTasks({}, () => turn).then((b) => {
      settled = true
      return b
    })
    await new Promise((r) => setTimeout(r, 0))
    expect(settled).toBe(false)
    release()
    const ready = await booting
    if (ready._tag !== "Ready") throw new Error(`expected Ready, got ${ready._tag}`)
    await ready.live.runtime.runtime()
    await ready.live.runtime.dispose()
  })
})
