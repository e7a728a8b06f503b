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

export interface WalletSessionShape {
  readonly session: Stream.Stream<SessionState>
  readonly gksBalance: Stream.Stream<BalanceBadge>
  readonly selectAccount: (address: string) => Effect.Effect<void>
}

export const emptySession: SessionState = { accounts: [], selected: undefined }

/**
 * The connected wallet as the app sees it. Until the wallet-connector toolkit is wired in, the live layer reports
 * no account; `WalletSession.fromState` lets tests (and later the toolkit) feed it.
 */
export class WalletSession extends Effect.Tag("hswap/WalletSession")<WalletSession, WalletSessionShape>() {
  static readonly fromState = (initial: SessionState, balance: BalanceBadge) =>
    Layer.effect(
      WalletSession,
      Effect.gen(function* () {
        const session = yield* SubscriptionRef.make(initial)
        const gks = yield* SubscriptionRef.make(balance)
        return {
          session: session.changes,
          gksBalance: gks.changes,
          selectAccount: (address: string) =>
            SubscriptionRef.update(session, (s) =>
              s.accounts.some((a) => a.address === address) ? { ...s, selected: address } : s
            )
        }
      })
    )

  static readonly Disconnected = WalletSession.fromState(emptySession, { _tag: "Hidden" })
}
