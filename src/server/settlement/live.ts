/**
 * The `Settlement` service: the deposit flow, composed of the decision rules (`rules.ts`), exactly-once claims
 * (`Claims`) and the ledger's payouts (`Payouts`). See `Settlement.ts` for the states a swap moves through.
 */
import { Cause, Clock, Duration, Effect, Either, ExecutionStrategy, Exit, Fiber, Layer, Option, Scope } from "effect"
import { parseLooseDecimal } from "../../lib/decimalText"
import { Gateway } from "../../gateway/index"
import { ServerConfig } from "../config"
import type { Reserving } from "../db/reservations"
import { Db, type QuoteRow, type SwapChanges, type SwapRow, type SwapState, TERMINAL_STATES } from "../Db"
import { Faults } from "../Faults"
import { depositOf } from "../ledger"
import { Maintenance } from "../Limits"
import { PriceFeed } from "../PriceFeed"
import { Quotes } from "../Quotes"
import { RESUME_CONCURRENCY, Settlement } from "../Settlement"
import type { SignedTransaction } from "../Signer"
import { Claims, type Held } from "./Claims"
import { ClaimsLive } from "./claimsLive"
import { LOW_LIQUIDITY, SettlementUnavailable, SwapNotFound, SwapRefused, unavailable } from "./errors"
import { Payouts } from "./Payouts"
import { PayoutsLive } from "./payoutsLive"
import {
  type Decision,
  type DecisionLog,
  type Pay,
  decideAtQuote,
  decideExpiredQuote,
  decideUnquoted,
  quoteReused,
  routeOf,
  screenDeposit,
  settlementRules
} from "./rules"

