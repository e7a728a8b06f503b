import { Effect, Layer, Stream, SubscriptionRef } from "effect"

export interface WalletAccount {
  readonly address: string
  readonly label: string
}

export interface SessionState {
  readonly accounts: ReadonlyArray<WalletAccount>
  /** The selected account: the first one when none was chosen. */
  readonly selected: string | undefined
}

/** What the header balance badge shows: hidden without an account, '...' while loading, else the GKS balance. */
export type BalanceBadge =
  { readonly _tag: "Hidden" } | { readonly _tag: "Loading" } | { readonly _tag: "Ready"; readonly amount: string }

/** The selected account's fungible balances, by resource address (decimal strings). */
export type Balances =
  | { readonly _tag: "None" }
  | { readonly _tag: "Loading"; readonly account: string }
  | { readonly _tag: "Ready"; readonly account: string; readonly amounts: Readonly<Record<string, string>> }

export interface WalletSessionShape {
  readonly session: Stream.Stream<SessionState>
  readonly gksBalance: Stream.Stream<BalanceBadge>
  readonly balances: Stream.Stream<Balances>
  readonly selectAccount: (address: string) => Effect.Effect<void>
  /** Re-reads the balances (throttled to one gateway call per 15 s) and waits for the read. */
  readonly refreshBalances: Effect.Effect<void>
  /** Re-reads the balances now, whatever the throttle says (after a swap), and waits for the read. */
  readonly reloadBalances: Effect.Effect<void>
}

export const emptySession: SessionState = { accounts: [], selected: undefined }

/**
 * The connected wallet as the app sees it. The live layer (`WalletSessionLive`) follows the toolkit's wallet data and
 * reads balances through the Gateway; `WalletSession.fromState` feeds it by hand (tests, pages without a wallet).
 */
export class WalletSession extends Effect.Tag("hswap/WalletSession")<WalletSession, WalletSessionShape>() {
  static readonly fromState = (
    initial: SessionState,
    badge: BalanceBadge,
    balances: Readonly<Record<string, string>> = {}
  ) =>
    Layer.effect(
      WalletSession,
      Effect.gen(function* () {
        const session = yield* SubscriptionRef.make(initial)
        const gks = yield* SubscriptionRef.make(badge)
        const amounts = yield* SubscriptionRef.make<Balances>(
          initial.selected === undefined
            ? { _tag: "None" }
            : { _tag: "Ready", account: initial.selected, amounts: balances }
        )
        return {
          session: session.changes,
          gksBalance: gks.changes,
          balances: amounts.changes,
          selectAccount: (address: string) =>
            SubscriptionRef.update(session, (s) =>
              s.accounts.some((a) => a.address === address) ? { ...s, selected: address } : s
            ),
          refreshBalances: Effect.void,
          reloadBalances: Effect.void
        }
      })
    )

  static readonly Disconnected = WalletSession.fromState(emptySession, { _tag: "Hidden" })
}
