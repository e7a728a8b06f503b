// @vitest-environment jsdom
/**
 * The in-page wallet script (the bundle `/devnet/wallet.js` serves) in a DOM, talking to the real wallet server,
 * driven by the toolkit's own Extension transport; answers are checked with the official toolkit's schema.
 */
import * as RDT from "@radixdlt/radix-dapp-toolkit"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Ref } from "effect"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { safeParse } from "valibot"
import { AUTO_APPROVE_STORAGE_KEY } from "../../src/devnet/wallet/api.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { Extension } from "../../src/toolkit/extension.js"
import type { MessageLifeCycleEventType, WalletInteraction, WalletInteractionItems } from "../../src/toolkit/schemas.js"
import { baseLayer } from "../toolkit/layers.js"

/**
 * The devnet server runs in a child process: esbuild and the Radix Engine Toolkit need Node's own realm, which a
 * jsdom test environment replaces.
 */
const SERVER = `
import { createServer } from "node:http"
import { startDevnetGateway } from "./src/devnet/gateway/node.ts"
import { startDevnetWallet } from "./src/devnet/wallet/index.ts"
const gateway = await startDevnetGateway({ dataDir: undefined })
const wallet = await startDevnetWallet({ gateway })
const server = createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0] ?? "/"
  const mount = wallet.mounts.find((m) => path === m.prefix || path.startsWith(m.prefix + "/"))
  if (mount === undefined) res.writeHead(404).end()
  else void mount.handle(req, res)
})
server.listen(0, "127.0.0.1", () => console.log("LISTENING " + server.address().port))
process.stdin.on("end", async () => {
  server.close()
  server.closeAllConnections()
  await wallet.close()
  await gateway.dispose()
  process.exit(0)
})
process.stdin.resume()
`

let child: ChildProcessWithoutNullStreams | undefined
const realFetch = globalThis.fetch

beforeAll(async () => {
  const server = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SERVER], {
    cwd: process.cwd()
  })
  child = server
  const port = await new Promise<string>((ok, fail) => {
    let out = ""
    server.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8")
      const m = /LISTENING (\d+)/.exec(out)
      if (m?.[1] !== undefined) ok(m[1])
    })
    server.once("exit", (code) => fail(new Error(`the devnet server exited (${code}) before listening`)))
  })
  const base = `http://127.0.0.1:${port}`
  // The page's same-origin requests go to the devnet server.
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, base), init)
  window.localStorage.setItem(AUTO_APPROVE_STORAGE_KEY, "0")
  const script = await (await fetch("/devnet/wallet.js")).text()
  new Function(script)()
}, 60_000)

afterAll(async () => {
  globalThis.fetch = realFetch
  const server = child
  if (server === undefined || server.exitCode !== null) return
  const exited = new Promise<void>((ok) => server.once("exit", () => ok()))
  server.stdin.end()
  const timer = setTimeout(() => server.kill("SIGKILL"), 10_000)
  await exited
  clearTimeout(timer)
})

const shadow = () => {
  const root = document.getElementById("hswap-devnet-wallet")?.shadowRoot
  if (root === null || root === undefined) throw new Error("the Devnet Wallet panel is not mounted")
  return root
}

const waitFor = <A>(find: () => A | null | undefined) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200; i++) {
      const found = find()
      if (found !== null && found !== undefined) return found
      yield* Effect.sleep("25 millis")
    }
    return yield* Effect.dieMessage("timed out waiting for the panel")
  })

let counter = 0
const interactionOf = (items: WalletInteractionItems): WalletInteraction => ({
  items,
  interactionId: `22222222-3333-4444-8555-${String(++counter).padStart(12, "0")}`,
  metadata: {
    version: 2,
    dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
    networkId: 240,
    origin: "https://ignored.example"
  }
})

const extensionLayer = () =>
  Extension.Default.pipe(Layer.provideMerge(baseLayer({ events: window, seed: `page-${++counter}` })))

