/** Paging and chunking, independent of HTTP. */
import { Effect } from "effect"
import type { LedgerState, LedgerStateSelector } from "./schemas/common"

/** Splits `items` into consecutive chunks of at most `size` (the last one may be shorter). */
export const chunk = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> => {
  const chunks: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size))
  return chunks
}

/** The selector every follow-up page sends: the first page's exact state version. */
export const pinTo = (ledgerState: LedgerState): LedgerStateSelector => ({ state_version: ledgerState.state_version })

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly next_cursor?: string | undefined
}

/** Fetches the pages after `cursor` until `next_cursor` is empty; returns their items in order. */
export const remainingPages = <A, E, R>(
  cursor: string | undefined,
  fetchPage: (cursor: string) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<ReadonlyArray<A>, E, R> =>
  Effect.gen(function* () {
    const items: Array<A> = []
    let next = cursor
    while (next !== undefined && next !== "") {
      const page = yield* fetchPage(next)
      items.push(...page.items)
      next = page.next_cursor
    }
    return items
  })

/**
 * Reads every page of a collection. The first page goes out with the caller's `atLedgerState` (and `cursor`, if
 * resuming); every follow-up page pins `at_ledger_state.state_version` to the first page's ledger state.
 */
export const exhaustPages = <A, E, R>(
  fetchPage: (
    cursor: string | undefined,
    atLedgerState: LedgerStateSelector | undefined
  ) => Effect.Effect<Page<A> & { readonly ledger_state: LedgerState }, E, R>,
  start?: { readonly cursor?: string | undefined; readonly atLedgerState?: LedgerStateSelector | undefined }
): Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly ledger_state: LedgerState }, E, R> =>
  Effect.gen(function* () {
    const first = yield* fetchPage(start?.cursor, start?.atLedgerState)
    const pin = pinTo(first.ledger_state)
    const rest = yield* remainingPages(first.next_cursor, (cursor) => fetchPage(cursor, pin))
    return { items: [...first.items, ...rest], ledger_state: first.ledger_state }
  })

/**
 * Runs `fetch` over chunks with bounded concurrency and merges results in input order. The first chunk goes first;
 * unless the caller fixed a ledger state, the other chunks are pinned to the first chunk's, so all results describe
 * one ledger state.
 */
export const chunkedAtOneLedgerState = <In, Out, E, R>(
  chunks: ReadonlyArray<ReadonlyArray<In>>,
  atLedgerState: LedgerStateSelector | undefined,
  concurrency: number,
  fetch: (
    chunk: ReadonlyArray<In>,
    atLedgerState: LedgerStateSelector | undefined
  ) => Effect.Effect<{ readonly ledger_state: LedgerState; readonly items: ReadonlyArray<Out> }, E, R>
): Effect.Effect<{ readonly items: ReadonlyArray<Out>; readonly ledger_state: LedgerState | undefined }, E, R> =>
  Effect.gen(function* () {
    const [head, ...tail] = chunks
    if (head === undefined) return { items: [], ledger_state: undefined }
    const first = yield* fetch(head, atLedgerState)
    const pin = atLedgerState ?? pinTo(first.ledger_state)
    const rest = yield* Effect.forEach(tail, (c) => fetch(c, pin), { concurrency })
    return { items: [...first.items, ...rest.flatMap((r) => r.items)], ledger_state: first.ledger_state }
  })
