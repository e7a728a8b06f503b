import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import type { CommittedTransactionInfo } from "../../src/gateway/index"
import { makeServerConfig } from "../../src/server/index"
import { BalanceChangeInvalid, depositOf } from "../../src/server/ledger"

const { XRD, hUSDC, GKS, hWBTC } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount
const [alice = "", bob = ""] = DevnetAddresses.users
const config = makeServerConfig({ networkId: 240, exchangeAccount: exchange })

const tx = (
  changes: ReadonlyArray<readonly [string, string, string]>,
  message: string | undefined,
  status: "CommittedSuccess" | "CommittedFailure" = "CommittedSuccess"
): CommittedTransactionInfo => ({
  state_version: 42,
  epoch: 1,
  round: 1,
  round_timestamp: "2026-01-01T00:00:00.000Z",
  transaction_status: status,
  intent_hash: "txid_loc1example",
  ...(message === undefined
    ? {}
    : { message: { type: "Plaintext", mime_type: "text/plain", content: { type: "String", value: message } } }),
  balance_changes: {
    fungible_fee_balance_changes: [],
    fungible_balance_changes: changes.map(([entity_address, resource_address, balance_change]) => ({
      entity_address,
      resource_address,
      balance_change
    })),
    non_fungible_balance_changes: []
  }
})

const swap = "hswap.app | Radix | hUSDC -> hETH"

