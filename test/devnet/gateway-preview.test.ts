/**
 * `/transaction/preview` on the devnet gateway emulator, through our Gateway client in process: the swap deposit
 * previews at what the wallet's transaction will cost, nothing is committed, failures and malformed requests
 * answer like the real Gateway.
 */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { BigDecimal, Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeGatewayEmulator, type GatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { gatewayNodeHandler } from "../../src/devnet/gateway/node.js"
import { vaultAddress } from "../../src/devnet/ledger/address.js"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build.js"
import { parseLedgerDecimal } from "../../src/devnet/ledger/amount.js"
import { formatPlain } from "../../src/lib/decimalText.js"
import { keyHex } from "../../src/devnet/ledger/genesis.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { networkFeeLine, networkFeeOf, previewSwapFee } from "../../src/exchange/networkFee.js"
import { NETWORK_FEE_TEXT, buildSwapManifest } from "../../src/exchange/swap.js"
import { Gateway, type GatewayService, type TransactionPreviewRequest } from "../../src/gateway/index.js"
import { captureLogs, type LogLine, messagesAt } from "../support/logs.js"

const { XRD, hUSDC } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount
const BASE = "http://devnet.invalid/gateway"

// Each round change is a committed transaction (a new state version), and these tests run on the real clock: rounds
// of an hour keep the state version still within a test.
const runtime = ManagedRuntime.make(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }))
let emulator: GatewayEmulator
let ledger: Ledger

type Json = Record<string, unknown>

const handle = (path: string, body: unknown) => runtime.runPromise(emulator.handle({ method: "POST", path, body }))

/** An HttpClient that serves every request from the emulator, in process. */
const emulatorHttpClient = Layer.sync(HttpClient.HttpClient, () =>
  HttpClient.make((request, url) =>
    Effect.promise(async () => {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      const res = await handle(url.pathname.replace(/^\/gateway/, ""), text === "" ? undefined : JSON.parse(text))
      return HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify(res.json), { status: res.status, headers: { "content-type": "application/json" } })
      )
    })
  )
)

const gatewayLayer = Gateway.layer({ basePath: BASE, applicationName: "hswap-preview-test" }).pipe(
  Layer.provide(emulatorHttpClient)
)

const withGateway = <A, E>(use: Effect.Effect<A, E, Gateway>) =>
  Effect.runPromise(use.pipe(Effect.provide(gatewayLayer)))

const ours = <A, E>(f: (g: GatewayService) => Effect.Effect<A, E>) => withGateway(Effect.flatMap(Gateway, f))

const user = () => ledger.genesis.users[0]

const amount = (text: string): BigDecimal.BigDecimal =>
  Option.getOrThrowWith(parseLedgerDecimal(text), () => new Error(`not a decimal: ${text}`))
/** Exact decimal addition of two amounts. */
const plus = (a: string, b: string) => formatPlain(BigDecimal.sum(amount(a), amount(b)))

const swapManifest = (amount: string) =>
  buildSwapManifest({
    account: user().address,
    fromResource: hUSDC,
    amount,
    divisibility: 6,
    exchangeAccount: exchange
  })

/** A preview request as the card sends one: free credit, all signature proofs, no epoch check. */
const cardRequest = async (manifest: string): Promise<TransactionPreviewRequest> => {
  const { epoch } = await runtime.runPromise(ledger.state)
  return {
    manifest,
    start_epoch_inclusive: epoch,
    end_epoch_exclusive: epoch + 2,
    tip_percentage: 0,
    nonce: 12345,
    signer_public_keys: [],
    flags: { use_free_credit: true, assume_all_signature_proofs: true, skip_epoch_check: true }
  }
}

