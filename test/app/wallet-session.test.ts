import { HttpClient, HttpClientResponse, KeyValueStore } from "@effect/platform"
import { it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Option, Stream, SubscriptionRef, TestClock } from "effect"
import { describe, expect } from "vitest"
import { AppConfig } from "../../src/app/config/AppConfig"
import { Toaster } from "../../src/app/services/Toaster"
import { shortenAddressToast } from "../../src/exchange/format"
import type { Balances, BalanceBadge, SessionState } from "../../src/app/services/WalletSession"
import { makeWalletSession, SELECTED_ACCOUNT_KEY } from "../../src/app/services/WalletSessionLive"
import { makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator"
import { Ledger } from "../../src/devnet/ledger/Ledger"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { apiHttpFromHttpClient } from "../../src/exchange/apiHttpClient"
import { Gateway } from "../../src/gateway/index"
import { emptyWalletData, type WalletData } from "../../src/toolkit/index"
import { storageKey } from "../../src/toolkit/config"
import { decodeBech32m, encodeBech32m } from "../../src/exchange/bech32m"
import { captureLogs, type LogLine, messagesAt, testConfig } from "./harness"

const [alice, bob] = DevnetAddresses.users
const account = (address: string, label: string) => ({ address, label, appearanceId: 0 })

/** Our Gateway client over the devnet's gateway emulator, in process and as Effects (TestClock-friendly). */
const DevnetGateway = Layer.unwrapEffect(
  Effect.gen(function* () {
    const emulator = yield* makeGatewayEmulator
    const ledger = yield* Effect.context<Ledger>()
    const calls: Array<string> = []
    const http = HttpClient.make((request, url) =>
      Effect.gen(function* () {
        const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        const path = url.pathname.replace(/^\/gateway/, "")
        calls.push(path)
        const res = yield* emulator.handle({ method: "POST", path, body: text === "" ? undefined : JSON.parse(text) })
        return HttpClientResponse.fromWeb(request, Response.json(res.json, { status: res.status }))
      }).pipe(Effect.provide(ledger))
    )
    const client = Layer.succeed(HttpClient.HttpClient, http)
    return Layer.mergeAll(
      Gateway.layer({ basePath: "http://devnet.invalid/gateway", applicationName: "test" }).pipe(
        Layer.provide(client),
        Layer.orDie
      ),
      // The startup read of the fund account sends with ApiHttp (fundAccountRead.ts), over the same emulator.
      apiHttpFromHttpClient.pipe(Layer.provide(client)),
      Layer.succeed(GatewayCalls, calls)
    )
  })
).pipe(Layer.provide(Ledger.memory()))

class GatewayCalls extends Context.Tag("test/GatewayCalls")<GatewayCalls, Array<string>>() {}

const env = Layer.mergeAll(
  DevnetGateway,
  Toaster.Default,
  AppConfig.layer(
    // Absolute, as in Node a request needs a host; the fake HTTP client answers any host from the emulator.
    testConfig({ VITE_GATEWAY_URL: "http://devnet.invalid/gateway" })
  ),
  KeyValueStore.layerMemory
)

const latest = <A>(s: Stream.Stream<A>) =>
  Effect.flatMap(Stream.runHead(s), (o) => Effect.succeed(Option.getOrThrow(o)))

describe("WalletSession (live, over the devnet gateway)", () => {
  it.scoped("reads the fund account once at startup, only logs it, and does not load the Gateway client for it", () =>
    Effect.gen(function* () {
      const lines: Array<LogLine> = []
      const calls = yield* GatewayCalls
      yield* makeWalletSession(Stream.never).pipe(Effect.provide(captureLogs(lines)))
      yield* TestClock.adjust("1 millis")
      const logged = lines.filter((l) => l.message === "fund account balances")
      expect(logged).toHaveLength(1)
      const amounts = logged[0]?.details[0] as Readonly<Record<string, string>>
      expect(Number(amounts[DevnetAddresses.resources.XRD])).toBeGreaterThan(0)
      expect(messagesAt(lines, "ERROR")).toEqual([])
      // One request, and not through the Gateway client: its reads would have counted a second path or more.
      expect(calls).toEqual(["/state/entity/details"])
      yield* TestClock.adjust("1 minute")
      expect(calls).toEqual(["/state/entity/details"])
    }).pipe(Effect.provide(env))
  )

  it.scoped("selects the first shared account, toasts, and reads its balances and GKS badge", () =>
    Effect.gen(function* () {
      const data = yield* SubscriptionRef.make<WalletData>(emptyWalletData)
      const session = yield* makeWalletSession(data.changes)
      const toaster = yield* Toaster
      expect((yield* latest(session.session)).accounts).toEqual([])
      expect(yield* latest(session.gksBalance)).toEqual({ _tag: "Hidden" })

      yield* SubscriptionRef.set(data, {
        ...emptyWalletData,
        accounts: [account(alice!, "Main"), account(bob!, "Savings")]
      })
      yield* TestClock.adjust("1 millis")
      const s: SessionState = yield* latest(session.session)
      expect(s.selected).toBe(alice)
      expect(yield* Effect.map(toaster.current, (ts) => ts.map((t) => [t.title, t.description]))).toEqual([
        ["Wallet Connected", "account_loc1280...nt3mp"]
      ])
      const b: Balances = yield* latest(session.balances)
      expect(b._tag).toBe("Ready")
      if (b._tag === "Ready") {
        expect(b.account).toBe(alice)
        expect(b.amounts[DevnetAddresses.resources.XRD]).toBeDefined()
        expect(Number(b.amounts[DevnetAddresses.resources.hETH])).toBeGreaterThan(0)
      }
      // Users hold no GKS: the badge shows 0.
      const badge: BalanceBadge = yield* latest(session.gksBalance)
      expect(badge).toEqual({ _tag: "Ready", amount: "0" })
    }).pipe(Effect.provide(env))
  )

  it.scoped("throttles balance reads to one per 15 s, and toasts account changes", () =>
    Effect.gen(function* () {
      const data = yield* SubscriptionRef.make<WalletData>({
        ...emptyWalletData,
        accounts: [account(alice!, "A"), account(bob!, "B")]
      })
      const session = yield* makeWalletSession(data.changes)
      const calls = yield* GatewayCalls
      yield* TestClock.adjust("1 millis")
      const reads = () => calls.filter((c) => c === "/state/entity/details").length
      const afterConnect = reads()
      yield* session.refreshBalances
      yield* TestClock.adjust("14 seconds")
      yield* session.refreshBalances
      expect(reads()).toBe(afterConnect)
      yield* TestClock.adjust("1 seconds")
      yield* session.refreshBalances
      expect(reads()).toBe(afterConnect + 1)

      yield* session.selectAccount(bob!)
      expect((yield* latest(session.session)).selected).toBe(bob)
      const toaster = yield* Toaster
      expect(yield* Effect.map(toaster.current, (ts) => ts[0]?.title)).toBe("Account Changed")
      expect(reads()).toBe(afterConnect + 2)
      // Choosing an account that is not shared changes nothing.
      yield* session.selectAccount("account_loc1nope")
      expect((yield* latest(session.session)).selected).toBe(bob)
    }).pipe(Effect.provide(env))
  )

  it.scoped("a reload keeps the account the user picked while the wallet still shares it", () =>
    Effect.gen(function* () {
      const both = { ...emptyWalletData, accounts: [account(alice!, "A"), account(bob!, "B")] }
      const first = yield* makeWalletSession((yield* SubscriptionRef.make<WalletData>(both)).changes)
      yield* TestClock.adjust("1 millis")
      yield* first.selectAccount(bob!)
      const kv = yield* KeyValueStore.KeyValueStore
      expect(yield* kv.get(SELECTED_ACCOUNT_KEY)).toEqual(Option.some(bob))
      // The next load: the wallet shares the same accounts, and the app works with bob again.
      const reloaded = yield* makeWalletSession((yield* SubscriptionRef.make<WalletData>(both)).changes)
      yield* TestClock.adjust("1 millis")
      expect((yield* latest(reloaded.session)).selected).toBe(bob)
      // A stored pick the wallet does not share is not used; a stored value that is no account at all neither.
      yield* kv.set(SELECTED_ACCOUNT_KEY, "<script>not an account</script>")
      const other = yield* makeWalletSession((yield* SubscriptionRef.make<WalletData>(both)).changes)
      yield* TestClock.adjust("1 millis")
      expect((yield* latest(other.session)).selected).toBe(alice)
    }).pipe(Effect.provide(env))
  )

  it.scoped("a reload that restores the stored session does not toast 'Wallet Connected'; a later connect does", () =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      const kv = yield* KeyValueStore.KeyValueStore
      const both = { ...emptyWalletData, accounts: [account(alice!, "A"), account(bob!, "B")] }
      yield* kv.set(
        storageKey(config.dAppDefinitionAddress, config.networkId, "state"),
        JSON.stringify({ loggedInTimestamp: "1", walletData: both, sharedData: {} })
      )
      const toaster = yield* Toaster
      const titles = Effect.map(toaster.current, (ts) => ts.map((t) => t.title))
      // As the lazy toolkit does on a reload: nothing until it loads, then the stored session.
      const data = yield* SubscriptionRef.make<WalletData>(emptyWalletData)
      const session = yield* makeWalletSession(data.changes)
      yield* TestClock.adjust("1 millis")
      yield* SubscriptionRef.set(data, both)
      yield* TestClock.adjust("1 millis")
      expect((yield* latest(session.session)).selected).toBe(alice)
      expect(yield* titles).toEqual([])
      // Logged out and connected again in the same page: both toasts.
      yield* SubscriptionRef.set(data, emptyWalletData)
      yield* TestClock.adjust("1 millis")
      yield* SubscriptionRef.set(data, both)
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual(["Wallet Disconnected"])
      // One toast at a time: 'Wallet Connected' follows the 3 s of 'Wallet Disconnected'.
      yield* TestClock.adjust("3 seconds")
      expect(yield* Effect.map(toaster.current, (ts) => ts.map((t) => [t.title, t.open]))).toEqual([
        ["Wallet Connected", true],
        ["Wallet Disconnected", false]
      ])
    }).pipe(Effect.provide(env))
  )

  it.scoped("what is not an account address on this network is left out of the session, and logged", () =>
    Effect.gen(function* () {
      const lines: Array<LogLine> = []
      const hostile = `<img src=x onerror=alert(1)>${"W".repeat(500)}`
      // alice's own key, as a Stokenet address: a real account, on another network.
      const stokenet = encodeBech32m("account_tdx_2_", decodeBech32m(alice!)!.bytes)
      const data = yield* SubscriptionRef.make<WalletData>({
        ...emptyWalletData,
        accounts: [account(hostile, "evil"), account(stokenet, "other network"), account(alice!, "Main")]
      })
      const session = yield* makeWalletSession(data.changes).pipe(Effect.provide(captureLogs(lines)))
      yield* TestClock.adjust("1 millis")
      expect(yield* latest(session.session)).toEqual({ accounts: [{ address: alice, label: "Main" }], selected: alice })
      // Picking one of them is refused like any account the wallet does not share.
      yield* session.selectAccount(hostile)
      expect((yield* latest(session.session)).selected).toBe(alice)
      const warned = lines.filter((l) => l.level === "WARN" && l.message.includes("not account addresses"))
      expect(warned.map((l) => l.message)).toEqual([
        "the wallet shared 2 account(s) that are not account addresses on network 240; left out"
      ])
      // Nothing but invalid accounts: no account, no balances, no 'Wallet Connected'.
      yield* SubscriptionRef.set(data, { ...emptyWalletData, accounts: [account(hostile, "evil")] })
      yield* TestClock.adjust("1 millis")
      expect(yield* latest(session.session)).toEqual({ accounts: [], selected: undefined })
      expect(yield* latest(session.balances)).toEqual({ _tag: "None" })
    }).pipe(Effect.provide(env))
  )

  it.scoped("a stored session of other accounts, or unreadable, is no restore: the connect toasts", () =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      const kv = yield* KeyValueStore.KeyValueStore
      const key = storageKey(config.dAppDefinitionAddress, config.networkId, "state")
      const toaster = yield* Toaster
      for (const stored of [
        JSON.stringify({ walletData: { ...emptyWalletData, accounts: [account(bob!, "B")] } }),
        "{not json",
        JSON.stringify({ walletData: { accounts: [{ address: 42 }] } })
      ]) {
        yield* kv.set(key, stored)
        const data = yield* SubscriptionRef.make<WalletData>(emptyWalletData)
        yield* makeWalletSession(data.changes)
        yield* TestClock.adjust("1 millis")
        yield* SubscriptionRef.set(data, { ...emptyWalletData, accounts: [account(alice!, "A")] })
        yield* TestClock.adjust("1 millis")
        expect(yield* Effect.map(toaster.current, (ts) => [ts[0]?.title, ts[0]?.open])).toEqual([
          "Wallet Connected",
          true
        ])
        yield* toaster.dismiss()
      }
    }).pipe(Effect.provide(env))
  )

  it.scoped("keeps the selection while shared, falls back to the first, and clears everything on disconnect", () =>
    Effect.gen(function* () {
      const data = yield* SubscriptionRef.make<WalletData>({
        ...emptyWalletData,
        accounts: [account(alice!, "A"), account(bob!, "B")]
      })
      const session = yield* makeWalletSession(data.changes)
      yield* TestClock.adjust("1 millis")
      yield* session.selectAccount(bob!)
      yield* SubscriptionRef.set(data, { ...emptyWalletData, accounts: [account(bob!, "B"), account(alice!, "A")] })
      yield* TestClock.adjust("1 millis")
      expect((yield* latest(session.session)).selected).toBe(bob)
      yield* SubscriptionRef.set(data, { ...emptyWalletData, accounts: [account(alice!, "A")] })
      yield* TestClock.adjust("1 millis")
      expect((yield* latest(session.session)).selected).toBe(alice)
      // The selection moved without the user picking: that is an account change too. One toast at a time: it waits
      // for 'Wallet Connected' (5 s) and for the change to bob the user made (3 s), then shows.
      const toaster = yield* Toaster
      const onScreen = Effect.map(toaster.current, (ts) => ts.find((t) => t.open))
      expect((yield* onScreen)?.title).toBe("Wallet Connected")
      yield* TestClock.adjust("5 seconds")
      expect((yield* onScreen)?.description).toBe(shortenAddressToast(bob!))
      yield* TestClock.adjust("3 seconds")
      expect(yield* Effect.map(toaster.current, (ts) => [ts[0]?.title, ts[0]?.description])).toEqual([
        "Account Changed",
        "account_loc1280...nt3mp"
      ])
      yield* SubscriptionRef.set(data, emptyWalletData)
      yield* TestClock.adjust("1 millis")
      expect(yield* latest(session.session)).toEqual({ accounts: [], selected: undefined })
      expect(yield* latest(session.gksBalance)).toEqual({ _tag: "Hidden" })
      // Logging out forgets the pick.
      expect(yield* Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(SELECTED_ACCOUNT_KEY))).toEqual(
        Option.none()
      )
      // After the 3 s of 'Account Changed'.
      yield* TestClock.adjust("3 seconds")
      expect(yield* Effect.map(onScreen, (t) => [t?.title, t?.description])).toEqual([
        "Wallet Disconnected",
        "account_loc1280...nt3mp"
      ])
      const fiber = yield* Effect.fork(latest(session.balances))
      expect(yield* Fiber.join(fiber)).toEqual({ _tag: "None" })
    }).pipe(Effect.provide(env))
  )
})
