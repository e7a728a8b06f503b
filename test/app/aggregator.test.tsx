// @vitest-environment jsdom
import { KeyValueStore } from "@effect/platform"
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { Effect, Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Toaster } from "../../src/app/services/Toaster"
import {
  SELECTED_ROUTE_KEY,
  TRADING_ROUTES_KEY,
  type TradingRoute
} from "../../src/app/features/aggregator/TradingRoutes"
import { DASHBOARD_FRAME_SANDBOX, frameSandbox, TRADING_FRAME_SANDBOX } from "../../src/app/features/aggregator/frames"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { messagesAt, renderApp } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})
const app = async (options: Parameters<typeof renderApp>[0] = {}) => {
  const h = await renderApp({ path: "/swap", ...options })
  dispose = () => h.runtime.dispose()
  return h
}

const R = DevnetAddresses.resources
const A1 = "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp"
const A2 = "account_loc12yy6wjxu0vu5kmxh8hh0k5h4pmc4nmcy3uqjy0qzhxvdzxrl4ywpdg"
const connected = (selected: string | undefined) => ({
  accounts: [
    { address: A1, label: "Main" },
    { address: A2, label: "Savings" }
  ],
  selected
})

const frameSrc = (sell: string, buy: string) =>
  `/devnet/trade?sell_resource=${encodeURIComponent(sell)}&buy_resource=${encodeURIComponent(buy)}`

const routeNames = () => screen.getAllByTestId("route-item").map((li) => li.textContent)
const routeButton = (name: string) => within(screen.getByTestId("favourite-routes")).getByRole("button", { name })
const selectedName = () =>
  screen
    .getAllByTestId("route-item")
    .filter((li) => li.querySelector('[aria-pressed="true"]') !== null)
    .map((li) => li.textContent)
const stored = (h: { run: <A, E>(e: Effect.Effect<A, E, KeyValueStore.KeyValueStore>) => Promise<A> }, key: string) =>
  h.run(Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(key)).pipe(Effect.map(Option.getOrUndefined)))
const storedRoutes = async (h: Parameters<typeof stored>[0]) =>
  JSON.parse((await stored(h, TRADING_ROUTES_KEY)) ?? "null") as ReadonlyArray<TradingRoute> | null

const custom = (id: string, name: string, sell: string = R.hETH, buy: string = R.hUSDC): TradingRoute => ({
  id,
  name,
  sellToken: { name: "S", image: "https://img.example/s.png", address: sell },
  buyToken: { name: "B", image: "https://img.example/b.png", address: buy }
})

const DEFAULT_NAMES = ["XRD → hUSDC", "hUSDC → hWBTC", "hUSDC → hETH", "hUSDC → LSULP"]

