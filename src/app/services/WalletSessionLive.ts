import { KeyValueStore } from "@effect/platform"
import { Array, Clock, Duration, Effect, Fiber, FiberMap, Layer, Option, Stream, SubscriptionRef } from "effect"
import { shortenAddressToast } from "../../exchange/format"
import { Gateway } from "../../gateway/tag"
import { storageKey } from "../../toolkit/config"
import { accountChangedToast } from "../../toolkit/connectButtonState"
import { storedAccounts } from "../../toolkit/lazy"
import type { WalletData } from "../../toolkit/schemas"
import { WalletRequest } from "../../toolkit/walletRequestTag"
import { AppConfig } from "../config/AppConfig"
import { isAddressOn } from "../config/networks"
import { readFundAccountBalances, sumVaults } from "./fundAccountRead"
import { Toaster } from "./Toaster"
import { type Balances, type BalanceBadge, emptySession, type SessionState, WalletSession } from "./WalletSession"

/** Where the account the user picked is kept, so a reload keeps working with it (while the wallet shares it). */
export const SELECTED_ACCOUNT_KEY = "hswap:selectedAccount"

/** Spec §9: balance refresh cooldown 15 s; wallet toasts 5 s / 3 s / 3 s. */
export const BALANCE_COOLDOWN = Duration.seconds(15)
export const WALLET_CONNECTED_DURATION = Duration.seconds(5)
export const WALLET_DISCONNECTED_DURATION = Duration.seconds(3)

/**
 * The live WalletSession over a stream of wallet data: accounts (the first one selected when none is chosen), the
 * wallet toasts, and the selected account's balances from the Gateway's vault-aggregated entity details.
 */