const challenge = "7807c2904fd1867738639c8e402fe55320da2c6275189ef0513de36dda20f7ee"

describe("the in-page wallet with the toolkit's Extension transport", () => {
  it.live("announces a linked extension that handles sessions, with the labelled panel in the page", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      yield* extension.detected
      expect(yield* extension.getStatus).toEqual({
        isExtensionAvailable: true,
        isWalletLinked: true,
        canHandleSessions: true
      })
      expect(shadow().querySelector("section")?.getAttribute("aria-label")).toBe("Devnet Wallet")
      expect(shadow().textContent).toContain("Devnet Wallet")
    }).pipe(Effect.provide(extensionLayer()))
  )

  it.live("auto-approve answers a login with challenge: lifecycle events, page origin, RDT-valid answer", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      const auto = yield* waitFor(() => shadow().querySelector<HTMLInputElement>('[data-testid="devnet-wallet-auto"]'))
      auto.checked = true
      auto.dispatchEvent(new Event("change"))
      expect(window.localStorage.getItem(AUTO_APPROVE_STORAGE_KEY)).toBe("1")
      const events = yield* Ref.make<ReadonlyArray<MessageLifeCycleEventType>>([])
      const response = yield* extension.send(
        interactionOf({
          discriminator: "authorizedRequest",
          auth: { discriminator: "loginWithChallenge", challenge },
          reset: { accounts: false, personaData: false },
          ongoingAccounts: { challenge, numberOfAccounts: { quantifier: "exactly", quantity: 1 } }
        }),
        { onLifecycleEvent: (e) => Ref.update(events, (all) => [...all, e]) }
      )
      expect(yield* Ref.get(events)).toEqual(["receivedByExtension", "receivedByWallet"])
      expect(safeParse(RDT.WalletInteractionResponse, response).success).toBe(true)
      expect(response).toMatchObject({
        discriminator: "success",
        items: {
          discriminator: "authorizedRequest",
          auth: {
            discriminator: "loginWithChallenge",
            persona: { identityAddress: DevnetAddresses.persona },
            challenge
          },
          ongoingAccounts: { accounts: [{ address: DevnetAddresses.users[0] }], challenge }
        }
      })
    }).pipe(
      // Auto-approve goes off again whatever happened, so a failure here cannot approve the manual tests' requests.
      Effect.ensuring(
        Effect.sync(() => {
          const auto = shadow().querySelector<HTMLInputElement>('[data-testid="devnet-wallet-auto"]')
          if (auto !== null && auto.checked) {
            auto.checked = false
            auto.dispatchEvent(new Event("change"))
          }
          window.localStorage.setItem(AUTO_APPROVE_STORAGE_KEY, "0")
        })
      ),
      Effect.provide(extensionLayer())
    )
  )

  it.live("manual: the panel shows the request as text, Reject answers rejectedByUser", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      const hostile = `<img src=x onerror="globalThis.__pwned=1">`
      const fiber = yield* Effect.fork(
        extension.send(
          interactionOf({
            discriminator: "transaction",
            send: {
              version: 1,
              message: hostile,
              transactionManifest: `CALL_METHOD Address("${DevnetAddresses.users[1]}") "withdraw" Address("${DevnetAddresses.resources.hUSDC}") Decimal("1");
TAKE_ALL_FROM_WORKTOP Address("${DevnetAddresses.resources.hUSDC}") Bucket("b");
CALL_METHOD Address("${DevnetAddresses.users[2]}") "try_deposit_or_abort" Bucket("b") Enum<0u8>();`
            }
          })
        )
      )
      const reject = yield* waitFor(() =>
        shadow().querySelector<HTMLButtonElement>('[data-testid="devnet-wallet-reject"]')
      )
      const card = yield* waitFor(() =>
        shadow().querySelector(
          '[data-testid="devnet-wallet-request"][data-kind="transaction"] [data-testid="devnet-wallet-withdrawals"]'
        )
      )
      expect(card.textContent).toContain("-1")
      expect(card.textContent).toContain("hUSDC")
      expect(shadow().textContent).toContain(hostile)
      expect(shadow().querySelector("img")).toBeNull()
      expect(shadow().textContent).toContain(`from ${window.location.origin}`)
      reject.click()
      const response = yield* Fiber.join(fiber)
      expect(response).toEqual({
        discriminator: "failure",
        interactionId: response.interactionId,
        error: "rejectedByUser"
      })
      expect(safeParse(RDT.WalletInteractionResponse, response).success).toBe(true)
      expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined()
    }).pipe(Effect.provide(extensionLayer()))
  )

  it.live("manual: the user's account pick is checked in the panel before anything is answered", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      const fiber = yield* Effect.fork(
        extension.send(
          interactionOf({
            discriminator: "unauthorizedRequest",
            oneTimeAccounts: { numberOfAccounts: { quantifier: "exactly", quantity: 1 } }
          })
        )
      )
      const boxes = yield* waitFor(() => {
        const found = shadow().querySelectorAll<HTMLInputElement>('[data-testid="devnet-wallet-account"]')
        return found.length === 3 ? found : undefined
      })
      const [first, , third] = [...boxes]
      if (first === undefined || third === undefined) throw new Error("no account boxes")
      expect(first.checked).toBe(true)
      third.checked = true
      third.dispatchEvent(new Event("change"))
      shadow().querySelector<HTMLButtonElement>('[data-testid="devnet-wallet-approve"]')?.click()
      yield* waitFor(() =>
        shadow().textContent?.includes("Choose exactly 1 account(s) to share") === true ? true : undefined
      )
      expect(fiber.unsafePoll()).toBeNull()
      const again = shadow().querySelectorAll<HTMLInputElement>('[data-testid="devnet-wallet-account"]')[0]
      if (again === undefined) throw new Error("no account box")
      again.checked = false
      again.dispatchEvent(new Event("change"))
      shadow().querySelector<HTMLButtonElement>('[data-testid="devnet-wallet-approve"]')?.click()
      const response = yield* Fiber.join(fiber)
      expect(response).toMatchObject({
        discriminator: "success",
        items: { oneTimeAccounts: { accounts: [{ address: DevnetAddresses.users[2] }] } }
      })
    }).pipe(Effect.provide(extensionLayer()))
  )

  it.live("cancel: a pending request is withdrawn from the panel and the dApp hears requestCancelSuccess", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      const interaction = interactionOf({
        discriminator: "unauthorizedRequest",
        oneTimeAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } }
      })
      const fiber = yield* Effect.fork(Effect.either(extension.send(interaction)))
      yield* waitFor(() => shadow().querySelector('[data-testid="devnet-wallet-request"][data-kind="data"]'))
      expect(yield* extension.cancel(interaction)).toBe("requestCancelSuccess")
      const sent = yield* Fiber.join(fiber)
      expect(sent._tag === "Left" && sent.left._tag).toBe("canceledByUser")
      expect(shadow().querySelector('[data-testid="devnet-wallet-request"]')).toBeNull()
    }).pipe(Effect.provide(extensionLayer()))
  )
})

