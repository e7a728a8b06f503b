/**
 * The exchange server in process against the devnet ledger and its gateway emulator (in memory), plus helpers to
 * make deposits as the genesis users and to read balances.
 */
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { vi } from "vitest"
import { type DevnetGateway, startDevnetGateway } from "../../src/devnet/gateway/node"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build"
import type { DevnetKey } from "../../src/devnet/ledger/genesis"
import { Ledger } from "../../src/devnet/ledger/Ledger"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { type ExchangeServer, type ExchangeServerOptions, startExchangeServer } from "../../src/server/index"
import { devnetExchangeServerOptions } from "../../src/devnet/exchange"

export interface Devnet {
  readonly gateway: DevnetGateway
  readonly ledger: Ledger
  readonly run: <A, E>(effect: Effect.Effect<A, E, Ledger>) => Promise<A>
  readonly dispose: () => Promise<void>
}

/**
 * The emulator behind a `fetch`, run in the devnet's own runtime: the ledger keeps its real Clock while the server
 * under test runs on a TestClock (the production path is `emulatorHttpClient`, which runs in the caller's fibers).
 */
export const emulatorFetch =
  (gateway: Pick<DevnetGateway, "emulator" | "runtime">): typeof globalThis.fetch =>
  async (input, init) => {
    const request = input instanceof Request ? input : undefined
    const url = new URL(request?.url ?? (input instanceof URL ? input.href : String(input)))
    const path = url.pathname.replace(/^\/gateway(?=\/|$)/, "") || "/"
    const raw = init?.body ?? null
    const text = raw !== null ? await new Response(raw).text() : request !== undefined ? await request.text() : ""
    const body: unknown = text.trim() === "" ? undefined : JSON.parse(text)
    const method = init?.method ?? request?.method ?? "POST"
    const response = await gateway.runtime.runPromise(gateway.emulator.handle({ method, path, body }))
    return new Response(JSON.stringify(response.json), {
      status: response.status,
      headers: { "content-type": "application/json" }
    })
  }

export const startLedger = async (): Promise<Devnet> => {
  const gateway = await startDevnetGateway({ dataDir: undefined })
  const ledger = await gateway.runtime.runPromise(Ledger)
  return {
    gateway,
    ledger,
    run: (effect) => gateway.runtime.runPromise(effect),
    dispose: () => gateway.dispose()
  }
}

/** A fresh temporary directory, removed by the returned cleanup. */
export const tempDir = (): { readonly dir: string; readonly remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), "hswap-server-"))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export const startServer = (
  devnet: Devnet,
  dataDir: string | undefined,
  overrides: Partial<ExchangeServerOptions> = {}
) =>
  startExchangeServer({
    ...devnetExchangeServerOptions(dataDir, devnet.gateway),
    rateLimitPerMinute: 0,
    watcherPollMs: 200,
    logLevel: "none",
    // Prices stay at their references during a test: a quote is exactly computable.
    priceUpdateIntervalMs: 3_600_000,
    priceStaleAfterMs: 7_200_000,
    ...overrides
  })

export interface TransferSpec {
  readonly from: { readonly address: string; readonly key: DevnetKey }
  readonly to: string
  readonly resource: string
  readonly amount: string
  readonly message?: string
}

/** Builds, signs and submits a transfer (lock_fee 5, withdraw, try_deposit_or_abort); returns its intent hash. */
export const transfer = async (devnet: Devnet, spec: TransferSpec): Promise<string> => {
  const { epoch } = await devnet.run(devnet.ledger.state)
  const built = await devnet.run(
    buildNotarizedTransaction({
      manifest: new ManifestBuilder()
        .callMethod(spec.from.address, "lock_fee", [decimal(5)])
        .callMethod(spec.from.address, "withdraw", [address(spec.resource), decimal(spec.amount)])
        .takeAllFromWorktop(spec.resource, (b, id) =>
          b.callMethod(spec.to, "try_deposit_or_abort", [bucket(id), enumeration(0)])
        )
        .build(),
      signers: [spec.from.key],
      notary: devnet.ledger.genesis.notary,
      startEpochInclusive: epoch,
      ...(spec.message === undefined ? {} : { message: spec.message })
    })
  )
  await devnet.run(devnet.ledger.submit(built.notarizedTransactionHex))
  return built.intentHash
}

/** The intent hash of a valid transaction that is never submitted. */
export const unsubmittedIntent = async (devnet: Devnet): Promise<string> => {
  const user = devnet.ledger.genesis.users[0]
  const { epoch } = await devnet.run(devnet.ledger.state)
  const built = await devnet.run(
    buildNotarizedTransaction({
      manifest: new ManifestBuilder().callMethod(user.address, "lock_fee", [decimal(1)]).build(),
      signers: [user.key],
      notary: devnet.ledger.genesis.notary,
      startEpochInclusive: epoch
    })
  )
  return built.intentHash
}

export const balance = (devnet: Devnet, account: string, resource: string): Promise<string> =>
  devnet.run(devnet.ledger.balance(account, resource))

export const swapMessage = (from: string, to: string) => `hswap.app | Radix | ${from} -> ${to}`

/** Retries `probe` every 50 ms until it returns a value, for at most `ms` (vitest's waitFor). */
export const eventually = <A>(probe: () => Promise<A | undefined>, ms = 10_000): Promise<A> =>
  vi.waitFor(
    async () => {
      const value = await probe()
      if (value === undefined) throw new Error("condition not met yet")
      return value
    },
    { timeout: ms, interval: 50 }
  )

export type { ExchangeServer }

/** Payouts and refunds: every user transaction that withdrew from the exchange account, oldest first. */
export const operatorTransactions = (devnet: Devnet) =>
  devnet.run(
    devnet.ledger.transactions({
      order: "Asc",
      kind: "User",
      status: "All",
      withdrawnFrom: [DevnetAddresses.exchangeAccount],
      depositedInto: [],
      affected: [],
      resources: [],
      limit: 5000
    })
  )

/** A ledger transaction's plain-text message ("hSwap payout for …"), when it has one. */
export const messageOf = (t: { readonly message?: unknown }): unknown =>
  (t.message as { content?: { value?: unknown } } | undefined)?.content?.value
