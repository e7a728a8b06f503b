/**
 * The devnet wallet emulator in a real browser, against the `npm start` stack: the in-page extension stand-in
 * (protocol, panel, approve/reject, auto-approve), a transaction whose balance change shows on the devnet dashboard,
 * and the mobile flow (deep link → mobile-wallet endpoint → relay → the toolkit decrypts).
 *
 * Until the app has its ConnectButton, the page side of the extension protocol is driven with window CustomEvents,
 * exactly as the toolkit dispatches them.
 */
import { FetchHttpClient, KeyValueStore } from "@effect/platform"
import { expect, type Page, test } from "@playwright/test"
import { Effect, Layer, ManagedRuntime } from "effect"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { ToolkitConfig } from "../src/toolkit/config"
import { Crypto } from "../src/toolkit/crypto"
import { Environment } from "../src/toolkit/environment"
import { Relay } from "../src/toolkit/relay"
import type { WalletInteraction, WalletInteractionItems } from "../src/toolkit/schemas"
import { Storage } from "../src/toolkit/storage"
import { blockExternal, snap } from "./helpers"

const SEND = "radix#chromeExtension#send"
const RECEIVE = "radix#chromeExtension#receive"
const [user1 = "", user2 = "", user3 = ""] = DevnetAddresses.users
const { hUSDC, hETH } = DevnetAddresses.resources

const interactionOf = (items: WalletInteractionItems, origin: string): WalletInteraction => ({
  items,
  interactionId: crypto.randomUUID(),
  metadata: { version: 2, dAppDefinitionAddress: DevnetAddresses.dAppDefinition, networkId: 240, origin }
})

const transfer = (from: string, to: string, resource: string, amount: string) => `
CALL_METHOD Address("${from}") "withdraw" Address("${resource}") Decimal("${amount}");
TAKE_ALL_FROM_WORKTOP Address("${resource}") Bucket("b");
CALL_METHOD Address("${to}") "try_deposit_or_abort" Bucket("b") Enum<0u8>();`

type Received = Record<string, unknown>

/** Records everything the extension stand-in sends to the page. */
const listen = (page: Page) =>
  page.evaluate((receive) => {
    const w = window as unknown as { __received: Array<unknown> }
    w.__received = []
    window.addEventListener(receive, (e) => w.__received.push((e as CustomEvent<unknown>).detail))
  }, RECEIVE)

/** Dispatches like the toolkit does; answers what arrived synchronously inside the dispatch. */
const dispatch = (page: Page, detail: unknown) =>
  page.evaluate(
    ([send, d]) => {
      const w = window as unknown as { __received: Array<unknown> }
      const before = w.__received.length
      window.dispatchEvent(new CustomEvent(send, { detail: d }))
      return w.__received.slice(before) as Array<Record<string, unknown>>
    },
    [SEND, detail] as const
  )

const received = (page: Page) => page.evaluate(() => (window as unknown as { __received: Array<Received> }).__received)

const responseFor = (page: Page, interactionId: string) =>
  expect
    .poll(
      async () => (await received(page)).find((d) => d["interactionId"] === interactionId && "discriminator" in d),
      {
        timeout: 15_000
      }
    )
    .toBeTruthy()
    .then(
      async () => (await received(page)).find((d) => d["interactionId"] === interactionId && "discriminator" in d) ?? {}
    )

const panel = (page: Page) => page.getByRole("region", { name: "Devnet Wallet" })

/** The hUSDC amount on the devnet dashboard's tokens view of an account. */
const hUsdcOf = async (page: Page, account: string) => {
  await page.goto(`/devnet/dashboard/account/${account}/tokens`)
  const text = await page.getByRole("row").filter({ hasText: "hUSDC" }).locator("td.num").innerText()
  return Number(text)
}

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
})