const preAuthorization = (message?: string): WalletInteractionItems => ({
  discriminator: "preAuthorizationRequest",
  request: {
    discriminator: "subintent",
    version: 1,
    manifestVersion: 2,
    subintentManifest: `CALL_METHOD Address("${DevnetAddresses.users[0]}") "withdraw" Address("${DevnetAddresses.resources.XRD}") Decimal("10");
TAKE_FROM_WORKTOP Address("${DevnetAddresses.resources.XRD}") Decimal("10") Bucket("sold");
YIELD_TO_PARENT Bucket("sold");
ASSERT_WORKTOP_CONTAINS Address("${DevnetAddresses.resources.hUSDC}") Decimal("2");
CALL_METHOD Address("${DevnetAddresses.users[0]}") "deposit_batch" Expression("ENTIRE_WORKTOP");
YIELD_TO_PARENT;`,
    expiration: { discriminator: "expireAfterDelay", expireAfterSeconds: 600 },
    ...(message === undefined ? {} : { message })
  }
})

describe("pre-authorisations in the in-page wallet", () => {
  it.live("manual: the panel shows withdrawals, guarantees and the message as text; Reject, then Approve", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      const hostile = `<img src=x onerror="globalThis.__pwnedPreauth=1">`
      const rejected = yield* Effect.fork(extension.send(interactionOf(preAuthorization(hostile))))
      const card = yield* waitFor(() =>
        shadow().querySelector('[data-testid="devnet-wallet-request"][data-kind="preAuthorization"]')
      )
      const withdrawals = yield* waitFor(() => card.querySelector('[data-testid="devnet-wallet-withdrawals"]'))
      expect(withdrawals.textContent).toContain("-10")
      expect(withdrawals.textContent).toContain("XRD")
      const guarantees = card.querySelector('[data-testid="devnet-wallet-guarantees"]')
      expect(guarantees?.textContent).toContain("at least 2")
      expect(guarantees?.textContent).toContain("hUSDC")
      expect(card.querySelector('[data-testid="devnet-wallet-expiry"]')?.textContent).toBe(
        "Expires 600 s after approval"
      )
      expect(card.textContent).toContain(hostile)
      expect(shadow().querySelector("img")).toBeNull()
      card.querySelector<HTMLButtonElement>('[data-testid="devnet-wallet-reject"]')?.click()
      const no = yield* Fiber.join(rejected)
      expect(no).toEqual({ discriminator: "failure", interactionId: no.interactionId, error: "rejectedByUser" })
      expect((globalThis as { __pwnedPreauth?: number }).__pwnedPreauth).toBeUndefined()

      const approved = yield* Effect.fork(extension.send(interactionOf(preAuthorization())))
      const approve = yield* waitFor(() =>
        shadow().querySelector<HTMLButtonElement>(
          '[data-testid="devnet-wallet-request"][data-kind="preAuthorization"] [data-testid="devnet-wallet-guarantees"]'
        )
          ? shadow().querySelector<HTMLButtonElement>('[data-testid="devnet-wallet-approve"]')
          : undefined
      )
      approve.click()
      const yes = yield* Fiber.join(approved)
      expect(safeParse(RDT.WalletInteractionResponse, yes).success).toBe(true)
      expect(yes).toMatchObject({
        discriminator: "success",
        items: {
          discriminator: "preAuthorizationResponse",
          response: { subintentHash: expect.stringMatching(/^subtxid_loc1/) }
        }
      })
      yield* waitFor(() => (shadow().textContent?.includes("Signed subtxid_loc1") === true ? true : undefined))
    }).pipe(Effect.provide(extensionLayer()))
  )

  it.live("auto-approve signs a pre-authorisation without a click", () =>
    Effect.gen(function* () {
      const extension = yield* Extension
      const auto = yield* waitFor(() => shadow().querySelector<HTMLInputElement>('[data-testid="devnet-wallet-auto"]'))
      auto.checked = true
      auto.dispatchEvent(new Event("change"))
      const response = yield* extension.send(interactionOf(preAuthorization("auto")))
      expect(safeParse(RDT.WalletInteractionResponse, response).success).toBe(true)
      expect(response).toMatchObject({
        discriminator: "success",
        items: {
          discriminator: "preAuthorizationResponse",
          response: { signedPartialTransaction: expect.stringMatching(/^4d/), expirationTimestamp: expect.any(Number) }
        }
      })
    }).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          const auto = shadow().querySelector<HTMLInputElement>('[data-testid="devnet-wallet-auto"]')
          if (auto !== null && auto.checked) {
            auto.checked = false
            auto.dispatchEvent(new Event("change"))
          }
          window.localStorage.setItem(AUTO_APPROVE_STORAGE_KEY, "0")
        })
      ),
      Effect.provide(extensionLayer())
    )
  )
})
