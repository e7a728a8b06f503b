import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import {
  NetworkFeeUnavailable,
  PREVIEW_EPOCH_WINDOW,
  networkFeeLine,
  networkFeeOf,
  previewSwapFee
} from "../../src/exchange/networkFee.js"
import { formatNetworkFee, NETWORK_FEE_TEXT } from "../../src/exchange/swap.js"
import { Gateway } from "../../src/gateway/index.js"
import { type Reply, fakeHttp, ledgerState, testConfig } from "../gateway/support.js"

/**
 * A receipt as a real Gateway (Stokenet, v1.10) returns it from `/transaction/preview` for a withdraw → take →
 * try_deposit_or_abort manifest previewed with use_free_credit: the Core API `TransactionReceipt`, with the fee
 * figures of that preview (radixdlt/sargon `fixtures/models/gateway/transaction/response_preview.json`) and the
 * bulky parts (substates, events) cut down to a representative entry each.
 */
const stokenetReceipt = {
  status: "Succeeded",
  fee_summary: {
    execution_cost_units_consumed: 2821593,
    finalization_cost_units_consumed: 220062,
    xrd_total_execution_cost: "0.14107965",
    xrd_total_finalization_cost: "0.0110031",
    xrd_total_royalty_cost: "0",
    xrd_total_storage_cost: "0.06427764782",
    xrd_total_tipping_cost: "0"
  },
  costing_parameters: {
    execution_cost_unit_price: "0.00000005",
    execution_cost_unit_limit: 100000000,
    execution_cost_unit_loan: 4000000,
    finalization_cost_unit_price: "0.00000005",
    finalization_cost_unit_limit: 50000000,
    xrd_usd_price: "16.666666666666666666",
    xrd_storage_price: "0.00009536743",
    xrd_archive_storage_price: "0.00009536743",
    tip_percentage: 0
  },
  fee_source: { from_vaults: [] },
  fee_destination: {
    to_proposer: "0.054090099455",
    to_validator_set: "0.054090099455",
    to_burn: "0.10818019891",
    to_royalty_recipients: []
  },
  state_updates: {
    deleted_partitions: [],
    created_substates: [],
    updated_substates: [
      {
        substate_id: {
          entity_type: "InternalFungibleVault",
          entity_module: "Main",
          partition_kind: "Field",
          substate_type: "FungibleVaultFieldBalance",
          entity_address: "internal_vault_tdx_2_1trcjhvudndgaz5qmyh89jmkrh0pgyflcpv3u33xh0l5mszed5mw6j6",
          partition_number: 64,
          substate_key: { id: 0, key_type: "Field", db_sort_key_hex: "00" }
        },
        new_value: {
          substate_data: {
            value: { amount: "18997.39298077637" },
            substate_type: "FungibleVaultFieldBalance",
            is_locked: false
          }
        }
      }
    ],
    deleted_substates: [],
    new_global_entities: []
  },
  events: [
    {
      type: {
        emitter: {
          object_module_id: "Main",
          entity: {
            entity_type: "InternalFungibleVault",
            is_global: false,
            entity_address: "internal_vault_tdx_2_1trcjhvudndgaz5qmyh89jmkrh0pgyflcpv3u33xh0l5mszed5mw6j6"
          },
          type: "Method"
        },
        name: "WithdrawEvent"
      },
      data: { hex: "5c2101a00000e8890423c78a00000000000000000000000000000000" }
    }
  ],
  output: [{ hex: "5c2100", programmatic_json: { kind: "Tuple", fields: [] } }]
}

const withStatus = (status: string, extra: Record<string, unknown> = {}) => ({ ...stokenetReceipt, status, ...extra })
const withFees = (fees: Record<string, unknown>) => ({
  ...stokenetReceipt,
  fee_summary: { ...stokenetReceipt.fee_summary, ...fees }
})