test("the extension stand-in: status, receivedByExtension inside the dispatch, receivedByWallet, and a login approved in the panel", async ({
  page,
  baseURL
}, info) => {
  await page.goto("/?devnetWallet=manual")
  await expect(panel(page)).toBeVisible()
  await expect(panel(page)).toContainText("Devnet Wallet")
  await listen(page)
  expect(await dispatch(page, { interactionId: crypto.randomUUID(), discriminator: "extensionStatus" })).toEqual([])
  await expect
    .poll(() => received(page))
    .toContainEqual({
      eventType: "extensionStatus",
      isExtensionAvailable: true,
      isWalletLinked: true,
      canHandleSessions: true
    })

  const login = interactionOf(
    {
      discriminator: "authorizedRequest",
      auth: { discriminator: "loginWithoutChallenge" },
      reset: { accounts: false, personaData: false },
      ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } }
    },
    baseURL ?? ""
  )
  const sessionId = crypto.randomUUID()
  const inside = await dispatch(page, {
    interactionId: login.interactionId,
    interaction: login,
    sessionId,
    discriminator: "walletInteraction"
  })
  expect(inside).toEqual([{ eventType: "receivedByExtension", interactionId: login.interactionId }])
  await expect
    .poll(() => received(page))
    .toContainEqual({ eventType: "receivedByWallet", interactionId: login.interactionId })
  const card = page.getByTestId("devnet-wallet-request")
  await expect(card).toContainText("Login request")
  await expect(card).toContainText("Share at least 1 account")
  await snap(page, info, "devnet-wallet-login")
  await card.getByTestId("devnet-wallet-account").nth(1).check()
  await card.getByTestId("devnet-wallet-approve").click()
  const response = await responseFor(page, login.interactionId)
  expect(response).toMatchObject({
    discriminator: "success",
    items: {
      discriminator: "authorizedRequest",
      auth: { discriminator: "loginWithoutChallenge", persona: { identityAddress: DevnetAddresses.persona } },
      ongoingAccounts: { accounts: [{ address: user1 }, { address: user2 }] }
    }
  })
  await expect(card).toHaveCount(0)
})

test("connect with the app's ConnectButton: the Devnet Wallet answers and the button shows the persona", async ({
  page
}, info) => {
  await page.goto("/?devnetWallet=auto")
  const slot = page.getByTestId("connect-button-slot")
  await slot.getByRole("button", { name: /connect/i }).click()
  await page.getByRole("button", { name: "Connect Now" }).click()
  await expect(slot.getByRole("button", { name: "Devnet Persona" })).toBeVisible({ timeout: 15_000 })
  await expect(panel(page)).toBeVisible()
  await snap(page, info, "devnet-wallet-connected")
})

test("cancel: a pending request is withdrawn (requestCancelSuccess), an unknown one is not (requestCancelFail)", async ({
  page,
  baseURL
}) => {
  await page.goto("/?devnetWallet=manual")
  await listen(page)
  const request = interactionOf(
    {
      discriminator: "unauthorizedRequest",
      oneTimeAccounts: { numberOfAccounts: { quantifier: "exactly", quantity: 1 } }
    },
    baseURL ?? ""
  )
  await dispatch(page, {
    interactionId: request.interactionId,
    interaction: request,
    discriminator: "walletInteraction"
  })
  await expect(page.getByTestId("devnet-wallet-request")).toContainText("One-time data request")
  await dispatch(page, {
    interactionId: request.interactionId,
    metadata: request.metadata,
    discriminator: "cancelWalletInteraction"
  })
  await expect
    .poll(() => received(page))
    .toContainEqual({ eventType: "requestCancelSuccess", interactionId: request.interactionId })
  await expect(page.getByTestId("devnet-wallet-request")).toHaveCount(0)
  const unknown = crypto.randomUUID()
  await dispatch(page, { interactionId: unknown, metadata: request.metadata, discriminator: "cancelWalletInteraction" })
  await expect.poll(() => received(page)).toContainEqual({ eventType: "requestCancelFail", interactionId: unknown })
})

test("approve a transaction after its preview; the balance changes on the devnet dashboard", async ({
  page,
  baseURL
}, info) => {
  // Each project moves funds from its own account, so parallel runs do not disturb each other's balances.
  const from = info.project.name === "mobile" ? user3 : user2
  const before = await hUsdcOf(page, from)
  await page.goto("/?devnetWallet=manual")
  await listen(page)
  const send = interactionOf(
    {
      discriminator: "transaction",
      send: { transactionManifest: transfer(from, user1, hUSDC, "10.5"), version: 1, message: "devnet e2e transfer" }
    },
    baseURL ?? ""
  )
  await dispatch(page, { interactionId: send.interactionId, interaction: send, discriminator: "walletInteraction" })
  const card = page.getByTestId("devnet-wallet-request")
  await expect(card).toContainText("Transaction request")
  await expect(card.getByTestId("devnet-wallet-withdrawals")).toContainText("-10.5")
  await expect(card.getByTestId("devnet-wallet-withdrawals")).toContainText("hUSDC")
  await expect(card.getByTestId("devnet-wallet-deposits")).toContainText("Devnet Account 1")
  await expect(card.getByTestId("devnet-wallet-predicted")).toHaveText("Expected to succeed")
  await snap(page, info, "devnet-wallet-transaction-preview")
  await card.getByTestId("devnet-wallet-approve").click()
  const response = await responseFor(page, send.interactionId)
  expect(response).toMatchObject({ discriminator: "success", items: { discriminator: "transaction" } })
  const txid = (response as { items: { send: { transactionIntentHash: string } } }).items.send.transactionIntentHash
  expect(txid).toMatch(/^txid_loc1/)
  await expect(panel(page).getByTestId("devnet-wallet-log")).toContainText(txid)

  await page.goto(`/devnet/dashboard/transaction/${txid}`)
  await expect(page.getByTestId("status")).toHaveText("CommittedSuccess")
  await expect(page.getByTestId("message")).toHaveText("devnet e2e transfer")
  await expect(page.getByTestId("balance-changes")).toContainText("-10.5")
  await snap(page, info, "devnet-dashboard-transaction")
  expect(await hUsdcOf(page, from)).toBeCloseTo(before - 10.5, 6)
  await page.goto(`/devnet/dashboard/account/${from}`)
  await expect(page.getByRole("link", { name: txid })).toBeVisible()
  await snap(page, info, "devnet-dashboard-account")
})

