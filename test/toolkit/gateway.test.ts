import { HttpClient, HttpClientResponse } from "@effect/platform"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { Gateway } from "../../src/gateway/index.js"
import { ToolkitGateway } from "../../src/toolkit/index.js"

const fixture = (name: string) =>
  readFileSync(new URL(`../../../shared/fixtures/gateway/${name}`, import.meta.url), "utf8")
const ledgerState = {
  network: "stokenet",
  state_version: 1,
  proposer_round_timestamp: "2024-04-10T08:21:27.466Z",
  epoch: 1,
  round: 1
}

const seen: Array<{ readonly url: string; readonly body: string; readonly headers: Readonly<Record<string, string>> }> =
  []
const http = HttpClient.make((request) =>
  Effect.sync(() => {
    const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
    seen.push({ url: request.url, body, headers: request.headers })
    const json = (status: number, value: unknown) =>
      HttpClientResponse.fromWeb(
        request,
        new Response(typeof value === "string" ? value : JSON.stringify(value), {
          status,
          headers: { "content-type": "application/json" }
        })
      )
    if (request.url.endsWith("/transaction/status")) {
      return JSON.parse(body).intent_hash === "missing"
        ? json(404, { message: "not found", code: 404 })
        : json(200, fixture("transaction_status__committed_success.json"))
    }
    if (request.url.endsWith("/transaction/subintent-status")) {
      return json(200, {
        ledger_state: ledgerState,
        subintent_status: "CommittedSuccess",
        subintent_status_description: "committed",
        finalized_at_transaction_intent_hash: "txid_parent"
      })
    }
    return json(200, {
      ledger_state: ledgerState,
      address: "account_x",
      items: [
        {
          key: "name",
          value: {
            raw_hex: "00",
            programmatic_json: { kind: "String", value: "hSwap" },
            typed: { type: "String", value: "hSwap" }
          },
          is_locked: false,
          last_updated_at_state_version: 1
        }
      ]
    })
  })
)

const layer = ToolkitGateway.fromGateway.pipe(
  Layer.provide(
    Gateway.layer({
      networkId: 2,
      basePath: "https://gw.test",
      applicationName: "hSwap",
      applicationDappDefinitionAddress: "account_x"
    })
  ),
  Layer.provide(Layer.succeed(HttpClient.HttpClient, http))
)

describe("ToolkitGateway over the Gateway client", () => {
  it.effect("status, subintent status and the dApp name; a non-2xx answer is RequestStatusNotOk", () =>
    Effect.gen(function* () {
      const gw = yield* ToolkitGateway
      expect(yield* gw.transactionStatus("txid_1")).toBe("CommittedSuccess")
      expect(seen[0]).toMatchObject({ url: "https://gw.test/transaction/status", body: '{"intent_hash":"txid_1"}' })
      expect(yield* gw.subintentStatus("subtxid_1")).toEqual({
        subintentStatus: "CommittedSuccess",
        transactionIntentHash: "txid_parent"
      })
      expect(yield* gw.dAppName("account_x")).toBe("hSwap")
      const missing = yield* Effect.either(gw.transactionStatus("missing"))
      expect(Either.isLeft(missing) && missing.left._tag).toBe("RequestStatusNotOk")
    }).pipe(Effect.provide(layer))
  )
})
