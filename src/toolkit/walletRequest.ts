/**
 * WalletRequest: data, login and proof requests, transactions and pre-authorisations; request items and their
 * statuses; the wallet data and shared data; the button status. It picks the transport (the extension on desktop,
 * the relay on mobile), resolves each request as soon as its response arrives, and keeps the official toolkit's
 * 1 s sweep for responses written by another tab.
 */
import {
  Clock,
  Deferred,
  Duration,
  Effect,
  Exit,
  FiberHandle,
  FiberMap,
  Option,
  Schedule,
  Stream,
  SubscriptionRef
} from "effect"
import { defaultRdtState, emptyWalletData, timing, ToolkitConfig } from "./config"
import { Crypto } from "./crypto"
import {
  canBeAnsweredFromState,
  CHALLENGE,
  type DataRequest,
  isChallengeNeeded,
  sharedDataToDataRequest,
  type SubintentRequest,
  toSharedData,
  toWalletData,
  toWalletRequest
} from "./dataRequest"
import { Environment } from "./environment"
import {
  CanceledByUser,
  ChallengeGeneratorError,
  ChallengeValidationError,
  FailedToCreateRequestItem,
  FailedToPoll,
  FailedToReadRdtState,
  FailedToSendDappRequest,
  FailedToUpdateRdtState,
  fromWalletFailure,
  LoginRejectedByDapp,
  PreAuthorizationTimedOut,
  RequestIgnored,
  RequestInterceptorError,
  SupportedTransportNotFound,
  TransactionFailed,
  WalletResponseValidation
} from "./errors"
import { Extension } from "./extension"
import { pollSubintentStatus, pollTransactionStatus, ToolkitGateway } from "./gateway"
import { Relay, type RelayDelivery } from "./relay"
import {
  type RdtState,
  type RequestItem,
  type RequestItemMetadata,
  type RequestItemType,
  type RequestStatus,
  type SharedData,
  type WalletData,
  WalletInteraction,
  type WalletInteractionItems,
  type WalletInteractionResponse
} from "./schemas"
import { Storage } from "./storage"
import { decodeUntrusted } from "./untrusted"
import type {
  ButtonStatus,
  PreAuthorizationResult,
  RequestFailure,
  SendTransactionInput,
  SendTransactionResult
} from "./walletRequestApi"

interface ItemPatch {
  readonly status?: RequestStatus
  readonly showCancel?: boolean
  readonly sentToWallet?: boolean
  readonly transactionIntentHash?: string
  readonly error?: string
  readonly walletResponse?: WalletInteractionResponse
  readonly walletData?: WalletData
  readonly metadata?: RequestItemMetadata
}