test("reject a transaction: the dApp gets rejectedByUser and nothing is submitted", async ({ page, baseURL }) => {
  await page.goto("/?devnetWallet=manual")
  await listen(page)
  const send = interactionOf(
    { discriminator: "transaction", send: { transactionManifest: transfer(user1, user2, hETH, "0.01"), version: 1 } },
    baseURL ?? ""
  )
  await dispatch(page, { interactionId: send.interactionId, interaction: send, discriminator: "walletInteraction" })
  const card = page.getByTestId("devnet-wallet-request")
  await expect(card.getByTestId("devnet-wallet-approve")).toBeEnabled()
  await card.getByTestId("devnet-wallet-reject").click()
  expect(await responseFor(page, send.interactionId)).toEqual({
    discriminator: "failure",
    interactionId: send.interactionId,
    error: "rejectedByUser"
  })
  await expect(panel(page).getByTestId("devnet-wallet-log")).toContainText("Answered rejectedByUser")
})

test("auto-approve is switched on by ?devnetWallet=auto, kept in localStorage, and off by ?devnetWallet=manual", async ({
  page,
  baseURL
}) => {
  await page.goto("/?devnetWallet=auto")
  await listen(page)
  await page.getByTestId("devnet-wallet-toggle").click()
  await expect(page.getByTestId("devnet-wallet-auto")).toBeChecked()
  const request = interactionOf(
    { discriminator: "unauthorizedRequest", oneTimePersonaData: { isRequestingName: true } },
    baseURL ?? ""
  )
  await dispatch(page, {
    interactionId: request.interactionId,
    interaction: request,
    discriminator: "walletInteraction"
  })
  expect(await responseFor(page, request.interactionId)).toMatchObject({
    discriminator: "success",
    items: { discriminator: "unauthorizedRequest", oneTimePersonaData: { name: { familyName: "Devnet" } } }
  })
  await page.goto("/")
  await page.getByTestId("devnet-wallet-toggle").click()
  await expect(page.getByTestId("devnet-wallet-auto")).toBeChecked()
  await page.goto("/?devnetWallet=manual")
  await page.getByTestId("devnet-wallet-toggle").click()
  await expect(page.getByTestId("devnet-wallet-auto")).not.toBeChecked()
})

test("the panel never covers a toast: at a phone's width the toasts sit above it, on a wide screen beside it", async ({
  page
}, info) => {
  const welcome = page.getByTestId("toast").filter({ hasText: "Welcome to hSwap" })
  // Each load a new visit: the welcome toast opens by itself on both.
  await page.addInitScript(() => {
    try {
      window.sessionStorage.removeItem("hswap:welcome-shown")
    } catch {
      // about:blank has no storage of its own.
    }
  })
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 })
    await page.goto("/")
    await expect(welcome).toBeVisible({ timeout: 15_000 })
    // The toast's entry animation ends before its box is read.
    await expect
      .poll(() => welcome.evaluate((el) => el.getAnimations().filter((a) => a.playState === "running").length))
      .toBe(0)
    const toast = await welcome.boundingBox()
    const wallet = await panel(page).boundingBox()
    expect(toast).not.toBeNull()
    expect(wallet).not.toBeNull()
    if (toast === null || wallet === null) return
    const apart =
      toast.y + toast.height <= wallet.y || toast.x >= wallet.x + wallet.width || toast.x + toast.width <= wallet.x
    expect(apart, `toast ${JSON.stringify(toast)} and panel ${JSON.stringify(wallet)} at ${width} px`).toBe(true)
    // On a wide screen nothing moves: the toast keeps to the bottom right corner.
    if (width === 1280) expect(Math.round(toast.y + toast.height)).toBeGreaterThanOrEqual(844 - 20)
    else expect(toast.y + toast.height).toBeLessThanOrEqual(wallet.y)
    await snap(page, info, `devnet-panel-toast-${width}`)
  }
})