describe("networkFeeOf", () => {
  it("sums a real Gateway receipt's five XRD totals exactly", () => {
    // 0.14107965 + 0.0110031 + 0 + 0.06427764782 + 0
    expect(networkFeeOf(stokenetReceipt)).toEqual(Option.some("0.21636039782"))
  })

  it("adds in decimal, not in binary floating point, down to the atto", () => {
    const receipt = withFees({
      xrd_total_execution_cost: "0.1",
      xrd_total_finalization_cost: "0.2",
      xrd_total_royalty_cost: "0.000000000000000001",
      xrd_total_storage_cost: "12345678901234567.000000000000000009",
      xrd_total_tipping_cost: "0"
    })
    expect(networkFeeOf(receipt)).toEqual(Option.some("12345678901234567.30000000000000001"))
  })

  it("accepts null for the optional error_message and ignores keys it does not know", () => {
    expect(networkFeeOf({ ...stokenetReceipt, error_message: null, next_epoch: null, added_later: { x: 1 } })).toEqual(
      Option.some("0.21636039782")
    )
  })

  it("gives no fee for a Failed or Rejected preview, even with a fee summary", () => {
    const failed = withStatus("Failed", {
      error_message:
        'RuntimeError(ApplicationError(VaultError(ResourceError(InsufficientBalance { requested: Decimal("1234"), actual: Decimal("10") }))))'
    })
    expect(networkFeeOf(failed)).toEqual(Option.none())
    expect(networkFeeOf(withStatus("Rejected", { error_message: "SuccessButFeeLoanNotRepaid" }))).toEqual(Option.none())
  })

  it("gives none, without throwing, for anything that is not a complete receipt", () => {
    const garbage: ReadonlyArray<unknown> = [
      undefined,
      null,
      "Succeeded",
      42,
      [],
      {},
      { status: "Succeeded" },
      { status: "Succeeded", fee_summary: null },
      withFees({ xrd_total_tipping_cost: undefined }),
      withFees({ xrd_total_storage_cost: null }),
      withFees({ xrd_total_execution_cost: 0.18 }),
      withFees({ xrd_total_execution_cost: "-0.18" }),
      withFees({ xrd_total_execution_cost: "1e-2" }),
      withFees({ xrd_total_execution_cost: "0.18 XRD" }),
      { ...stokenetReceipt, status: undefined }
    ]
    for (const receipt of garbage) expect(networkFeeOf(receipt)).toEqual(Option.none())
  })
})

describe("formatNetworkFee", () => {
  it("shows the fee in XRD with the spec's (1 tx), rounded up to 2 decimals", () => {
    expect(formatNetworkFee("0.18")).toBe("0.18 XRD (1 tx)")
    expect(formatNetworkFee("0.21636039782")).toBe("0.22 XRD (1 tx)")
    expect(formatNetworkFee("0.181")).toBe("0.19 XRD (1 tx)")
    expect(formatNetworkFee("0.000000000000000001")).toBe("0.01 XRD (1 tx)")
    expect(formatNetworkFee("2.999")).toBe("3 XRD (1 tx)")
    expect(formatNetworkFee("1.5")).toBe("1.5 XRD (1 tx)")
    expect(formatNetworkFee("0")).toBe("0 XRD (1 tx)")
  })

  it("writes 0.1 XRD the way the spec's text does", () => {
    expect(formatNetworkFee("0.1")).toBe(NETWORK_FEE_TEXT)
    expect(formatNetworkFee("0.100")).toBe(NETWORK_FEE_TEXT)
  })

  it("falls back to the spec's text for what is not an amount", () => {
    for (const bad of ["", "abc", "-0.18", "0.18 XRD", "NaN"]) expect(formatNetworkFee(bad)).toBe(NETWORK_FEE_TEXT)
  })
})

/** A Gateway whose construction answers epoch 51653 and whose preview answers `preview`. */
const gatewayAnswering = (preview: Reply) => {
  const fake = fakeHttp((request) =>
    Effect.succeed(
      request.path === "/transaction/construction" ? { body: { ledger_state: ledgerState(100) } } : preview
    )
  )
  return { fake, layer: Gateway.layer(testConfig) }
}