/** What a preview must leave untouched: the state version, the balances involved, the transaction stream. */
const snapshot = async () => {
  const balance = (account: string, resource: string) => runtime.runPromise(ledger.balance(account, resource))
  const stream = await ours((g) => g.stream.transactions({ limit_per_page: 1, order: "Desc" }))
  return {
    stateVersion: await runtime.runPromise(ledger.currentStateVersion),
    userXrd: await balance(user().address, XRD),
    userHusdc: await balance(user().address, hUSDC),
    exchangeHusdc: await balance(exchange, hUSDC),
    lastTransaction: stream.items[0]?.state_version
  }
}

beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
  emulator = await runtime.runPromise(makeGatewayEmulator)
})
afterAll(() => runtime.dispose())

describe("POST /transaction/preview on the devnet gateway emulator", () => {
  it("previews the swap deposit at exactly 0.18 XRD and commits nothing", async () => {
    const before = await snapshot()
    const manifest = swapManifest("10")
    const preview = await ours((g) =>
      Effect.flatMap(
        Effect.promise(() => cardRequest(manifest)),
        g.transaction.preview
      )
    )

    expect(preview.receipt).toMatchObject({
      status: "Succeeded",
      fee_summary: {
        execution_cost_units_consumed: 3_600_000,
        finalization_cost_units_consumed: 0,
        xrd_total_execution_cost: "0.18",
        xrd_total_finalization_cost: "0",
        xrd_total_royalty_cost: "0",
        xrd_total_storage_cost: "0",
        xrd_total_tipping_cost: "0"
      },
      costing_parameters: { execution_cost_unit_price: "0.00000005" },
      fee_source: { from_vaults: [] },
      fee_destination: { to_proposer: "0.045", to_validator_set: "0.045", to_burn: "0.09" }
    })
    expect(preview.receipt["error_message"]).toBeUndefined()
    expect(networkFeeOf(preview.receipt)).toEqual(Option.some("0.18"))
    expect(preview.resource_changes).toEqual([
      {
        index: 0,
        resource_changes: [
          {
            resource_address: hUSDC,
            component_entity: {
              entity_type: "GlobalVirtualEd25519Account",
              is_global: true,
              entity_address: user().address
            },
            vault_entity: {
              entity_type: "InternalFungibleVault",
              is_global: false,
              entity_address: vaultAddress(user().address, hUSDC)
            },
            amount: "-10"
          }
        ]
      },
      {
        index: 2,
        resource_changes: [
          expect.objectContaining({
            resource_address: hUSDC,
            component_entity: expect.objectContaining({ entity_address: exchange }),
            amount: "10"
          })
        ]
      }
    ])
    expect(preview.logs).toEqual([])

    expect(await snapshot()).toEqual(before)
  })

  it("previewSwapFee reads the epoch and previews the deposit: 0.18 XRD, shown as 0.18 XRD (1 tx)", async () => {
    const before = await snapshot()
    expect(await withGateway(previewSwapFee(swapManifest("25.5")))).toBe("0.18")
    expect(await withGateway(networkFeeLine(swapManifest("25.5")))).toBe("0.18 XRD (1 tx)")
    expect(await snapshot()).toEqual(before)
  })

  it("the same manifest plus the wallet's lock_fee, really submitted, is charged the same 0.18 XRD", async () => {
    const manifest = swapManifest("7")
    const previewed = await withGateway(previewSwapFee(manifest))
    const withLock = `CALL_METHOD Address("${user().address}") "lock_fee" Decimal("${previewed}");\n${manifest}`

    // The free credit stands in for a missing fee lock only: a manifest that has one previews at the same fee.
    const lockedPreview = await ours((g) =>
      Effect.flatMap(
        Effect.promise(() => cardRequest(withLock)),
        g.transaction.preview
      )
    )
    expect(networkFeeOf(lockedPreview.receipt)).toEqual(Option.some(previewed))

    const before = await snapshot()
    const { epoch } = await runtime.runPromise(ledger.state)
    const built = await runtime.runPromise(
      buildNotarizedTransaction({
        manifest: withLock,
        signers: [user().key],
        notary: ledger.genesis.notary,
        startEpochInclusive: epoch
      })
    )
    expect((await ours((g) => g.transaction.submit(built.notarizedTransactionHex))).duplicate).toBe(false)
    const { transaction } = await ours((g) => g.transaction.committedDetails(built.intentHash))
    expect(transaction.transaction_status).toBe("CommittedSuccess")
    expect(transaction.fee_paid).toBe("0.18")
    expect(transaction.receipt?.fee_summary).toEqual(lockedPreview.receipt["fee_summary"])

    const after = await snapshot()
    expect(after.stateVersion).toBe(before.stateVersion + 1)
    expect(after.userXrd).toBe(plus(before.userXrd, "-0.18"))
    expect(after.userHusdc).toBe(plus(before.userHusdc, "-7"))
    expect(after.exchangeHusdc).toBe(plus(before.exchangeHusdc, "7"))
  })

  it("a withdrawal beyond the balance previews Failed with the engine's error, and the card falls back", async () => {
    const before = await snapshot()
    const manifest = swapManifest("1000000")
    const preview = await ours((g) =>
      Effect.flatMap(
        Effect.promise(() => cardRequest(manifest)),
        g.transaction.preview
      )
    )
    expect(preview.receipt["status"]).toBe("Failed")
    expect(preview.receipt["error_message"]).toMatch(
      /^RuntimeError\(ApplicationError\(VaultError\(ResourceError\(InsufficientBalance \{ requested: Decimal\("1000000"\)/
    )
    expect(preview.resource_changes).toEqual([])
    expect(networkFeeOf(preview.receipt)).toEqual(Option.none())

    const fee = await withGateway(Effect.either(previewSwapFee(manifest)))
    expect(Either.getLeft(fee).pipe(Option.map((e) => [e._tag, e.reason]))).toEqual(
      Option.some([
        "NetworkFeeUnavailable",
        expect.stringMatching(/^the preview's receipt is Failed: RuntimeError\(.*InsufficientBalance/)
      ])
    )
    // The spec's text is shown, and why is logged as a warning with its cause (not dropped).
    const logs: Array<LogLine> = []
    expect(await withGateway(networkFeeLine(manifest).pipe(Effect.provide(captureLogs(logs))))).toBe(NETWORK_FEE_TEXT)
    expect(messagesAt(logs, "WARN")).toEqual(["Network fee: showing the spec's text"])
    expect(String(logs[0]?.details.at(-1))).toContain("InsufficientBalance")
    expect(await snapshot()).toEqual(before)
  })

  it("without free credit a manifest runs as it is: no fee lock is Rejected, a signed fee lock succeeds", async () => {
    const before = await snapshot()
    const manifest = swapManifest("3")
    const request = await cardRequest(manifest)
    const noCredit = { ...request, flags: { assume_all_signature_proofs: true, skip_epoch_check: true } }
    const rejected = await ours((g) => g.transaction.preview(noCredit))
    expect(rejected.receipt).toMatchObject({ status: "Rejected", fee_summary: { xrd_total_execution_cost: "0" } })
    expect(rejected.receipt["error_message"]).toMatch(/^SuccessButFeeLoanNotRepaid/)

    // Without assume_all_signature_proofs only the signers' accounts may lock a fee and withdraw.
    const withLock = `CALL_METHOD Address("${user().address}") "lock_fee" Decimal("1");\n${manifest}`
    const bySigners = { ...noCredit, manifest: withLock, flags: { skip_epoch_check: true } }
    const unsigned = await ours((g) => g.transaction.preview(bySigners))
    expect(unsigned.receipt["status"]).toBe("Rejected")
    expect(unsigned.receipt["error_message"]).toMatch(
      /^ErrorBeforeLoanAndDeferredCostsRepaid\(.*Unauthorized.*Account::lock_fee/
    )

    const userKey = { key_type: "EddsaEd25519" as const, key_hex: keyHex(user().key).publicKeyHex }
    const signed = await ours((g) => g.transaction.preview({ ...bySigners, signer_public_keys: [userKey] }))
    expect(networkFeeOf(signed.receipt)).toEqual(Option.some("0.18"))
    expect(signed.receipt["fee_source"]).toEqual({
      from_vaults: [
        {
          vault_entity: {
            entity_type: "InternalFungibleVault",
            is_global: false,
            entity_address: vaultAddress(user().address, XRD)
          },
          xrd_amount: "0.18"
        }
      ]
    })
    expect(await snapshot()).toEqual(before)
  })

  it("checks the epoch window unless skip_epoch_check is set", async () => {
    const request = await cardRequest(swapManifest("1"))
    const start = (request.start_epoch_inclusive ?? 0) + 1
    const future = { ...request, start_epoch_inclusive: start, end_epoch_exclusive: start + 2 }
    const checked = await ours((g) =>
      g.transaction.preview({ ...future, flags: { use_free_credit: true, assume_all_signature_proofs: true } })
    )
    expect(checked.receipt["status"]).toBe("Rejected")
    expect(checked.receipt["error_message"]).toMatch(/^TransactionEpochNotYetValid \{ valid_from: Epoch\(/)
    const skipped = await ours((g) => g.transaction.preview(future))
    expect(networkFeeOf(skipped.receipt)).toEqual(Option.some("0.18"))
  })
})

describe("malformed preview requests answer like the real Gateway, never a 500", () => {
  const valid = async () => ({ ...(await cardRequest(swapManifest("1"))) }) as Json
  /** The body without `key` (as JSON would carry it: absent, not undefined). */
  const without = (body: Json, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key))

  const expectInvalid = async (body: unknown, expected: { path: string; error: string | RegExp; message?: string }) => {
    const res = await handle("/transaction/preview", body)
    expect(res.status).toBe(400)
    const json = res.json as Json
    expect(json["code"]).toBe(400)
    expect(json["message"]).toBe(expected.message ?? "One or more validation errors occurred")
    const details = json["details"] as {
      type: string
      validation_errors: Array<{ path: string; errors: Array<string> }>
    }
    expect(details.type).toBe("InvalidRequestError")
    const atPath = details.validation_errors.find((e) => e.path === expected.path)
    expect(atPath?.errors.join(" ")).toMatch(expected.error)
  }

  it("types the body as the Gateway binds it: fields of the wrong type, or no object at all", async () => {
    const base = await valid()
    await expectInvalid(without(base, "manifest"), { path: "manifest", error: /is missing/ })
    await expectInvalid({ ...base, manifest: 42 }, { path: "manifest", error: /Expected string/ })
    await expectInvalid({ ...base, nonce: "12" }, { path: "nonce", error: /Expected/ })
    await expectInvalid({ ...base, flags: "yes" }, { path: "flags", error: /Expected/ })
    await expectInvalid(
      { ...base, signer_public_keys: [{ key_type: "Rsa", key_hex: "00" }] },
      { path: "signer_public_keys.0.key_type", error: /Expected/ }
    )
    await expectInvalid("CALL_METHOD", { path: "$", error: /Expected/ })
    await expectInvalid([], { path: "$", error: /Expected/ })
    await expectInvalid(undefined, { path: "manifest", error: /is missing/ })
  })

  it("applies the Gateway's validator: manifest, nonce, signer_public_keys and flags are required", async () => {
    const base = await valid()
    await expectInvalid({ ...base, manifest: "" }, { path: "manifest", error: "'Manifest' must not be empty." })
    await expectInvalid(without(base, "nonce"), { path: "nonce", error: "'Nonce' must not be empty." })
    await expectInvalid({ ...base, nonce: 0 }, { path: "nonce", error: "'Nonce' must not be empty." })
    await expectInvalid(
      { ...base, signer_public_keys: null },
      { path: "signer_public_keys", error: "'Signer Public Keys' must not be empty." }
    )
    await expectInvalid(without(base, "flags"), { path: "flags", error: "'Flags' must not be empty." })
    await expectInvalid(
      { ...base, tip_percentage: 300 },
      { path: "tip_percentage", error: "'Tip Percentage' must be between 0 and 255. You entered 300." }
    )
    await expectInvalid(
      { ...base, blobs_hex: ["xyz"] },
      { path: "blobs_hex[0]", error: "'Blobs Hex' must be HEX-encoded value." }
    )
    // All rules are evaluated: one answer lists every field at fault.
    const res = await handle("/transaction/preview", { manifest: "", nonce: 0 })
    const errors = ((res.json as Json)["details"] as { validation_errors: Array<{ path: string }> }).validation_errors
    expect(errors.map((e) => e.path)).toEqual(["manifest", "nonce", "signer_public_keys", "flags"])
  })

  it("answers the node's refusals at path '?': unparsable manifest, another network's addresses, bad header", async () => {
    const base = await valid()
    const other = { message: "One or more errors occurred" }
    await expectInvalid(
      { ...base, manifest: "HELLO WORLD;" },
      { path: "?", error: /^Invalid manifest - ParserError\(.*UnexpectedToken/, ...other }
    )
    const mainnet =
      'CALL_METHOD Address("account_rdx128y6j78mt0aqv6372evz28hrxp8mn06ccddkr7xppc88hyvynvjdwr") "withdraw" Address("resource_rdx1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxradxrd") Decimal("1");'
    await expectInvalid(
      { ...base, manifest: mainnet },
      { path: "?", error: /^Invalid manifest - GeneratorError\(.*InvalidGlobalAddress\("account_rdx1/, ...other }
    )
    await expectInvalid(without(without(base, "start_epoch_inclusive"), "end_epoch_exclusive"), {
      path: "?",
      error: "Transaction validation error: HeaderValidationError(InvalidEpochRange)",
      ...other
    })
    await expectInvalid(
      { ...base, end_epoch_exclusive: (base["start_epoch_inclusive"] as number) + 9000 },
      { path: "?", error: /EpochRangeTooLarge/, ...other }
    )
    await expectInvalid(
      { ...base, signer_public_keys: [{ key_type: "EddsaEd25519", key_hex: "abcd" }] },
      { path: "?", error: /^Invalid signer_public_keys/, ...other }
    )
    await expectInvalid({ ...base, nonce: 2 ** 32 }, { path: "?", error: /^Invalid nonce/, ...other })
    await expectInvalid(
      { ...base, message: { type: "Plaintext" } },
      { path: "?", error: "Unable to parse TX message", ...other }
    )
  })

  it("reaches the client as a GatewayResponseError with the InvalidRequestError details", async () => {
    const request = await cardRequest(swapManifest("1"))
    const { nonce: _nonce, ...withoutNonce } = request
    const refused = await withGateway(Effect.flip(Effect.flatMap(Gateway, (g) => g.transaction.preview(withoutNonce))))
    expect(refused).toMatchObject({
      _tag: "GatewayResponseError",
      status: 400,
      errorResponse: {
        details: {
          type: "InvalidRequestError",
          validation_errors: [{ path: "nonce", errors: ["'Nonce' must not be empty."] }]
        }
      }
    })
  })

  it("bad JSON over node:http is a 400 from the mounted handler, not a crash", async () => {
    const server = createServer((req, res) => {
      void gatewayNodeHandler(emulator, (e) => runtime.runPromise(e))(req, res)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    try {
      const url = `http://127.0.0.1:${port}/gateway/transaction/preview`
      const bad = await fetch(url, { method: "POST", body: '{"manifest": ' })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toMatchObject({ code: 400, message: "Bad http request" })
      const ok = await fetch(url, { method: "POST", body: JSON.stringify(await cardRequest(swapManifest("1"))) })
      expect(ok.status).toBe(200)
      expect(networkFeeOf(((await ok.json()) as Json)["receipt"])).toEqual(Option.some("0.18"))
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