test.describe("mobile: a deep link answered through the relay", () => {
  test.use({
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
  })

  test("connect from the app on a phone: the deep link the app opens is answered through the relay", async ({
    page
  }, info) => {
    // The app opens `radixwallet://connect?…` with location.href; Chromium reports the requested navigation.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send("Page.enable")
    const links: Array<string> = []
    cdp.on("Page.frameRequestedNavigation", (event: { url: string }) => {
      if (event.url.startsWith("radixwallet://")) links.push(event.url)
    })
    await page.goto("/")
    const slot = page.getByTestId("connect-button-slot")
    await slot.getByRole("button", { name: /connect/i }).click()
    await page.getByRole("button", { name: "Connect Now" }).click()
    await expect.poll(() => links.length, { timeout: 10_000 }).toBe(1)
    const answered = await page.request.post("/devnet/mobile-wallet/deeplink", { data: { url: links[0] } })
    expect(answered.status()).toBe(200)
    expect(await answered.json()).toMatchObject({ response: { discriminator: "success" } })
    await expect(slot.getByRole("button", { name: "Devnet Persona" })).toBeVisible({ timeout: 15_000 })
    await snap(page, info, "devnet-mobile-connected")
  })

  test("connect, then a transaction: the mobile wallet answers each deep link and the toolkit decrypts it from the relay", async ({
    page,
    baseURL
  }, info) => {
    const origin = baseURL ?? ""
    // The dApp side: the toolkit's own Relay (identity, session, signed deep link, decryption) in the test process.
    const runtime = ManagedRuntime.make(
      Relay.Default.pipe(
        Layer.provideMerge(
          Layer.mergeAll(Storage.Default, Crypto.Live, Environment.Test({ isMobile: true, origin })).pipe(
            Layer.provideMerge(KeyValueStore.layerMemory),
            Layer.provideMerge(
              ToolkitConfig.layer({
                networkId: 240,
                dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
                relayUrl: `${origin}/relay`
              })
            )
          )
        ),
        Layer.provide(FetchHttpClient.layer)
      )
    )
    try {
      await page.goto("/")
      expect(await page.evaluate(() => /iphone|mobi/i.test(navigator.userAgent))).toBe(true)
      const sessionId = await runtime.runPromise(
        Effect.flatMap(Relay, (r) => r.getSession).pipe(Effect.map((s) => s.sessionId))
      )

      /** The wallet opens the link; the page polls the relay as the toolkit does (text/plain, no headers). */
      const roundTrip = async (interaction: WalletInteraction) => {
        const link = await runtime.runPromise(Effect.flatMap(Relay, (r) => r.deepLink(interaction)))
        expect(link.startsWith("radixwallet://connect?")).toBe(true)
        const answered = await page.evaluate(async (url) => {
          const res = await fetch("/devnet/mobile-wallet/deeplink", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ url })
          })
          return { status: res.status, json: (await res.json()) as Record<string, unknown> }
        }, link)
        expect(answered.status).toBe(200)
        const entries = await page.evaluate(async (session) => {
          const res = await fetch("/relay/api/v1", {
            method: "POST",
            body: JSON.stringify({ method: "getResponses", sessionId: session })
          })
          return (await res.json()) as Array<unknown>
        }, sessionId)
        expect(entries.length).toBe(1)
        const decrypted = await runtime.runPromise(Effect.flatMap(Relay, (r) => r.decryptEntry(entries[0])))
        expect(decrypted).toEqual(answered.json["response"])
        return decrypted
      }

      const connected = await roundTrip(
        interactionOf(
          {
            discriminator: "authorizedRequest",
            auth: { discriminator: "loginWithoutChallenge" },
            reset: { accounts: false, personaData: false },
            ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } }
          },
          origin
        )
      )
      expect(connected).toMatchObject({
        discriminator: "success",
        items: { ongoingAccounts: { accounts: [{ address: user1 }] } }
      })

      const sent = await roundTrip(
        interactionOf(
          {
            discriminator: "transaction",
            send: { transactionManifest: transfer(user1, user2, hETH, "0.02"), version: 1 }
          },
          origin
        )
      )
      if (sent.discriminator !== "success" || sent.items.discriminator !== "transaction")
        throw new Error("no transaction answer")
      await page.goto(`/devnet/dashboard/transaction/${sent.items.send.transactionIntentHash}`)
      await expect(page.getByTestId("status")).toHaveText("CommittedSuccess")
      await expect(page.getByTestId("balance-changes")).toContainText("-0.02")
      await snap(page, info, "devnet-mobile-relay-transaction")
    } finally {
      await runtime.dispose()
    }
  })
})