const run = <A, E>(
  preview: Reply,
  use: Effect.Effect<A, E, Gateway>
): Effect.Effect<{ result: Either.Either<A, E>; requests: ReturnType<typeof fakeHttp>["recorded"] }> => {
  const { fake, layer } = gatewayAnswering(preview)
  return Effect.either(use).pipe(
    Effect.provide(layer),
    Effect.provide(fake.layer),
    Effect.orDie,
    Effect.map((result) => ({ result, requests: fake.recorded }))
  )
}

const MANIFEST = 'CALL_METHOD Address("account_tdx_2_1x") "withdraw" Address("resource_tdx_2_1x") Decimal("1");'

const previewResponse = (receipt: unknown): Reply => ({
  body: { encoded_receipt: "", receipt, resource_changes: [], logs: [] }
})

describe("previewSwapFee", () => {
  it.effect("previews at the current epoch with free credit, all signature proofs and no epoch check", () =>
    Effect.gen(function* () {
      const { result, requests } = yield* run(previewResponse(stokenetReceipt), previewSwapFee(MANIFEST))
      expect(result).toEqual(Either.right("0.21636039782"))
      expect(requests.map((r) => r.path)).toEqual(["/transaction/construction", "/transaction/preview"])
      const body = requests[1]?.body as Record<string, unknown>
      expect(body).toMatchObject({
        manifest: MANIFEST,
        start_epoch_inclusive: 51653,
        end_epoch_exclusive: 51653 + PREVIEW_EPOCH_WINDOW,
        tip_percentage: 0,
        signer_public_keys: [],
        flags: { use_free_credit: true, assume_all_signature_proofs: true, skip_epoch_check: true }
      })
      const nonce = body["nonce"]
      expect(Number.isInteger(nonce)).toBe(true)
      expect(nonce).toBeGreaterThanOrEqual(1)
      expect(nonce).toBeLessThanOrEqual(4_294_967_295)
    })
  )

  it.effect("fails with NetworkFeeUnavailable saying why when the preview did not succeed", () =>
    Effect.gen(function* () {
      const failed = withStatus("Failed", { error_message: "RuntimeError(InsufficientBalance)" })
      const { result } = yield* run(previewResponse(failed), previewSwapFee(MANIFEST))
      const error = Either.getLeft(result).pipe(Option.getOrThrow)
      expect(error).toBeInstanceOf(NetworkFeeUnavailable)
      expect(error.reason).toBe("the preview's receipt is Failed: RuntimeError(InsufficientBalance)")
    })
  )

  it.effect("fails with NetworkFeeUnavailable carrying the Gateway's error when the Gateway refuses", () =>
    Effect.gen(function* () {
      const refused: Reply = {
        status: 400,
        body: {
          message: "One or more errors occurred",
          code: 400,
          details: { type: "InvalidRequestError", validation_errors: [{ path: "?", errors: ["Invalid manifest"] }] }
        }
      }
      const { result } = yield* run(refused, previewSwapFee(MANIFEST))
      const error = Either.getLeft(result).pipe(Option.getOrThrow)
      expect(error._tag).toBe("NetworkFeeUnavailable")
      expect(error.reason).toBe("the Gateway did not preview the transaction")
      expect(error.cause).toMatchObject({ _tag: "GatewayResponseError", status: 400 })
    })
  )

  it.effect("networkFeeLine shows the previewed fee, or the spec's text when there is none", () =>
    Effect.gen(function* () {
      const ok = yield* run(previewResponse(stokenetReceipt), networkFeeLine(MANIFEST))
      expect(ok.result).toEqual(Either.right("0.22 XRD (1 tx)"))
      const failed = yield* run(previewResponse(withStatus("Rejected")), networkFeeLine(MANIFEST))
      expect(failed.result).toEqual(Either.right(NETWORK_FEE_TEXT))
    })
  )
})