describe("aggregator page", () => {
  it("has the title, the tagline and the default routes, the first one selected", async () => {
    await app()
    expect(screen.getByRole("heading", { level: 1, name: "Swap" })).toBeVisible()
    expect(screen.getByText("Change your tokens easily and quickly, at a lower cost")).toBeVisible()
    expect(routeNames()).toEqual(DEFAULT_NAMES)
    expect(selectedName()).toEqual(["XRD → hUSDC"])
    const first = screen.getAllByTestId("route-item")[0]!
    const images = within(first).getAllByRole("img")
    expect(images.map((i) => [i.getAttribute("alt"), i.getAttribute("src")])).toEqual([
      ["XRD", "/tokens/xrd.svg"],
      ["hUSDC", "/tokens/husdc.svg"]
    ])
  })

  it("embeds the trading interface for the selected route: URL-encoded params, sandbox, heights, spinner", async () => {
    await app()
    const frame = screen.getByTestId("trading-iframe")
    expect(frame).toHaveAttribute("src", frameSrc(R.XRD, R.hUSDC))
    expect(frame).toHaveAttribute("title", "Trading interface")
    // The devnet's stand-in is served from the app's own origin, so it runs without allow-same-origin.
    expect(frame).toHaveAttribute("sandbox", "allow-scripts allow-forms allow-popups")
    expect(frame).toHaveAttribute("referrerpolicy", "strict-origin-when-cross-origin")
    // 430 px on small screens, 434 px from the 768 px breakpoint (the e2e measures the rendered heights).
    expect(frame.className).toMatch(/(^| )h-\[430px\]( |$)/)
    expect(frame.className).toMatch(/(^| )md:h-\[434px\]( |$)/)
    expect(screen.getByText("Loading trading interface...")).toBeVisible()
    fireEvent.load(frame)
    expect(screen.queryByText("Loading trading interface...")).toBeNull()
  })

  it("URL-encodes route addresses and keeps a configured partner's query string", async () => {
    const odd = custom("custom-odd", "Odd", "a&b=c d", "x/y?z#")
    await app({
      env: { VITE_TRADING_URL: "https://partner.example/embed?theme=dark" },
      storage: { [TRADING_ROUTES_KEY]: JSON.stringify([odd]) }
    })
    expect(screen.getByTestId("trading-iframe")).toHaveAttribute(
      "src",
      "https://partner.example/embed?theme=dark&sell_resource=a%26b%3Dc%20d&buy_resource=x%2Fy%3Fz%23"
    )
  })

  it("Visit opens the partner site in a new tab", async () => {
    const h = await app({ env: { VITE_TRADING_URL: "https://partner.example/embed/swap" } })
    await userEvent.click(screen.getByRole("button", { name: "Visit" }))
    expect(h.navigations).toEqual(["open:https://partner.example"])
  })

  it("on the devnet, Visit opens the partner stand-in page", async () => {
    const h = await app()
    await userEvent.click(screen.getByRole("button", { name: "Visit" }))
    expect(h.navigations).toEqual(["open:/devnet/trade"])
  })

  it("without a configured partner it says so instead of showing an iframe", async () => {
    await app({
      env: {
        VITE_NETWORK_ID: "1",
        VITE_DAPP_DEFINITION_ADDRESS: "account_rdx12xsvygvltz4uhsht6tdrfxktzpmnl77r0d40j8agmujgdj022sudkk",
        VITE_EXCHANGE_ACCOUNT: "account_rdx128y905cfjwhah5nm8mpx5jnlkshmlamfdd92qnqpy6pgk428qlqxcf",
        VITE_FUND_ACCOUNT: "account_rdx12ya2ml0lr54lmneu6fkx2wu87j2tk65epzptgq70q4tjjdmc652pvp",
        VITE_GKS_RESOURCE: "resource_rdx1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxradxrd"
      }
    })
    expect(screen.queryByTestId("trading-iframe")).toBeNull()
    expect(screen.getByRole("heading", { name: "Trading interface not configured" })).toBeVisible()
    expect(screen.queryByRole("button", { name: "Visit" })).toBeNull()
    // The mainnet defaults still use the network's own resources.
    expect(routeNames()).toEqual(DEFAULT_NAMES)
  })

  it("a token image that fails to load is hidden", async () => {
    await app()
    const first = screen.getAllByTestId("route-item")[0]!
    const [sell] = within(first).getAllByRole("img")
    fireEvent.error(sell!)
    expect(
      within(first)
        .getAllByRole("img")
        .map((i) => i.getAttribute("alt"))
    ).toEqual(["hUSDC"])
    expect(within(first).getByText("XRD → hUSDC")).toBeVisible()
  })
})

describe("My Tokens", () => {
  it("is not offered without a connected account", async () => {
    await app()
    expect(screen.queryByRole("button", { name: "My Tokens" })).toBeNull()
    expect(screen.queryByTestId("my-tokens-panel")).toBeNull()
  })

  it("toggles the dashboard tokens view of the selected account, 600 px high, with Close", async () => {
    await app({ session: connected(A2) })
    const button = screen.getByRole("button", { name: "My Tokens" })
    expect(button).toHaveAttribute("aria-expanded", "false")
    await userEvent.click(button)
    const panel = screen.getByTestId("my-tokens-panel")
    const frame = within(panel).getByTestId("my-tokens-iframe")
    expect(frame).toHaveAttribute("src", `/devnet/dashboard/account/${A2}/tokens`)
    expect(frame).toHaveStyle({ height: "600px" })
    expect(frame).toHaveAttribute("sandbox", "allow-scripts allow-popups")
    expect(frame).toHaveAttribute("title")
    expect(button).toHaveAttribute("aria-expanded", "true")
    await userEvent.click(within(panel).getByRole("button", { name: "Close" }))
    expect(screen.queryByTestId("my-tokens-panel")).toBeNull()
    await userEvent.click(button)
    expect(screen.getByTestId("my-tokens-panel")).toBeVisible()
    await userEvent.click(button)
    expect(screen.queryByTestId("my-tokens-panel")).toBeNull()
  })

  it("uses the first account when none is selected", async () => {
    await app({ session: connected(undefined) })
    await userEvent.click(screen.getByRole("button", { name: "My Tokens" }))
    expect(screen.getByTestId("my-tokens-iframe")).toHaveAttribute("src", `/devnet/dashboard/account/${A1}/tokens`)
  })
})