export const makeSettlement = Effect.gen(function* () {
  const config = yield* ServerConfig
  const gateway = yield* Gateway
  const db = yield* Db
  const prices = yield* PriceFeed
  const quotes = yield* Quotes
  const maintenance = yield* Maintenance
  const claims = yield* Claims
  const payouts = yield* Payouts
  /** Where tests may stop a payout (a no-op unless a test provides `Faults`). */
  const fault = (yield* Faults).reach
  const scope = yield* Effect.scope
  /** Where registrations settle: closed by `stop`, which interrupts them and so releases their claims. */
  const work = yield* Scope.fork(scope, ExecutionStrategy.parallel)
  let stopping = false
  const rules = settlementRules(config)

  /** A swap's transitions are fenced by the claim the current fiber works under. */
  const transition = (
    txIn: string,
    from: SwapState,
    to: SwapState,
    changes: SwapChanges = {},
    detail: string | null = null,
    releaseReservation = false,
    reserving?: Reserving
  ) =>
    Effect.flatMap(claims.current, (claim) =>
      db.transition(txIn, from, to, changes, detail, claim, releaseReservation, reserving)
    )

  // --- reading the deposit ------------------------------------------------------------------------------------

  const readDeposit = (txHash: string) =>
    gateway.transaction
      .committedDetails(txHash, {
        raw_hex: false,
        receipt_events: false,
        receipt_fee_source: false,
        receipt_fee_destination: false,
        receipt_costing_parameters: false,
        receipt_fee_summary: false,
        receipt_state_changes: false,
        manifest_instructions: false,
        affected_global_entities: false,
        receipt_output: false,
        balance_changes: true
      })
      .pipe(
        Effect.mapError((e): SwapNotFound | SettlementUnavailable =>
          e._tag === "GatewayResponseError" && e.status === 404
            ? new SwapNotFound({ txHash })
            : unavailable("committed details")(e)
        ),
        Effect.flatMap((r) =>
          Either.match(depositOf(config, r.transaction), {
            onLeft: (reason) =>
              Effect.fail(
                typeof reason === "string"
                  ? new SwapRefused({ txHash, reason })
                  : unavailable("committed details")(reason)
              ),
            onRight: (deposit) =>
              deposit.txIn === txHash
                ? Effect.succeed(deposit)
                : Effect.fail(new SwapRefused({ txHash, reason: "The ledger answered for another transaction" }))
          })
        )
      )

  // --- steps --------------------------------------------------------------------------------------------------

  interface Step {
    readonly row: SwapRow
    readonly progressed: boolean
  }
  const stay = (row: SwapRow): Step => ({ row, progressed: false })

  const reread = (row: SwapRow) =>
    Effect.map(
      db.get(row.tx_in),
      Option.getOrElse(() => row)
    )

  /**
   * The step a transition made: the row it wrote, or, when another writer got there first (the compare-and-set
   * found the swap elsewhere), the row as it now stands, read again only then.
   */
  const moved = <E, R>(row: SwapRow, written: Effect.Effect<Option.Option<SwapRow>, E, R>) =>
    Effect.flatMap(
      written,
      Option.match({
        onNone: () => Effect.map(reread(row), (fresh): Step => ({ row: fresh, progressed: true })),
        onSome: (r) => Effect.succeed<Step>({ row: r, progressed: true })
      })
    )

  const say = (log: DecisionLog) =>
    log.level === "Error"
      ? log.detail === undefined
        ? Effect.logError(log.message)
        : Effect.logError(log.message, log.detail)
      : log.detail === undefined
        ? Effect.logWarning(log.message)
        : Effect.logWarning(log.message, log.detail)

  /** Carries a decision out: paid (→ paying with the stored intent), → failed (a refund is due), or left as it is. */
  const apply = (row: SwapRow, decision: Decision) =>
    Effect.gen(function* () {
      switch (decision._tag) {
        case "Refund":
          if (decision.log !== undefined) yield* say(decision.log)
          // A payout reserved for before (its replica stopped before storing the intent, and the decision is now
          // a refund) gives its reservation back in the same write.
          return yield* moved(
            row,
            transition(
              row.tx_in,
              "received",
              "failed",
              { ...decision.changes, message: decision.message },
              decision.message,
              true
            )
          )
        case "Pay":
          return yield* pay(row, decision.changes)
        case "Wait":
          yield* say(decision.log)
          return stay(row)
      }
    })

  const freshUsd = (symbol: string) =>
    Effect.map(prices.fresh(symbol), (p) => (Option.isSome(p) ? p.value.usd : undefined))

  /** received → paying or failed, by the rules, reading each fact only when the rules ask for it. */
  const decide = (row: SwapRow) =>
    Effect.gen(function* () {
      const screened = screenDeposit(rules, row, yield* maintenance.enabled)
      if (screened !== undefined) return yield* apply(row, screened)
      const lookup = row.quote_id === null ? undefined : yield* quotes.lookup(row.quote_id)
      const route = routeOf(rules, row, lookup)
      if (route._tag === "Refund") return yield* apply(row, route)
      if (route.quote === undefined) {
        const priceIn = yield* freshUsd(route.from)
        const priceOut = yield* freshUsd(route.to)
        return yield* apply(row, decideUnquoted(rules, row, route, priceIn, priceOut))
      }
      return yield* decideQuoted(row, route.quote, route.tokenOut)
    })

  /** The quoted half of `decide`: claim the quote for this deposit, then settle at it (or at today's prices). */
  const decideQuoted = (row: SwapRow, quote: QuoteRow, tokenOut: Parameters<typeof decideAtQuote>[2]) =>
    Effect.gen(function* () {
      if (!(yield* quotes.claim(quote.id, row.tx_in))) return yield* apply(row, quoteReused(row, quote))
      const atQuote = decideAtQuote(row, quote, tokenOut)
      if (atQuote._tag !== "AtCurrentPrices") return yield* apply(row, atQuote)
      if (atQuote.log !== undefined) yield* say(atQuote.log)
      const priceIn = yield* freshUsd(quote.symbol_in)
      const priceOut = yield* freshUsd(quote.symbol_out)
      return yield* apply(row, decideExpiredQuote(rules, row, quote, tokenOut, priceIn, priceOut))
    })

  /**
   * The ledger half shared by payouts and refunds: with a stored intent, settle that intent; without one (or after
   * a rejection), check the liquidity, build, store, submit and await a new transfer.
   */
  const transfer = (
    row: SwapRow,
    kind: "payout" | "refund",
    what: { readonly resource: string; readonly amount: string; readonly to: string },
    start?: { readonly from: SwapState; readonly changes: SwapChanges; readonly stored: (row: SwapRow) => void }
  ) =>
    Effect.gen(function* () {
      const state = kind === "payout" ? "paying" : "refunding"
      const intent = kind === "payout" ? row.payout_intent : row.refund_intent
      const hex = kind === "payout" ? row.payout_hex : row.refund_hex
      // Our own stored amount: one that does not parse is a corrupt row, never a transfer of some other amount.
      const amount = yield* Option.match(parseLooseDecimal(what.amount), {
        onNone: () =>
          Effect.dieMessage(`swap ${row.tx_in}: the ${kind} amount ${JSON.stringify(what.amount)} is not a decimal`),
        onSome: Effect.succeed
      })
      // A payout's reservation (taken with its intent stored, kept by it across restarts) is dropped by `pay` once
      // the outcome is known; refunds return what was received and reserve nothing.
      if (intent !== null && hex !== null) {
        const outcome = yield* payouts.settleStored(intent, hex)
        if (outcome !== "Rejected") return { outcome, intent } as const
        yield* Effect.logWarning(`swap ${row.tx_in}: ${kind} ${intent} was rejected; building a new one`)
      }
      const move = (signed: SignedTransaction) => (reserving?: Reserving) =>
        transition(
          row.tx_in,
          start?.from ?? state,
          state,
          {
            ...start?.changes,
            ...(kind === "payout"
              ? { payout_intent: signed.intentHash, payout_hex: signed.notarizedTransactionHex }
              : { refund_intent: signed.intentHash, refund_hex: signed.notarizedTransactionHex })
          },
          `${kind} ${signed.intentHash}`,
          false,
          reserving
        )
      const sent = yield* payouts.send({
        build: payouts.transfer(kind, { ...what, message: `hSwap ${kind} for ${row.tx_in}` }),
        // A payout reserves its liquidity and stores its intent in one write (one statement on PostgreSQL), only if
        // the balance covers it; a refund only stores its intent.
        store: (signed) =>
          Effect.map(
            kind === "payout" ? payouts.reserveThen(row.tx_in, what.resource, amount, move(signed)) : move(signed)(),
            (written) => {
              if (written === "short") return written
              if (Option.isSome(written)) start?.stored(written.value)
              return Option.isSome(written)
            }
          ),
        ...(kind === "payout"
          ? { afterStore: fault("stored", row.tx_in), afterSubmit: fault("submitted", row.tx_in) }
          : {})
      })
      return sent.outcome === "Short" ? ({ outcome: "LowLiquidity", intent: null } as const) : sent
    })

  /**
   * Pays a swap: one in `paying` (resumed) with the terms it holds; one still `received` with the terms just decided
   * (`terms`), which it moves to `paying`, once the payout is signed, in the write that reserves its liquidity and
   * stores its intent (one statement on PostgreSQL). Without liquidity, a received swap fails from where it is. On
   * SQLite the reservation and the move are two writes: a process that stops between them leaves the swap received
   * with its reservation; decided again, it keeps the reservation (the amount reserved before) and pays, or gives it
   * back as it fails.
   */
  const pay = (row: SwapRow, terms?: Pay["changes"]) =>
    Effect.gen(function* () {
      const resource = terms?.resource_out ?? row.resource_out
      const amount = terms?.amount_out ?? row.amount_out
      // A swap moves to `paying` with its payout's terms (`Pay`): without them the row is corrupt.
      if (amount === null || resource === null)
        return yield* Effect.dieMessage(`swap ${row.tx_in} is paying with no payout amount or resource`)
      let current = row
      const result = yield* transfer(
        row,
        "payout",
        { resource, amount, to: row.sender },
        terms === undefined
          ? undefined
          : { from: "received", changes: terms, stored: (written) => void (current = written) }
      )
      const now = yield* Clock.currentTimeMillis
      // Committed (the balance now shows it) or never to commit: the reservation has done its job, and goes with the
      // swap's next move, in the same write.
      const settled = (to: SwapState, changes: SwapChanges, detail: string | null) =>
        moved(current, transition(row.tx_in, current.state, to, changes, detail, true))
      switch (result.outcome) {
        case "CommittedSuccess":
          return yield* settled("completed", { finalized_ms: now, message: null }, result.intent)
        case "CommittedFailure":
        case "Rejected": {
          const message = `The payout ${result.intent} did not commit (${result.outcome === "Rejected" ? "rejected" : "failed"})`
          return yield* settled("failed", { message, payout_intent: null, payout_hex: null }, message)
        }
        case "LowLiquidity":
          return yield* settled("failed", { ...terms, message: LOW_LIQUIDITY }, LOW_LIQUIDITY)
        case "Moved":
          return { row: yield* reread(row), progressed: true }
        default:
          // Not known yet: the swap stays where the stored intent left it, to be resumed.
          return { row: current, progressed: current !== row }
      }
    })

  const startRefund = (row: SwapRow) =>
    Effect.gen(function* () {
      if (row.refund_attempts >= config.maxRefundAttempts) return stay(row)
      return yield* moved(
        row,
        transition(row.tx_in, "failed", "refunding", { refund_attempts: row.refund_attempts + 1 })
      )
    })

  const refund = (row: SwapRow) =>
    Effect.gen(function* () {
      const result = yield* transfer(row, "refund", {
        resource: row.resource_in,
        amount: row.amount_in,
        to: row.sender
      })
      const now = yield* Clock.currentTimeMillis
      const reason = row.message ?? "The swap could not be paid"
      switch (result.outcome) {
        case "CommittedSuccess":
          return yield* moved(
            row,
            transition(
              row.tx_in,
              "refunding",
              "refunded",
              { finalized_ms: now, message: `${reason} Refunded ${row.amount_in} ${row.symbol_in}.` },
              result.intent
            )
          )
        case "CommittedFailure":
        case "Rejected":
          return yield* moved(
            row,
            transition(
              row.tx_in,
              "refunding",
              "failed",
              { refund_intent: null, refund_hex: null },
              `refund ${result.intent} did not commit`
            )
          )
        case "Moved":
          return { row: yield* reread(row), progressed: true }
        default:
          return stay(row)
      }
    })

  const step = (row: SwapRow): Effect.Effect<Step, SettlementUnavailable> => {
    switch (row.state) {
      case "received":
        return decide(row)
      case "paying":
        return pay(row)
      case "failed":
        return startRefund(row)
      case "refunding":
        return refund(row)
      default:
        return Effect.succeed(stay(row))
    }
  }

  const advance = (start: SwapRow) =>
    Effect.gen(function* () {
      let current = start
      for (let i = 0; i < 10 && !TERMINAL_STATES.has(current.state); i++) {
        const next = yield* step(current)
        current = next.row
        if (!next.progressed) break
      }
      return current
    })

  // --- public operations --------------------------------------------------------------------------------------

  const swapClaims = { claim: db.claim, renew: db.renewClaim, release: db.releaseClaim }

  /**
   * Settles one deposit as far as it can go now (exactly once per hash, across replicas). A deposit seen for the
   * first time is recorded and claimed by one write. When another replica holds the swap, waits up to `wait` for
   * its outcome (or for its claim to expire, then takes over); with no wait, it answers the row as it stands.
   * `likelyNew` (a registration): the deposit is read before the store is asked for the row, see `open`.
   */
  const settleWith = (txHash: string, wait: Duration.Duration, likelyNew = false) =>
    claims.run({
      key: txHash,
      label: `swap ${txHash}`,
      table: swapClaims,
      wait,
      isFinal: (row: SwapRow) => TERMINAL_STATES.has(row.state),
      reread,
      open: (fresh) =>
        Effect.gen(function* () {
          const stored = (row: SwapRow) => ({ row, held: Option.none<Held<SwapRow>>() })
          if (!likelyNew) {
            const existing = yield* db.get(txHash)
            if (Option.isSome(existing)) return stored(existing.value)
          }
          // A registration is nearly always of a deposit not stored yet: it reads the deposit first, and the insert
          // (which keeps a row already there) tells whether it was new, one statement fewer. When the read fails, a
          // row already stored is the answer, as it would have been had it been looked up first.
          const read = yield* Effect.either(readDeposit(txHash))
          if (Either.isLeft(read)) {
            const existing = likelyNew ? yield* db.get(txHash) : Option.none<SwapRow>()
            if (Option.isSome(existing)) return stored(existing.value)
            return yield* Effect.fail(read.left)
          }
          const d = read.right
          const claim = yield* fresh
          const inserted = yield* db.insertReceived(
            {
              tx_in: d.txIn,
              sender: d.sender,
              resource_in: d.resource,
              symbol_in: d.symbol,
              amount_in: d.amount,
              route_text: d.routeText,
              state_version_in: d.stateVersion,
              quote_id: d.quoteId ?? null,
              committed_ms: d.committedMs ?? null
            },
            claim
          )
          return inserted.inserted
            ? { row: inserted.row, held: Option.some<Held<SwapRow>>({ token: claim.token, row: inserted.row }) }
            : stored(inserted.row)
        }),
      work: (claimed: SwapRow) =>
        Effect.gen(function* () {
          yield* fault("claimed", txHash)
          // Claimed as it stands now: another replica may have moved it on before.
          return yield* advance(claimed)
        })
    })

  /** Settles one deposit as far as it can go now; a swap another replica holds is left to it. */
  const settle = Effect.fn("Settlement.settle")(function* (txHash: string) {
    return yield* settleWith(txHash, Duration.zero)
  })

  /**
   * Registration from the API: settlement runs in the server's scope (it goes on if the caller leaves); the caller
   * waits for it up to `registrationWait` and gets the row, or none when it is still running. A swap another
   * replica holds is awaited for as long.
   */
  const register = Effect.fn("Settlement.register")(function* (txHash: string) {
    // A stopping replica takes no new work: the swap stays for the replicas that go on (or for its next start).
    if (stopping) return Option.none<SwapRow>()
    const fiber = yield* Effect.forkIn(settleWith(txHash, config.registrationWait, true), work)
    return yield* Fiber.join(fiber).pipe(
      Effect.timeoutOption(config.registrationWait),
      // Cut off by `stop`: still in progress as far as the caller knows, and another replica may take it at once.
      Effect.catchAllCause((cause) =>
        stopping && Cause.isInterruptedOnly(cause) ? Effect.succeed(Option.none<SwapRow>()) : Effect.failCause(cause)
      )
    )
  })

  const stop = Effect.suspend(() => {
    stopping = true
    return Scope.close(work, Exit.void)
  }).pipe(Effect.withSpan("Settlement.stop"))

  /**
   * Resumes every swap that is not final and not held by a live claim (after a restart, and on every watcher pass),
   * `RESUME_CONCURRENCY` at once.
   */
  const resumeUnfinished = Effect.gen(function* () {
    if (stopping) return 0
    const rows = yield* db.unfinished(yield* Clock.currentTimeMillis)
    yield* Effect.forEach(
      rows,
      (row) =>
        settle(row.tx_in).pipe(Effect.catchAll((e) => Effect.logWarning(`resuming swap ${row.tx_in}: ${e.message}`))),
      { concurrency: RESUME_CONCURRENCY, discard: true }
    )
    return rows.length
  }).pipe(Effect.withSpan("Settlement.resumeUnfinished"))

  return Settlement.of({ settle, register, resumeUnfinished, stop })
})

/** Settlement over claims and payouts given from outside (the server shares them with the atomic swaps). */
export const SettlementOnly = Layer.scoped(Settlement, makeSettlement)

/** Settlement with claims and payouts of its own. */
export const SettlementLive = SettlementOnly.pipe(Layer.provide(Layer.merge(ClaimsLive, PayoutsLive)))