/** A storage write that failed (a full quota, a browser refusing): the request goes on in memory; it is said. */
const logged =
  (what: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<void, never, R> =>
    effect.pipe(
      Effect.asVoid,
      Effect.catchAll((e) => Effect.logWarning(`toolkit: ${what} was not stored`, e))
    )

/** Wallet answers kept for requests this tab does not know (another tab's), the newest first; older ones go. */
export const MAX_UNCLAIMED_RESPONSES = 32

const isLive = (status: RequestStatus) => status === "pending" || status === "pendingCommit"

/** The login a data request asked for ("usePersona", "loginWithoutChallenge", "loginWithChallenge"), if any. */
const authOf = (items: WalletInteractionItems | undefined) =>
  items?.discriminator === "authorizedRequest" ? items.auth.discriminator : undefined

/** Applies a patch: `ignored` is sticky, metadata merges, the interaction is dropped once the status is final. */
export const applyPatch = (item: RequestItem, patch: ItemPatch): RequestItem => {
  const status: RequestStatus = item.status === "ignored" ? "ignored" : (patch.status ?? item.status)
  const { walletInteraction, ...rest } = item
  const metadata = patch.metadata ? { ...item.metadata, ...patch.metadata } : item.metadata
  const next: RequestItem = {
    ...rest,
    ...patch,
    status,
    ...(metadata ? { metadata } : {}),
    ...(walletInteraction && isLive(status) ? { walletInteraction } : {})
  }
  return next
}

/** The interceptor's answer is the dApp's code, but it goes through the guarded entry all the same. */
const decodeInteraction = decodeUntrusted(WalletInteraction)

/**
 * Builds the WalletRequest service (scoped: its sweep, the extension listener and, on mobile, the relay poll live as
 * long as the scope). `WalletRequest.Default` (walletRequestTag.ts) loads this module and runs it.
 */
export const makeWalletRequest = Effect.gen(function* () {
  const config = yield* ToolkitConfig
  const storage = yield* Storage
  const crypto = yield* Crypto
  const env = yield* Environment
  const extension = yield* Extension
  const relay = yield* Relay
  const gateway = yield* ToolkitGateway

  const metadata = {
    version: 2 as const,
    dAppDefinitionAddress: config.dAppDefinitionAddress,
    networkId: config.networkId,
    origin: config.origin ?? env.origin
  }

  const initial = yield* storage.getState.pipe(Effect.orElseSucceed(() => defaultRdtState))
  const walletDataRef = yield* SubscriptionRef.make<WalletData>(initial.walletData)
  const sharedDataRef = yield* SubscriptionRef.make<SharedData>(initial.sharedData)
  const itemsRef = yield* SubscriptionRef.make<ReadonlyArray<RequestItem>>([])
  const buttonRef = yield* SubscriptionRef.make<ButtonStatus>("default")
  const lock = yield* Effect.makeSemaphore(1)
  const background = yield* FiberMap.make<string>()
  const buttonTimer = yield* FiberHandle.make()
  const waiters = new Map<string, Deferred.Deferred<RequestItem, RequestFailure>>()
  const onTransactionId = new Map<string, (hash: string) => void>()
  const onSubmittedSuccess = new Map<string, (hash: string) => void>()

  const withGateway = Effect.provideService(ToolkitGateway, gateway)
  /** Every transition of a request item runs under this lock, so a late response cannot undo a cancel. */
  const locked = lock.withPermits(1)
  const readItems = storage.requests.getAll.pipe(Effect.orElseSucceed(() => ({})))

  /** Reloads the items from storage; publishes only when they changed. */
  const refresh = Effect.gen(function* () {
    const items = Object.values(yield* readItems)
    const current = yield* SubscriptionRef.get(itemsRef)
    if (JSON.stringify(items) !== JSON.stringify(current)) yield* SubscriptionRef.set(itemsRef, items)
  })
  yield* refresh

  const anyPending = Effect.map(SubscriptionRef.get(itemsRef), (items) => items.some((i) => i.status === "pending"))

  // ---------------------------------------------------------------- button status

  const buttonPending = FiberHandle.clear(buttonTimer).pipe(Effect.zipRight(SubscriptionRef.set(buttonRef, "pending")))
  /** Shows the result, then after 2 s goes back to pending (requests remain) or default. */
  const buttonResult = (status: "success" | "error") =>
    SubscriptionRef.set(buttonRef, status).pipe(
      Effect.zipRight(
        FiberHandle.run(
          buttonTimer,
          Effect.sleep(Duration.millis(timing.buttonReset)).pipe(
            Effect.zipRight(anyPending),
            Effect.flatMap((pending) => SubscriptionRef.set(buttonRef, pending ? "pending" : "default"))
          )
        )
      ),
      Effect.asVoid
    )

  // ---------------------------------------------------------------- items

  /** This tab's requests still waiting for their answer, as first stored (to restore one that storage lost). */
  const own = new Map<string, RequestItem>()

  /** A request of this tab whose caller still waits, but whose stored item is gone or unreadable: stored again. */
  const restoreOwn = (id: string) =>
    Effect.gen(function* () {
      const item = own.get(id)
      const waiter = waiters.get(id)
      if (item === undefined || waiter === undefined || (yield* Deferred.isDone(waiter)))
        return Option.none<RequestItem>()
      yield* Effect.logWarning(`toolkit: the stored request ${JSON.stringify(id)} was missing or unreadable; restored`)
      yield* storage.requests.setItems({ [id]: item }).pipe(logged("the restored request"))
      return Option.some(item)
    })

  const getItem = (id: string) =>
    storage.requests.getById(id).pipe(
      Effect.orElseSucceed(() => Option.none<RequestItem>()),
      Effect.flatMap((found) => (Option.isSome(found) ? Effect.succeed(found) : restoreOwn(id)))
    )

  const patch = (id: string, p: ItemPatch) =>
    storage.requests
      .patchItem(id, (item) => applyPatch(item, p))
      .pipe(
        Effect.tap(() => refresh),
        Effect.mapError((cause) => new FailedToUpdateRdtState({ interactionId: id, cause }))
      )

  const settle = (id: string, exit: Exit.Exit<RequestItem, RequestFailure>) =>
    Effect.suspend(() => {
      const waiter = waiters.get(id)
      return waiter ? Deferred.done(waiter, exit).pipe(Effect.asVoid) : Effect.void
    })

  /** Ends a live request with a failure: status fail, the error code kept on the item. */
  const fail = (id: string, error: RequestFailure, extra: ItemPatch = {}) =>
    Effect.gen(function* () {
      const item = yield* getItem(id)
      if (Option.isNone(item) || !isLive(item.value.status)) return
      yield* patch(id, { ...extra, status: "fail", error: error._tag }).pipe(logged("a failed request's end"))
      yield* buttonResult("error")
      yield* settle(id, Exit.fail(error))
    })

  /**
   * A message that names a request but does not read as a wallet answer: it fails the request while the request
   * still waits for the wallet, and is logged and left alone once the wallet has answered it (a transaction whose
   * status is followed, a pre-authorisation waiting for its commit): a garbled copy never undoes a real answer.
   */
  const failUnreadable = (id: string, error: RequestFailure) =>
    Effect.gen(function* () {
      const item = yield* getItem(id)
      if (Option.isSome(item) && (item.value.walletResponse !== undefined || item.value.status === "pendingCommit"))
        return yield* Effect.logWarning(
          `toolkit: an unreadable copy of the wallet's answer to ${id} was ignored`,
          error
        )
      yield* fail(id, error)
    })

  /** Moves a live request on (success, or pendingCommit for a pre-authorisation) and settles its caller. */
  const succeed = (id: string, p: ItemPatch) =>
    Effect.gen(function* () {
      const item = yield* getItem(id)
      if (Option.isNone(item) || !isLive(item.value.status)) return
      const next = yield* patch(id, p)
      yield* buttonResult("success")
      yield* settle(id, Exit.succeed(next))
    }).pipe(Effect.catchAll((e) => fail(id, e)))

  // ---------------------------------------------------------------- responses

  const commitState = (item: RequestItem, walletData: WalletData) =>
    Effect.gen(function* () {
      const state = yield* storage.getState
      const now = yield* Clock.currentTimeMillis
      const interaction = item.walletInteraction
      const next: RdtState = {
        loggedInTimestamp: item.type === "loginRequest" ? String(now) : state.loggedInTimestamp,
        walletData,
        sharedData: interaction ? toSharedData(interaction, state.sharedData) : state.sharedData
      }
      yield* storage.state.set(next)
      yield* SubscriptionRef.set(walletDataRef, next.walletData)
      yield* SubscriptionRef.set(sharedDataRef, next.sharedData)
    }).pipe(Effect.mapError((cause) => new FailedToUpdateRdtState({ interactionId: item.interactionId, cause })))

  const pollTransaction = (id: string, hash: string) =>
    withGateway(pollTransactionStatus(hash)).pipe(
      Effect.flatMap((status) =>
        locked(
          status === "CommittedSuccess"
            ? succeed(id, { status: "success", transactionIntentHash: hash, metadata: { transactionStatus: status } })
            : fail(id, new TransactionFailed({ interactionId: id, transactionIntentHash: hash, status }), {
                transactionIntentHash: hash,
                metadata: { transactionStatus: status }
              })
        )
      ),
      Effect.catchAll((e) => locked(fail(id, e)))
    )

  /** Only a request still waiting for its commit moves on (an ignored one stays ignored). */
  const whilePendingCommit = (id: string, effect: Effect.Effect<void>) =>
    locked(
      Effect.flatMap(getItem(id), (item) =>
        Option.isSome(item) && item.value.status === "pendingCommit" ? effect : Effect.void
      )
    )

  const pollSubintent = (id: string, subintentHash: string, expirationTimestamp: number) =>
    withGateway(pollSubintentStatus(subintentHash, expirationTimestamp)).pipe(
      Effect.flatMap((result) =>
        whilePendingCommit(
          id,
          Option.match(result, {
            onNone: () =>
              patch(id, { status: "timedOut" }).pipe(
                logged("a pre-authorisation's time-out"),
                Effect.zipRight(settle(id, Exit.fail(new PreAuthorizationTimedOut({ interactionId: id }))))
              ),
            onSome: (parent) =>
              patch(id, { status: "success", metadata: { parentTransactionIntentHash: parent } }).pipe(
                logged("a pre-authorisation's commit"),
                Effect.tap(() =>
                  Effect.sync(() => {
                    const callback = onSubmittedSuccess.get(id)
                    onSubmittedSuccess.delete(id)
                    callback?.(parent)
                  })
                )
              )
          })
        )
      ),
      Effect.catchAll((e) =>
        whilePendingCommit(
          id,
          patch(id, { status: "fail", error: e._tag }).pipe(logged("a pre-authorisation's failure"))
        )
      ),
      // However the wait ends, its success callback is not held any longer.
      Effect.ensuring(Effect.sync(() => onSubmittedSuccess.delete(id)))
    )

  const handleResponseLocked = (response: WalletInteractionResponse) =>
    Effect.gen(function* () {
      const id = response.interactionId
      const found = yield* getItem(id)
      if (Option.isNone(found)) {
        // Maybe another tab's request: keep it for that tab's sweep, among the latest `MAX_UNCLAIMED_RESPONSES` only
        // (any script on the page can send answers for requests nobody made; they must not fill the storage).
        yield* storage.walletResponses
          .setItems({ [id]: response }, MAX_UNCLAIMED_RESPONSES)
          .pipe(logged("a response for an unknown request"))
        yield* Effect.logDebug("toolkit: a response for an unknown request", id)
        return
      }
      const item = found.value
      if (item.status !== "pending") {
        // Settled here already (cancelled, timed out, failed, answered): the wallet's late word changes nothing, but
        // it is said, with the transaction it names if any (a transaction may have been submitted all the same).
        if (item.status !== "success" && item.status !== "pendingCommit")
          yield* Effect.logWarning(
            `toolkit: the wallet answered ${id} after it ended (${item.status}); the answer is not applied`,
            response.discriminator === "success" && response.items.discriminator === "transaction"
              ? `transaction ${response.items.send.transactionIntentHash}`
              : response.discriminator
          )
        return
      }
      // A second copy of a transaction's response while its status is polled here changes nothing.
      if (item.walletResponse !== undefined && (yield* FiberMap.has(background, `poll:${id}`))) return
      yield* storage.walletResponses.removeItem(id).pipe(logged("the removal of a handled answer"))

      if (response.discriminator === "failure") {
        return yield* fail(id, fromWalletFailure(response), { walletResponse: response })
      }
      const items = response.items
      const sent = item.walletInteraction?.items.discriminator
      const mismatch = () =>
        fail(
          id,
          new WalletResponseValidation({
            interactionId: id,
            issues: [
              { path: "items.discriminator", message: `a ${items.discriminator} response to a ${sent ?? "?"} request` }
            ]
          })
        )

      if (items.discriminator === "authorizedRequest" || items.discriminator === "unauthorizedRequest") {
        // The answer is of the request's own kind: a one-time answer does not log in, a login is not one-time, and a
        // login with a challenge is answered with its proof, never as a login without one (a persona in use may be
        // answered as a login without a challenge, as wallets do).
        if (items.discriminator !== sent) return yield* mismatch()
        const asked = authOf(item.walletInteraction?.items)
        const answered = items.discriminator === "authorizedRequest" ? items.auth.discriminator : undefined
        if (asked === "loginWithChallenge" && answered !== undefined && answered !== asked)
          return yield* fail(
            id,
            new WalletResponseValidation({
              interactionId: id,
              issues: [{ path: "items.auth.discriminator", message: `a ${answered} answer to a ${asked} request` }]
            })
          )
        const walletData = toWalletData(items)
        if (config.onLogin) {
          const onLogin = config.onLogin
          const rejected = yield* Effect.tryPromise({
            try: () => onLogin(walletData),
            catch: (cause) => new LoginRejectedByDapp({ interactionId: id, cause })
          }).pipe(Effect.flip, Effect.option)
          if (Option.isSome(rejected)) return yield* fail(id, rejected.value, { walletResponse: response })
        }
        if (items.discriminator === "authorizedRequest" && !item.isOneTimeRequest) {
          const committed = yield* Effect.either(commitState(item, walletData))
          if (committed._tag === "Left") return yield* fail(id, committed.left)
        }
        return yield* succeed(id, { status: "success", walletData, walletResponse: response })
      }

      if (items.discriminator === "transaction") {
        if (sent !== "transaction") return yield* mismatch()
        const hash = items.send.transactionIntentHash
        yield* Effect.sync(() => onTransactionId.get(id)?.(hash)).pipe(Effect.catchAllDefect(() => Effect.void))
        yield* patch(id, { transactionIntentHash: hash, walletResponse: response, showCancel: false }).pipe(
          logged("a transaction's hash")
        )
        yield* FiberMap.run(background, `poll:${id}`, pollTransaction(id, hash))
        return
      }

      if (sent !== "preAuthorizationRequest") return yield* mismatch()
      const signed = items.response
      if (!signed) {
        return yield* fail(
          id,
          new WalletResponseValidation({
            interactionId: id,
            issues: [{ path: "items.response", message: "missing response" }]
          })
        )
      }
      yield* succeed(id, {
        status: "pendingCommit",
        showCancel: false,
        transactionIntentHash: signed.subintentHash,
        walletResponse: response,
        metadata: {
          signedPartialTransaction: signed.signedPartialTransaction,
          expirationTimestamp: signed.expirationTimestamp,
          subintentHash: signed.subintentHash
        }
      })
      yield* FiberMap.run(background, `poll:${id}`, pollSubintent(id, signed.subintentHash, signed.expirationTimestamp))
    })

  /** Resolves the request a response belongs to, once; later copies are ignored. */
  const handleResponse = (response: WalletInteractionResponse) => lock.withPermits(1)(handleResponseLocked(response))

  // ---------------------------------------------------------------- sending

  const dispatch = (id: string, interaction: WalletInteraction) =>
    Effect.gen(function* () {
      const intercepted = config.requestInterceptor
        ? yield* Effect.tryPromise({
            try: () => config.requestInterceptor!(interaction),
            catch: (cause) => new RequestInterceptorError({ interactionId: id, cause })
          }).pipe(
            Effect.flatMap((value) => decodeInteraction(value)),
            Effect.mapError((cause) =>
              cause instanceof RequestInterceptorError
                ? cause
                : new RequestInterceptorError({ interactionId: id, cause })
            )
          )
        : interaction
      if (env.isMobile) {
        const item = yield* getItem(id)
        if (Option.isNone(item) || item.value.status !== "pending") {
          return yield* new FailedToSendDappRequest({ interactionId: id })
        }
        yield* patch(id, { sentToWallet: true })
        yield* relay.send(intercepted)
        return
      }
      if (!env.isBrowser) return yield* new SupportedTransportNotFound({ interactionId: id })
      const response = yield* extension.send(intercepted, {
        onLifecycleEvent: (event) =>
          event === "receivedByWallet" &&
          (interaction.items.discriminator === "transaction" ||
            interaction.items.discriminator === "preAuthorizationRequest")
            ? patch(id, { showCancel: false }).pipe(logged("a request's cancel button"))
            : Effect.void
      })
      yield* handleResponse(response)
    }).pipe(
      Effect.catchAll((error) => locked(fail(id, error))),
      // Never leave the caller waiting: an unexpected defect ends the request with a tagged error.
      Effect.catchAllDefect(() =>
        locked(fail(id, new FailedToSendDappRequest({ interactionId: id, message: "the request failed unexpectedly" })))
      )
    )

  /** Adds the request item, sends the interaction, and waits until the request is settled. */
  const submit = Effect.fn("WalletRequest.submit")(function* (
    type: RequestItemType,
    items: WalletInteractionItems,
    isOneTimeRequest: boolean,
    callbacks: {
      readonly onTransactionId?: (hash: string) => void
      readonly onSubmittedSuccess?: (hash: string) => void
    } = {}
  ) {
    const interactionId = yield* crypto.randomUuid()
    const interaction: WalletInteraction = { items, interactionId, metadata }
    const item: RequestItem = {
      type,
      status: "pending",
      interactionId,
      createdAt: yield* Clock.currentTimeMillis,
      showCancel: true,
      walletInteraction: interaction,
      isOneTimeRequest
    }
    const waiter = yield* Deferred.make<RequestItem, RequestFailure>()
    waiters.set(interactionId, waiter)
    own.set(interactionId, item)
    if (callbacks.onTransactionId) onTransactionId.set(interactionId, callbacks.onTransactionId)
    if (callbacks.onSubmittedSuccess) onSubmittedSuccess.set(interactionId, callbacks.onSubmittedSuccess)
    // What only the caller's wait needs; a pre-authorisation's success callback outlives it (until the commit).
    const forgetCaller = Effect.sync(() => {
      waiters.delete(interactionId)
      own.delete(interactionId)
      onTransactionId.delete(interactionId)
    })
    yield* storage.requests.setItems({ [interactionId]: item }).pipe(
      Effect.mapError((cause) => new FailedToCreateRequestItem({ interactionId, cause })),
      // Never sent: nothing of it stays behind.
      Effect.onError(() =>
        Effect.zipRight(
          forgetCaller,
          Effect.sync(() => onSubmittedSuccess.delete(interactionId))
        )
      )
    )
    yield* refresh
    yield* buttonPending
    yield* FiberMap.run(background, interactionId, dispatch(interactionId, interaction))
    return yield* Deferred.await(waiter).pipe(Effect.ensuring(forgetCaller))
  })

  const getChallenge = Effect.gen(function* () {
    const generator = config.challengeGenerator
    const challenge = generator
      ? yield* Effect.tryPromise({ try: () => generator(), catch: (cause) => new ChallengeGeneratorError({ cause }) })
      : ""
    if (typeof challenge !== "string" || !CHALLENGE.test(challenge)) return yield* new ChallengeValidationError()
    return challenge
  })

  const request = Effect.fn("WalletRequest.request")(function* (
    dataRequest: DataRequest,
    options: { readonly isConnect: boolean; readonly oneTime: boolean }
  ) {
    const challenge = isChallengeNeeded(dataRequest) ? yield* getChallenge : undefined
    const state = yield* storage.getState.pipe(Effect.mapError((cause) => new FailedToReadRdtState({ cause })))
    const items = toWalletRequest({ dataRequest, ...options, challenge, walletData: state.walletData })
    if (config.useCache && !options.isConnect && canBeAnsweredFromState(items, state)) return state.walletData
    const type: RequestItemType =
      items.discriminator === "authorizedRequest" && !state.walletData.persona
        ? "loginRequest"
        : items.discriminator === "authorizedRequest" && items.proofOfOwnership
          ? "proofRequest"
          : "dataRequest"
    const final = yield* submit(type, items, options.oneTime)
    return final.walletData ?? emptyWalletData
  })

  const resetState = Effect.gen(function* () {
    yield* storage.state.set(defaultRdtState).pipe(logged("the reset state"))
    yield* SubscriptionRef.set(walletDataRef, defaultRdtState.walletData)
    yield* SubscriptionRef.set(sharedDataRef, defaultRdtState.sharedData)
  })

  // ---------------------------------------------------------------- cancel, ignore, disconnect

  const cancelMessage = (interaction: WalletInteraction | undefined) =>
    interaction && !env.isMobile && env.isBrowser
      ? extension.cancel(interaction).pipe(
          Effect.timeoutTo({
            duration: Duration.seconds(5),
            onTimeout: () => "requestCancelFail" as const,
            onSuccess: (answer) => answer
          })
        )
      : Effect.succeed("requestCancelFail" as const)

  const cancelRequest = Effect.fn("WalletRequest.cancelRequest")(function* (interactionId: string) {
    const interaction = yield* locked(
      Effect.gen(function* () {
        const found = yield* getItem(interactionId)
        if (Option.isNone(found) || found.value.status !== "pending")
          return Option.none<WalletInteraction | undefined>()
        yield* fail(interactionId, new CanceledByUser({ interactionId }))
        return Option.some(found.value.walletInteraction)
      })
    )
    if (Option.isNone(interaction)) return "requestCancelFail" as const
    yield* FiberMap.remove(background, interactionId)
    yield* FiberMap.remove(background, `poll:${interactionId}`)
    return yield* cancelMessage(interaction.value)
  })

  const ignoreTransaction = Effect.fn("WalletRequest.ignoreTransaction")(function* (interactionId: string) {
    const interaction = yield* locked(
      Effect.gen(function* () {
        const found = yield* getItem(interactionId)
        if (Option.isNone(found) || !isLive(found.value.status)) return Option.none<WalletInteraction | undefined>()
        yield* patch(interactionId, { status: "ignored" }).pipe(logged("an ignored request"))
        yield* settle(interactionId, Exit.fail(new RequestIgnored({ interactionId })))
        return Option.some(found.value.walletInteraction)
      })
    )
    if (Option.isNone(interaction)) return
    yield* FiberMap.remove(background, interactionId)
    yield* FiberMap.remove(background, `poll:${interactionId}`)
    yield* buttonResult("error")
    yield* Effect.forkDaemon(cancelMessage(interaction.value))
  })

  const disconnect = Effect.fn("WalletRequest.disconnect")(function* () {
    const items = yield* readItems
    for (const item of Object.values(items)) {
      if (item.status === "pending" && item.showCancel) {
        yield* locked(fail(item.interactionId, new CanceledByUser({ interactionId: item.interactionId })))
        yield* Effect.forkDaemon(cancelMessage(item.walletInteraction))
      }
    }
    yield* FiberMap.clear(background)
    for (const id of [...waiters.keys()]) yield* settle(id, Exit.fail(new CanceledByUser({ interactionId: id })))
    yield* resetState
    yield* storage.requests.clear.pipe(logged("the cleared requests"))
    yield* refresh
    yield* extension.disconnect
    yield* FiberHandle.clear(buttonTimer)
    yield* SubscriptionRef.set(buttonRef, "default")
  })

  // ---------------------------------------------------------------- background loops

  /**
   * What a caller of this tab gets when its stored request was settled elsewhere (another tab, or a write to
   * storage): `undefined` while it is still waiting.
   */
  const exitOfStored = (item: RequestItem): Exit.Exit<RequestItem, RequestFailure> | undefined => {
    const interactionId = item.interactionId
    switch (item.status) {
      case "pending":
        return undefined
      case "pendingCommit":
        return item.type === "preAuthorizationRequest"
          ? Exit.succeed(item)
          : Exit.fail(
              new FailedToUpdateRdtState({ interactionId, message: "the stored request is in a state it cannot have" })
            )
      case "success":
        return Exit.succeed(item)
      case "ignored":
        return Exit.fail(new RequestIgnored({ interactionId }))
      case "timedOut":
        return Exit.fail(new PreAuthorizationTimedOut({ interactionId }))
      case "fail":
      case "cancelled":
        return Exit.fail(fromWalletFailure({ interactionId, error: item.error ?? "unknown" }))
    }
  }

  /** Settles this tab's callers whose stored request is no longer waiting for the wallet. */
  const settleFromStorage = (items: ReadonlyArray<RequestItem>) =>
    locked(
      Effect.forEach(
        items,
        (item) =>
          Effect.suspend(() => {
            const waiter = waiters.get(item.interactionId)
            const exit = waiter ? exitOfStored(item) : undefined
            return waiter && exit ? Deferred.done(waiter, exit) : Effect.void
          }),
        { discard: true }
      )
    )

  /**
   * The 1 s sweep: picks up items and responses written by another tab, settles callers whose request was settled
   * there, resumes pre-authorisation polls.
   */
  const sweepOnce = Effect.gen(function* () {
    yield* refresh
    const items = yield* SubscriptionRef.get(itemsRef)
    yield* settleFromStorage(items)
    const pending = items.filter((i) => i.status === "pending")
    if (pending.length > 0) {
      const responses: Readonly<Record<string, WalletInteractionResponse>> = yield* storage.walletResponses.getAll.pipe(
        Effect.orElseSucceed(() => ({}))
      )
      for (const item of pending) {
        const response = responses[item.interactionId]
        if (response) yield* handleResponse(response)
      }
    }
    for (const item of items) {
      // A poll that stopped with the page before it (a reload) is taken up again: a transaction the wallet answered
      // (its hash stored) is followed to success or fail rather than staying pending; a signed pre-authorisation to
      // its commit or expiry.
      const resume = (poll: Effect.Effect<void>) =>
        FiberMap.run(background, `poll:${item.interactionId}`, poll, { onlyIfMissing: true })
      const sent = item.transactionIntentHash
      if (
        item.type === "sendTransaction" &&
        item.status === "pending" &&
        item.walletResponse !== undefined &&
        sent !== undefined
      )
        yield* resume(pollTransaction(item.interactionId, sent))
      const expiration = item.metadata?.expirationTimestamp
      const hash = item.metadata?.subintentHash
      if (item.status === "pendingCommit" && expiration !== undefined && hash !== undefined)
        yield* resume(pollSubintent(item.interactionId, hash, expiration))
    }
  })
  /** A sweep that fails unexpectedly is logged; the next one runs on time. */
  const sweep = sweepOnce.pipe(Effect.catchAllDefect(() => Effect.logError("toolkit: a sweep failed unexpectedly")))
  yield* Effect.forkScoped(sweep.pipe(Effect.repeat(Schedule.spaced(Duration.millis(timing.requestResolverSweep)))))

  // Responses from the extension that no live send is waiting for (e.g. after a reload).
  const queue = yield* extension.subscribe
  yield* Effect.forkScoped(
    Stream.fromQueue(queue).pipe(
      // One message at a time, each on its own: whatever one does, the next is still read.
      Stream.runForEach((m) =>
        (m._tag === "Response"
          ? handleResponse(m.response)
          : m._tag === "Invalid" && m.interactionId !== undefined
            ? locked(failUnreadable(m.interactionId, m.error))
            : Effect.void
        ).pipe(Effect.catchAllDefect(() => Effect.logError("toolkit: an extension message could not be handled")))
      )
    )
  )

  if (env.isMobile) {
    // The relay's crypto is its own chunk: fetch it now rather than on the tap that starts a request.
    yield* Effect.forkScoped(
      crypto.preload.pipe(
        Effect.catchAll((e) =>
          Effect.logWarning("toolkit: the relay crypto could not be preloaded; the first request retries it", e)
        )
      )
    )
    const deliver = (d: RelayDelivery) =>
      d._tag === "Response"
        ? handleResponse(d.response)
        : d.interactionId !== undefined
          ? locked(failUnreadable(d.interactionId, d.error))
          : Effect.logWarning("toolkit: a relay entry with no readable interactionId was dropped", d.error)
    // A relay answer that ends polling fails the requests pending then; polling resumes for later requests.
    yield* Effect.forkScoped(
      relay.poll({ hasPending: anyPending, deliver }).pipe(
        Effect.catchAll((error) =>
          Effect.gen(function* () {
            yield* Effect.logError("toolkit: relay polling stopped", error)
            const items = yield* SubscriptionRef.get(itemsRef)
            const cause = error._tag === "failedToPoll" ? error : new FailedToPoll({ cause: error })
            for (const item of items) if (item.status === "pending") yield* locked(fail(item.interactionId, cause))
          })
        ),
        Effect.catchAllDefect(() => Effect.logError("toolkit: relay polling failed unexpectedly")),
        Effect.zipRight(Effect.sleep(Duration.millis(timing.relayPoll))),
        Effect.forever
      )
    )
  }

  // ---------------------------------------------------------------- the API

  return {
    config,
    /** Resets the state and asks for the configured connect request (default: ongoing accounts, at least 1). */
    connect: Effect.fn("WalletRequest.connect")(function* () {
      yield* resetState
      return yield* request(config.connectRequest, { isConnect: true, oneTime: false })
    }),
    sendRequest: Effect.fn("WalletRequest.sendRequest")(function* (dataRequest: DataRequest) {
      return yield* request(dataRequest, { isConnect: false, oneTime: dataRequest.oneTime ?? false })
    }),
    sendOneTimeRequest: Effect.fn("WalletRequest.sendOneTimeRequest")(function* (dataRequest: DataRequest) {
      return yield* request(dataRequest, { isConnect: false, oneTime: true })
    }),
    /** Asks again for what was shared, with the accounts reset. */
    updateSharedAccounts: Effect.fn("WalletRequest.updateSharedAccounts")(function* () {
      const state = yield* storage.getState.pipe(Effect.mapError((cause) => new FailedToReadRdtState({ cause })))
      return yield* request(sharedDataToDataRequest(state.sharedData), { isConnect: false, oneTime: false })
    }),
    sendTransaction: Effect.fn("WalletRequest.sendTransaction")(function* (input: SendTransactionInput) {
      const items: WalletInteractionItems = {
        discriminator: "transaction",
        send: {
          ...(input.blobs ? { blobs: input.blobs } : {}),
          transactionManifest: input.transactionManifest,
          ...(input.message !== undefined ? { message: input.message } : {}),
          version: input.version ?? 1
        }
      }
      const final = yield* submit(
        "sendTransaction",
        items,
        false,
        input.onTransactionId ? { onTransactionId: input.onTransactionId } : {}
      )
      return {
        transactionIntentHash: final.transactionIntentHash ?? "",
        status: final.metadata?.transactionStatus ?? "CommittedSuccess"
      } satisfies SendTransactionResult
    }),
    sendPreAuthorizationRequest: Effect.fn("WalletRequest.sendPreAuthorizationRequest")(function* (
      subintent: SubintentRequest
    ) {
      const item = subintent.item.header
        ? { ...subintent.item, header: { ...subintent.item.header, networkId: config.networkId } }
        : subintent.item
      const final = yield* submit(
        "preAuthorizationRequest",
        { discriminator: "preAuthorizationRequest", request: item },
        false,
        subintent.onSubmittedSuccess ? { onSubmittedSuccess: subintent.onSubmittedSuccess } : {}
      )
      return {
        signedPartialTransaction: final.metadata?.signedPartialTransaction ?? "",
        expirationTimestamp: final.metadata?.expirationTimestamp ?? 0,
        subintentHash: final.metadata?.subintentHash ?? ""
      } satisfies PreAuthorizationResult
    }),
    cancelRequest,
    ignoreTransaction,
    disconnect,
    openPopup: extension.openPopup,
    /** The dApp definition's name (or 'Unnamed dApp'). */
    dAppName: gateway.dAppName(config.dAppDefinitionAddress).pipe(Effect.orElseSucceed(() => "Unnamed dApp")),
    getWalletData: SubscriptionRef.get(walletDataRef),
    getRequestItems: SubscriptionRef.get(itemsRef),
    getButtonStatus: SubscriptionRef.get(buttonRef),
    walletData: walletDataRef.changes,
    sharedData: sharedDataRef.changes,
    requestItems: itemsRef.changes,
    buttonStatus: buttonRef.changes,
    extensionStatus: extension.status,
    isMobile: Stream.make(env.isMobile),
    /** Nothing to prepare: the machinery is running (the lazy toolkit, `lazy.ts`, loads it here). */
    prepare: Effect.void
  } as const
})

export type {
  ButtonStatus,
  DataRequestFailure,
  PreAuthorizationResult,
  RequestFailure,
  SendTransactionInput,
  SendTransactionResult,
  WalletRequestApi
} from "./walletRequestApi"