describe("favourite routes", () => {
  it("clicking a route selects it, loads its interface and shows a 2 s toast", async () => {
    const h = await app()
    fireEvent.load(screen.getByTestId("trading-iframe"))
    await userEvent.click(routeButton("hUSDC → hETH"))
    expect(selectedName()).toEqual(["hUSDC → hETH"])
    expect(screen.getByTestId("trading-iframe")).toHaveAttribute("src", frameSrc(R.hUSDC, R.hETH))
    // A new frame: the spinner shows again until it loads.
    expect(screen.getByText("Loading trading interface...")).toBeVisible()
    const toast = await screen.findByTestId("toast")
    expect(within(toast).getByText("Route Selected")).toBeVisible()
    expect(await within(toast).findByText("hUSDC → hETH")).toBeVisible()
    const [shown] = await h.run(Toaster.current)
    expect(shown?.durationMillis).toBe(2000)
    await h.advance("1999 millis")
    expect((await h.run(Toaster.current))[0]?.open).toBe(true)
    await h.advance("1 millis")
    expect((await h.run(Toaster.current))[0]?.open).toBe(false)
    expect(await stored(h, SELECTED_ROUTE_KEY)).toBe("default-husdc-heth")
  })

  it("restores stored routes and the stored selection", async () => {
    await app({
      storage: {
        [TRADING_ROUTES_KEY]: JSON.stringify([custom("custom-a", "Alpha"), custom("custom-b", "Beta", R.hBTC)]),
        [SELECTED_ROUTE_KEY]: "custom-b"
      }
    })
    expect(routeNames()).toEqual(["Alpha", "Beta"])
    expect(selectedName()).toEqual(["Beta"])
    expect(screen.getByTestId("trading-iframe")).toHaveAttribute("src", frameSrc(R.hBTC, R.hUSDC))
  })

  it("an unknown stored selection falls back to the first route", async () => {
    await app({
      storage: { [TRADING_ROUTES_KEY]: JSON.stringify([custom("custom-a", "Alpha")]), [SELECTED_ROUTE_KEY]: "gone" }
    })
    expect(selectedName()).toEqual(["Alpha"])
  })

  for (const [label, raw] of [
    ["JSON that does not parse", "{not json"],
    ["JSON of the wrong shape", JSON.stringify([{ id: 1, name: "x" }])],
    ["an empty list", "[]"],
    ["duplicate ids", JSON.stringify([custom("custom-a", "A"), custom("custom-a", "B")])]
  ] as const) {
    it(`corrupt storage (${label}) falls back to the defaults and tells the user`, async () => {
      const h = await app({ storage: { [TRADING_ROUTES_KEY]: raw } })
      expect(routeNames()).toEqual(DEFAULT_NAMES)
      const toast = await screen.findByTestId("toast")
      expect(within(toast).getByText("Saved routes could not be read")).toBeVisible()
      expect(await within(toast).findByText("Your favourite routes were reset to the default routes.")).toBeVisible()
      expect((await storedRoutes(h))?.map((r) => r.name)).toEqual(DEFAULT_NAMES)
      expect(messagesAt(h.logs, "WARN")).toContain("stored trading routes are invalid; using the defaults")
    })
  }

  it("a stored route's image that is no image URL never reaches an <img>; its name shows without direction overrides", async () => {
    const hostile: TradingRoute = {
      id: "custom-h",
      name: "\u202EetuoR lieveR",
      sellToken: { name: "S\u2066x", image: "javascript:alert(1)", address: R.hETH },
      buyToken: { name: "B", image: " https://img.example/b.png ", address: R.hUSDC }
    }
    await app({ storage: { [TRADING_ROUTES_KEY]: JSON.stringify([hostile, custom("custom-a", "Alpha")]) } })
    expect(routeNames()).toEqual(["etuoR lieveR", "Alpha"])
    const item = screen.getAllByTestId("route-item")[0]
    expect(item).toBeDefined()
    const images = [...(item?.querySelectorAll("img") ?? [])]
    expect(images.map((i) => i.getAttribute("src"))).toEqual(["https://img.example/b.png"])
    expect(routeButton("etuoR lieveR")).toHaveAttribute("title", "etuoR lieveR")
    await userEvent.click(routeButton("etuoR lieveR"))
    const toast = await screen.findByTestId("toast")
    expect(await within(toast).findByText("etuoR lieveR")).toBeVisible()
  })

  it("nothing stored: the defaults, quietly", async () => {
    const h = await app()
    expect(routeNames()).toEqual(DEFAULT_NAMES)
    expect(screen.queryByTestId("toast")).toBeNull()
    expect(await stored(h, TRADING_ROUTES_KEY)).toBeUndefined()
  })
})