export const makeWalletSession = (walletData: Stream.Stream<WalletData>) =>
  Effect.gen(function* () {
    const gateway = yield* Gateway
    const config = yield* AppConfig
    const toaster = yield* Toaster
    const kv = yield* KeyValueStore.KeyValueStore
    // A stored pick that the wallet no longer shares is simply not used; a store that fails is logged.
    const storedPick = yield* kv.get(SELECTED_ACCOUNT_KEY).pipe(
      Effect.map(Option.getOrUndefined),
      Effect.catchAll((e) => Effect.as(Effect.logWarning("could not read the selected account", e), undefined))
    )
    const keepPick = (address: string | undefined) =>
      (address === undefined ? kv.remove(SELECTED_ACCOUNT_KEY) : kv.set(SELECTED_ACCOUNT_KEY, address)).pipe(
        Effect.catchAll((e) => Effect.logWarning("could not keep the selected account", e))
      )
    // The accounts of the wallet session the toolkit keeps across reloads: when the wallet data first brings exactly
    // these, it is that session restored, not a connect, and 'Wallet Connected' is not shown again. Unreadable
    // storage restores nothing here (the toolkit reports and resets it), so a later connect still shows the toast.
    let restoring = yield* kv.get(storageKey(config.dAppDefinitionAddress, config.networkId, "state")).pipe(
      Effect.map((stored) => (Option.isSome(stored) ? storedAccounts(stored.value) : undefined)),
      Effect.catchAll((e) => Effect.as(Effect.logWarning("could not read the stored wallet session", e), undefined))
    )
    const session = yield* SubscriptionRef.make<SessionState>(emptySession)
    const balances = yield* SubscriptionRef.make<Balances>({ _tag: "None" })
    let lastFetch: { account: string; at: number } | undefined
    // One balance read at a time: a new account interrupts the read of the previous one. (One key of a FiberMap,
    // which the Toaster loads anyway, rather than a FiberHandle: one module fewer on the first screen.)
    const loads = yield* FiberMap.make<"balances", void, never>()
    const runLoad = (effect: Effect.Effect<void>, options?: { readonly onlyIfMissing: boolean }) =>
      FiberMap.run(loads, "balances", effect, options)

    const fetchBalances = (account: string) =>
      gateway.state.getEntityDetailsVaultAggregated([account]).pipe(
        Effect.flatMap((items) => sumVaults(items[0]?.fungible_resources.items ?? [])),
        Effect.catchAll((e) =>
          // The spec's rule: the balance falls back to 0, logged, with nothing shown to the user.
          Effect.logError("Error fetching GKS balance", e).pipe(Effect.as<Readonly<Record<string, string>>>({}))
        )
      )

    const load = (account: string, force: boolean) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (!force && lastFetch?.account === account && now - lastFetch.at < Duration.toMillis(BALANCE_COOLDOWN)) return
        lastFetch = { account, at: now }
        const current = yield* SubscriptionRef.get(balances)
        if (current._tag !== "Ready" || current.account !== account)
          yield* SubscriptionRef.set(balances, { _tag: "Loading", account })
        const amounts = yield* fetchBalances(account)
        const selected = (yield* SubscriptionRef.get(session)).selected
        if (selected === account) yield* SubscriptionRef.set(balances, { _tag: "Ready", account, amounts })
      })

    /** The toolkit's own 'Account Changed' toast (15+5 address, 3 s). */
    const showAccountChanged = (address: string) => {
      const toast = accountChangedToast(address)
      return toaster.show({
        title: toast.title,
        description: toast.description,
        duration: Duration.millis(toast.durationMs)
      })
    }

    // Follow the wallet's accounts; keep the selection while it is still shared, else take the first.
    yield* walletData.pipe(
      Stream.runForEach((data) =>
        Effect.gen(function* () {
          const before = yield* SubscriptionRef.get(session)
          // Only account addresses of this network are used: anything else (tampered storage, a wallet gone wrong)
          // would be sent to the Gateway and the exchange as an account. It is left out, and logged.
          const [foreign, valid] = Array.partition(data.accounts, (a) =>
            isAddressOn(a.address, "account", config.networkId)
          )
          const accounts = valid.map((a) => ({ address: a.address, label: a.label }))
          if (foreign.length > 0)
            yield* Effect.logWarning(
              `the wallet shared ${foreign.length} account(s) that are not account addresses on network ${config.networkId}; left out`,
              foreign.map((a) => JSON.stringify(a.address.slice(0, 80)))
            )
          const shared = (address: string | undefined) => accounts.some((a) => a.address === address)
          // The selection while it is shared; at connect, the account picked before a reload; else the first.
          const selected = shared(before.selected)
            ? before.selected
            : before.selected === undefined && shared(storedPick)
              ? storedPick
              : accounts[0]?.address
          yield* SubscriptionRef.set(session, { accounts, selected })
          const restored =
            restoring !== undefined &&
            data.accounts.length === restoring.length &&
            data.accounts.every((a, i) => a.address === restoring?.[i])
          if (data.accounts.length > 0) restoring = undefined
          if (before.accounts.length === 0 && selected !== undefined && !restored)
            yield* toaster.show({
              title: "Wallet Connected",
              description: shortenAddressToast(selected),
              duration: WALLET_CONNECTED_DURATION
            })
          if (before.accounts.length > 0 && accounts.length === 0) {
            yield* keepPick(undefined)
            // The account the user was on (spec §9: 15 + 5 characters in the wallet toasts).
            const previous = before.selected ?? before.accounts[0]?.address
            yield* toaster.show({
              title: "Wallet Disconnected",
              ...(previous === undefined ? {} : { description: shortenAddressToast(previous) }),
              duration: WALLET_DISCONNECTED_DURATION
            })
          }
          // The selected account is no longer shared: the selection moved to the first one.
          if (before.selected !== undefined && selected !== undefined && selected !== before.selected)
            yield* showAccountChanged(selected)
          if (selected === undefined) {
            lastFetch = undefined
            yield* SubscriptionRef.set(balances, { _tag: "None" })
          } else if (selected !== before.selected) yield* runLoad(load(selected, true))
        })
      ),
      Effect.forkScoped
    )

    // Once at startup, the fund account's balances are read and only logged (spec §7), without the Gateway client
    // (fundAccountRead.ts).
    yield* readFundAccountBalances(config, config.fundAccount).pipe(
      Effect.matchEffect({
        onSuccess: (read) =>
          Effect.logInfo(
            "fund account balances",
            read.amounts,
            ...(read.firstPageOnly ? [`the first page only, of ${read.totalCount ?? "more"} resources`] : [])
          ),
        onFailure: (e) => Effect.logError("Error fetching the fund account's balances", e)
      }),
      Effect.forkScoped
    )

    const selectAccount = (address: string) =>
      Effect.gen(function* () {
        const s = yield* SubscriptionRef.get(session)
        if (!s.accounts.some((a) => a.address === address) || s.selected === address) return
        yield* SubscriptionRef.set(session, { ...s, selected: address })
        yield* keepPick(address)
        yield* showAccountChanged(address)
        yield* Fiber.await(yield* runLoad(load(address, true)))
      })

    const refreshBalances = Effect.gen(function* () {
      const selected = (yield* SubscriptionRef.get(session)).selected
      if (selected !== undefined) yield* Fiber.await(yield* runLoad(load(selected, false), { onlyIfMissing: true }))
    })

    const reloadBalances = Effect.gen(function* () {
      const selected = (yield* SubscriptionRef.get(session)).selected
      if (selected !== undefined) yield* Fiber.await(yield* runLoad(load(selected, true)))
    })

    const gksBalance: Stream.Stream<BalanceBadge> = balances.changes.pipe(
      Stream.map((b): BalanceBadge => {
        switch (b._tag) {
          case "None":
            return { _tag: "Hidden" }
          case "Loading":
            return { _tag: "Loading" }
          case "Ready":
            return { _tag: "Ready", amount: b.amounts[config.gksResource] ?? "0" }
        }
      }),
      Stream.changesWith(
        (a, b) => a._tag === b._tag && (a._tag !== "Ready" || (b._tag === "Ready" && a.amount === b.amount))
      )
    )

    return {
      session: session.changes,
      balances: balances.changes,
      gksBalance,
      selectAccount,
      refreshBalances,
      reloadBalances
    }
  })

/** The live layer: the toolkit's wallet data. */
export const WalletSessionLive = Layer.scoped(
  WalletSession,
  Effect.flatMap(WalletRequest, (wallet) => makeWalletSession(wallet.walletData))
)