describe("what counts as a swap deposit (trusting only the ledger)", () => {
  it("a single account's deposit of an accepted token, with a route in the message", () => {
    const result = depositOf(
      config,
      tx(
        [
          [alice, hUSDC, "-12.5"],
          [exchange, hUSDC, "12.5"]
        ],
        swap
      )
    )
    expect(Either.getOrThrow(result)).toMatchObject({
      sender: alice,
      amount: "12.5",
      routeText: "hUSDC -> hETH",
      stateVersion: 42
    })
    expect(Either.getOrThrow(result).token?.symbol).toBe("hUSDC")
    expect(Either.getOrThrow(result)).toMatchObject({ resource: hUSDC, symbol: "hUSDC" })
  })

  it("an unlisted token with a route in the message is a deposit too (settlement refunds it), under its address", () => {
    const result = depositOf(
      config,
      tx(
        [
          [alice, GKS, "-3"],
          [exchange, GKS, "3"]
        ],
        swap
      )
    )
    expect(Either.getOrThrow(result)).toMatchObject({
      sender: alice,
      resource: GKS,
      symbol: GKS,
      amount: "3",
      token: undefined
    })
  })

  it("a table token beside an unlisted one is the deposit", () => {
    const result = depositOf(
      config,
      tx(
        [
          [alice, GKS, "-3"],
          [exchange, GKS, "3"],
          [alice, hUSDC, "-5"],
          [exchange, hUSDC, "5"]
        ],
        swap
      )
    )
    expect(Either.getOrThrow(result)).toMatchObject({ resource: hUSDC, symbol: "hUSDC", amount: "5" })
  })

  it("accepts a sender whose change also carries the XRD fee", () => {
    const result = depositOf(
      config,
      tx(
        [
          [alice, XRD, "-1000.25"],
          [exchange, XRD, "1000"]
        ],
        "hswap.app | Radix | XRD -> hUSDC"
      )
    )
    expect(Either.getOrThrow(result)).toMatchObject({ sender: alice, amount: "1000" })
  })

  it.each([
    [
      "a failed transaction",
      tx(
        [
          [alice, hUSDC, "-1"],
          [exchange, hUSDC, "1"]
        ],
        swap,
        "CommittedFailure"
      ),
      "The transaction did not succeed on the ledger"
    ],
    [
      "nothing into the exchange",
      tx(
        [
          [alice, hUSDC, "-1"],
          [bob, hUSDC, "1"]
        ],
        swap
      ),
      "The transaction deposited no token into the exchange account"
    ],
    [
      "two unlisted tokens at once",
      tx(
        [
          [alice, GKS, "-1"],
          [exchange, GKS, "1"],
          [alice, hWBTC, "-1"],
          [exchange, hWBTC, "1"]
        ],
        swap
      ),
      "The transaction deposited more than one token into the exchange account"
    ],
    [
      "an unlisted token without a route in the message",
      tx(
        [
          [alice, GKS, "-1"],
          [exchange, GKS, "1"]
        ],
        "hello"
      ),
      "The transaction message names no route (FROM -> TO)"
    ],
    [
      "two tokens at once",
      tx(
        [
          [alice, hUSDC, "-1"],
          [exchange, hUSDC, "1"],
          [alice, XRD, "-50"],
          [exchange, XRD, "50"]
        ],
        swap
      ),
      "The transaction deposited more than one token into the exchange account"
    ],
    [
      "two senders",
      tx(
        [
          [alice, hUSDC, "-1"],
          [bob, hUSDC, "-1"],
          [exchange, hUSDC, "2"]
        ],
        swap
      ),
      "The deposit did not come from exactly one account"
    ],
    [
      "a withdrawal short of the deposit",
      tx(
        [
          [alice, hUSDC, "-1"],
          [exchange, hUSDC, "2"]
        ],
        swap
      ),
      "The sender's withdrawal does not cover the deposit"
    ],
    [
      "no message",
      tx(
        [
          [alice, hUSDC, "-1"],
          [exchange, hUSDC, "1"]
        ],
        undefined
      ),
      "The transaction message names no route (FROM -> TO)"
    ],
    [
      "a message without a route",
      tx(
        [
          [alice, hUSDC, "-1"],
          [exchange, hUSDC, "1"]
        ],
        "hello"
      ),
      "The transaction message names no route (FROM -> TO)"
    ]
  ])("refuses %s", (_, transaction, reason) => {
    expect(depositOf(config, transaction)).toEqual(Either.left(reason))
  })

  it("a balance change that is not a decimal decides nothing: a BalanceChangeInvalid, never a change of 0", () => {
    for (const changes of [
      [
        [alice, hUSDC, "-12.5"],
        [exchange, hUSDC, "n/a"]
      ],
      [
        [alice, hUSDC, ""],
        [exchange, hUSDC, "12.5"]
      ],
      [
        [alice, hUSDC, "-12.5"],
        [exchange, hUSDC, "12.5"],
        [bob, XRD, "1,5"]
      ]
    ] as const) {
      const result = depositOf(config, tx(changes, swap))
      expect(Either.isLeft(result) && result.left).toBeInstanceOf(BalanceChangeInvalid)
    }
  })

  it("an atomic swap's own transaction is no deposit: the exchange account also paid a token out", () => {
    const atomic = tx(
      [
        [alice, hUSDC, "-25"],
        [exchange, hUSDC, "25"],
        [exchange, hWBTC, "-0.0004"],
        [alice, hWBTC, "0.0004"]
      ],
      swap
    )
    expect(depositOf(config, atomic)).toEqual(
      Either.left("The exchange account also paid out in this transaction: it is the exchange's own (an atomic swap)")
    )
  })

  const paid = (message: string, extra: Partial<CommittedTransactionInfo> = {}) =>
    depositOf(config, {
      ...tx(
        [
          [alice, hUSDC, "-12.5"],
          [exchange, hUSDC, "12.5"]
        ],
        message
      ),
      ...extra
    })

  it("reads the route at the end of the message", () => {
    expect(Either.getOrThrow(paid("hswap.app | Radix | hBTC -> hUSDC")).routeText).toBe("hBTC -> hUSDC")
    expect(Either.getOrThrow(paid("hETH->hUSDC  ")).routeText).toBe("hETH -> hUSDC")
    expect(paid("hETH -> hUSDC, thanks")).toEqual(Either.left("The transaction message names no route (FROM -> TO)"))
    expect(paid("")).toEqual(Either.left("The transaction message names no route (FROM -> TO)"))
    expect(paid("hswap.app | Radix | hUSDC -> hETH | quote")).toEqual(
      Either.left("The transaction message names no route (FROM -> TO)")
    )
  })

  it("carries the quote reference as written, and none without one", () => {
    const ref = "qAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB"
    expect(Either.getOrThrow(paid(`hswap.app | Radix | hUSDC -> hETH | quote ${ref}`))).toMatchObject({
      routeText: "hUSDC -> hETH",
      quoteId: ref
    })
    // Not checked here (settlement verifies it), only kept: a malformed one too.
    expect(Either.getOrThrow(paid("hswap.app | Radix | hUSDC -> hETH | quote not-a-ref!")).quoteId).toBe("not-a-ref!")
    expect(Either.getOrThrow(paid(swap)).quoteId).toBeUndefined()
  })

  it("cuts an overlong quote reference to 128 characters", () => {
    const long = `q${"x".repeat(500)}`
    expect(Either.getOrThrow(paid(`${swap} | quote ${long}`)).quoteId).toBe(long.slice(0, 128))
  })

  it("takes the commit time from confirmed_at, else the round timestamp", () => {
    expect(Either.getOrThrow(paid(swap)).committedMs).toBe(Date.parse("2026-01-01T00:00:00.000Z"))
    expect(Either.getOrThrow(paid(swap, { confirmed_at: "2026-01-01T00:00:05.250Z" })).committedMs).toBe(
      Date.parse("2026-01-01T00:00:05.250Z")
    )
    expect(
      Either.getOrThrow(paid(swap, { confirmed_at: "never", round_timestamp: "not a time" })).committedMs
    ).toBeUndefined()
  })
})