const fillToken = async (legend: "Sell Token" | "Buy Token", name: string, image: string, address: string) => {
  const group = within(screen.getByRole("group", { name: legend }))
  const set = async (label: string, value: string) => {
    const input = group.getByLabelText(label)
    await userEvent.clear(input)
    if (value !== "") await userEvent.type(input, value)
  }
  await set("Name", name)
  await set("Image URL", image)
  await set("Address", address)
}

describe("route editor", () => {
  it("Add: appends the route with a custom- id, selects it, closes the dialog and reloads", async () => {
    const h = await app()
    await userEvent.click(screen.getByRole("button", { name: "Add" }))
    const dialog = await screen.findByRole("dialog", { name: "Add New Route" })
    expect(within(dialog).getByLabelText("Route Name")).toHaveValue("")
    for (const legend of ["Sell Token", "Buy Token"]) {
      const group = within(within(dialog).getByRole("group", { name: legend }))
      expect(group.getByLabelText("Image URL")).toHaveAttribute("type", "url")
      expect(group.getByLabelText("Name")).toBeVisible()
      expect(group.getByLabelText("Address")).toBeVisible()
    }
    await userEvent.type(within(dialog).getByLabelText("Route Name"), "hETH to hBTC")
    await fillToken("Sell Token", "hETH", "https://img.example/eth.png", R.hETH)
    await fillToken("Buy Token", "hBTC", "", R.hBTC)
    expect(h.navigations).toEqual([])
    await userEvent.click(within(dialog).getByRole("button", { name: "Add Route" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(h.navigations).toEqual(["reload"])
    expect(routeNames()).toEqual([...DEFAULT_NAMES, "hETH to hBTC"])
    expect(selectedName()).toEqual(["hETH to hBTC"])
    expect(screen.getByTestId("trading-iframe")).toHaveAttribute("src", frameSrc(R.hETH, R.hBTC))
    const routes = (await storedRoutes(h))!
    expect(routes).toHaveLength(5)
    const added = routes[4]!
    expect(added.id).toMatch(/^custom-/)
    expect(added).toEqual({
      id: added.id,
      name: "hETH to hBTC",
      sellToken: { name: "hETH", image: "https://img.example/eth.png", address: R.hETH },
      buyToken: { name: "hBTC", image: "", address: R.hBTC }
    })
    expect(await stored(h, SELECTED_ROUTE_KEY)).toBe(added.id)
    // After the reload the same storage gives the same page.
    cleanup()
    await h.runtime.dispose()
    await app({ storage: { [TRADING_ROUTES_KEY]: JSON.stringify(routes), [SELECTED_ROUTE_KEY]: added.id } })
    expect(selectedName()).toEqual(["hETH to hBTC"])
  })

  it("invalid image URLs give the spec's messages and nothing is saved", async () => {
    const h = await app()
    await userEvent.click(screen.getByRole("button", { name: "Add" }))
    const dialog = await screen.findByRole("dialog", { name: "Add New Route" })
    await userEvent.type(within(dialog).getByLabelText("Route Name"), "Bad")
    await fillToken("Sell Token", "A", "not a url", R.hETH)
    await fillToken("Buy Token", "B", "javascript:alert(1)", R.hBTC)
    await userEvent.click(within(dialog).getByRole("button", { name: "Add Route" }))
    expect(within(dialog).getByText("Please enter a valid URL for the sell token image")).toBeVisible()
    expect(within(dialog).getByText("Please enter a valid URL for the buy token image")).toBeVisible()
    const sellImage = within(within(dialog).getByRole("group", { name: "Sell Token" })).getByLabelText("Image URL")
    expect(sellImage).toHaveAttribute("aria-invalid", "true")
    expect(h.navigations).toEqual([])
    expect(await stored(h, TRADING_ROUTES_KEY)).toBeUndefined()
    // Fixing one field clears its message only.
    await userEvent.clear(sellImage)
    await userEvent.type(sellImage, "https://img.example/a.svg")
    expect(within(dialog).queryByText("Please enter a valid URL for the sell token image")).toBeNull()
    expect(within(dialog).getByText("Please enter a valid URL for the buy token image")).toBeVisible()
    await userEvent.click(within(dialog).getByRole("button", { name: "Add Route" }))
    expect(within(dialog).getByText("Please enter a valid URL for the buy token image")).toBeVisible()
    expect(h.navigations).toEqual([])
  })

  it("Cancel closes the dialog and changes nothing", async () => {
    const h = await app()
    await userEvent.click(screen.getByRole("button", { name: "Add" }))
    const dialog = await screen.findByRole("dialog", { name: "Add New Route" })
    await userEvent.type(within(dialog).getByLabelText("Route Name"), "Draft")
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    expect(screen.queryByRole("dialog")).toBeNull()
    expect(routeNames()).toEqual(DEFAULT_NAMES)
    expect(h.navigations).toEqual([])
    // Opening again starts from an empty form.
    await userEvent.click(screen.getByRole("button", { name: "Add" }))
    expect(within(await screen.findByRole("dialog")).getByLabelText("Route Name")).toHaveValue("")
  })

  it("Edit: 'Edit Route' prefilled; 'Save Changes' replaces the route in place, without a reload", async () => {
    const h = await app()
    await userEvent.click(screen.getByRole("button", { name: "Edit hUSDC → hWBTC" }))
    const dialog = await screen.findByRole("dialog", { name: "Edit Route" })
    expect(within(dialog).getByLabelText("Route Name")).toHaveValue("hUSDC → hWBTC")
    const sell = within(within(dialog).getByRole("group", { name: "Sell Token" }))
    expect(sell.getByLabelText("Name")).toHaveValue("hUSDC")
    expect(sell.getByLabelText("Image URL")).toHaveValue("/tokens/husdc.svg")
    expect(sell.getByLabelText("Address")).toHaveValue(R.hUSDC)
    await userEvent.clear(within(dialog).getByLabelText("Route Name"))
    await userEvent.type(within(dialog).getByLabelText("Route Name"), "Dollars to Bitcoin")
    await fillToken("Buy Token", "hBTC", "https://img.example/btc.png", R.hBTC)
    await userEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(routeNames()).toEqual(["XRD → hUSDC", "Dollars to Bitcoin", "hUSDC → hETH", "hUSDC → LSULP"])
    expect(selectedName()).toEqual(["XRD → hUSDC"])
    expect(h.navigations).toEqual([])
    const routes = (await storedRoutes(h))!
    expect(routes[1]).toEqual({
      id: "default-husdc-hwbtc",
      name: "Dollars to Bitcoin",
      sellToken: { name: "hUSDC", image: "/tokens/husdc.svg", address: R.hUSDC },
      buyToken: { name: "hBTC", image: "https://img.example/btc.png", address: R.hBTC }
    })
  })

  it("editing the selected route updates the trading interface", async () => {
    await app()
    await userEvent.click(screen.getByRole("button", { name: "Edit XRD → hUSDC" }))
    const dialog = await screen.findByRole("dialog", { name: "Edit Route" })
    await fillToken("Buy Token", "hETH", "", R.hETH)
    await userEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(screen.getByTestId("trading-iframe")).toHaveAttribute("src", frameSrc(R.XRD, R.hETH))
  })

  it("Delete: removing another route keeps the selection; removing the selected one selects the first left", async () => {
    const h = await app()
    await userEvent.click(routeButton("hUSDC → hETH"))
    await userEvent.click(screen.getByRole("button", { name: "Delete hUSDC → hWBTC" }))
    expect(routeNames()).toEqual(["XRD → hUSDC", "hUSDC → hETH", "hUSDC → LSULP"])
    expect(selectedName()).toEqual(["hUSDC → hETH"])
    await userEvent.click(screen.getByRole("button", { name: "Delete hUSDC → hETH" }))
    expect(routeNames()).toEqual(["XRD → hUSDC", "hUSDC → LSULP"])
    expect(selectedName()).toEqual(["XRD → hUSDC"])
    expect(screen.getByTestId("trading-iframe")).toHaveAttribute("src", frameSrc(R.XRD, R.hUSDC))
    await userEvent.click(screen.getByRole("button", { name: "Delete XRD → hUSDC" }))
    expect(selectedName()).toEqual(["hUSDC → LSULP"])
    expect((await storedRoutes(h))?.map((r) => r.id)).toEqual(["default-husdc-lsulp"])
    expect(await stored(h, SELECTED_ROUTE_KEY)).toBe("default-husdc-lsulp")
    expect(h.navigations).toEqual([])
  })

  it("Delete is blocked for the last route", async () => {
    const h = await app({ storage: { [TRADING_ROUTES_KEY]: JSON.stringify([custom("custom-only", "Only")]) } })
    const del = screen.getByRole("button", { name: "Delete Only" })
    expect(del).toHaveAttribute("aria-disabled", "true")
    await userEvent.click(del)
    expect(routeNames()).toEqual(["Only"])
    expect(selectedName()).toEqual(["Only"])
    const toast = await screen.findByTestId("toast")
    expect(within(toast).getByText("Cannot delete this route")).toBeVisible()
    expect(await within(toast).findByText("At least one route must remain.")).toBeVisible()
    expect((await storedRoutes(h))?.map((r) => r.id)).toEqual(["custom-only"])
  })

  it("the edit and delete buttons are reachable by keyboard", async () => {
    await app()
    const first = screen.getAllByTestId("route-item")[0]!
    within(first).getByRole("button", { name: "XRD → hUSDC" }).focus()
    await userEvent.tab()
    expect(document.activeElement).toBe(within(first).getByRole("button", { name: "Edit XRD → hUSDC" }))
    await userEvent.tab()
    expect(document.activeElement).toBe(within(first).getByRole("button", { name: "Delete XRD → hUSDC" }))
    await userEvent.keyboard("{Enter}")
    expect(routeNames()).toEqual(DEFAULT_NAMES.slice(1))
  })
})

describe("frameSandbox", () => {
  const page = "https://hswap.app"
  it("keeps allow-same-origin for a frame on another origin", () => {
    expect(frameSandbox(TRADING_FRAME_SANDBOX, "https://partner.example/embed?x=1", page)).toBe(TRADING_FRAME_SANDBOX)
    expect(frameSandbox(DASHBOARD_FRAME_SANDBOX, "https://dashboard.radixdlt.com/account/a/tokens", page)).toBe(
      DASHBOARD_FRAME_SANDBOX
    )
    // Another port or scheme is another origin.
    expect(frameSandbox(TRADING_FRAME_SANDBOX, "https://hswap.app:8443/trade", page)).toBe(TRADING_FRAME_SANDBOX)
    expect(frameSandbox(TRADING_FRAME_SANDBOX, "http://hswap.app/trade", page)).toBe(TRADING_FRAME_SANDBOX)
  })
  it("drops allow-same-origin for a frame on the page's own origin, by path or by absolute URL", () => {
    expect(frameSandbox(TRADING_FRAME_SANDBOX, "/devnet/trade?sell_resource=a", page)).toBe(
      "allow-scripts allow-forms allow-popups"
    )
    expect(frameSandbox(DASHBOARD_FRAME_SANDBOX, "https://hswap.app/devnet/dashboard", page)).toBe(
      "allow-scripts allow-popups"
    )
    expect(frameSandbox(TRADING_FRAME_SANDBOX, "//hswap.app/x", page)).toBe("allow-scripts allow-forms allow-popups")
  })
  it("treats a URL it cannot resolve as the page's own, the stricter case", () => {
    expect(frameSandbox(TRADING_FRAME_SANDBOX, "http://[bad", page)).toBe("allow-scripts allow-forms allow-popups")
  })
})
