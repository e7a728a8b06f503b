import { Context, Effect, Layer, Schema } from "effect"
import { SubintentRequestBuilder } from "../../../../toolkit/dataRequest"
import { WalletRequest } from "../../../../toolkit/walletRequestTag"

/**
 * How a wallet request ended without a transaction: the user rejected it in the wallet, the dApp withdrew it
 * (Cancel, a disconnect), or it failed. Only `failed` is a failure in the spec's sense (§8).
 */
export type SwapWalletErrorKind = "rejected" | "canceled" | "failed" | "unsupported" | "expired"

/** The wallet refused, failed or never answered: the swap did not happen. */
export class SwapWalletError extends Schema.TaggedError<SwapWalletError>()("SwapWalletError", {
  reason: Schema.String,
  /**
   * `unsupported`: the wallet cannot sign a pre-authorisation (an older wallet); `expired`: it would not sign one
   * whose expiration was past or too close.
   */
  kind: Schema.optionalWith(Schema.Literal("rejected", "canceled", "failed", "unsupported", "expired"), {
    default: () => "failed"
  })
}) {}

/** The toolkit's error tags that mean "nothing was sent" rather than "it went wrong". */
const kindOf = (tag: string): SwapWalletErrorKind =>
  tag === "rejectedByUser" ? "rejected" : tag === "canceledByUser" || tag === "RequestIgnored" ? "canceled" : "failed"

/**
 * A pre-authorisation's failures that mean "this wallet cannot do it" rather than "it went wrong": the wallet could
 * not read the request (it predates pre-authorisations), or answered with a code saying so.
 */
const UNSUPPORTED = /unsupported|incompatible|invalidRequest|notSupported|walletRequestValidation/i

const preAuthKindOf = (tag: string, code: string): SwapWalletErrorKind =>
  tag === "expiredSubintent" || tag === "subintentExpirationTooClose"
    ? "expired"
    : UNSUPPORTED.test(tag) || UNSUPPORTED.test(code)
      ? "unsupported"
      : kindOf(tag)

/**
 * What became of a cancel: the wallet confirmed it withdrew the request (`canceled`); the wallet could not confirm
 * (`unconfirmed`); the wallet had already received the transaction, so the dApp stopped waiting and asked it to
 * drop the request, which it may not do (`ignored`, as the official toolkit's "ignore"); or no request was waiting.
 */
export type CancelOutcome = "canceled" | "unconfirmed" | "ignored" | "nothing_to_cancel"

/** What the swap machine needs from the wallet: one transaction, signed and submitted, reported by intent hash. */
export class SwapWallet extends Context.Tag("hswap/SwapWallet")<
  SwapWallet,
  {
    readonly send: (input: {
      readonly manifest: string
      readonly message: string
      /** Called once the wallet has signed and submitted, with the intent hash, before the commit is known. */
      readonly onSubmitted?: (transactionIntentHash: string) => void
    }) => Effect.Effect<{ readonly transactionIntentHash: string }, SwapWalletError>
    /**
     * Asks the wallet to pre-authorise `manifest` (a subintent) until `expiresAtSeconds` (epoch seconds): the
     * signed partial transaction and its subintent hash. Nothing moves until the exchange submits it with its leg.
     */
    readonly preAuthorize: (input: {
      readonly manifest: string
      readonly message: string
      readonly expiresAtSeconds: number
    }) => Effect.Effect<{ readonly signedPartialTransaction: string; readonly subintentHash: string }, SwapWalletError>
    /** Withdraws the transaction or pre-authorisation request that is waiting in the wallet. */
    readonly cancel: Effect.Effect<CancelOutcome>
  }
>() {
  /** Through the toolkit: version 1, the message, then the toolkit's status poll until committed. */
  static readonly Live = Layer.effect(
    SwapWallet,
    Effect.map(WalletRequest, (wallet) => ({
      send: ({ manifest, message, onSubmitted }) =>
        wallet
          .sendTransaction({
            transactionManifest: manifest,
            version: 1,
            message,
            ...(onSubmitted === undefined ? {} : { onTransactionId: onSubmitted })
          })
          .pipe(
            Effect.flatMap((r) =>
              r.transactionIntentHash === ""
                ? Effect.fail(new SwapWalletError({ reason: "the wallet answered without a transaction hash" }))
                : Effect.succeed({ transactionIntentHash: r.transactionIntentHash })
            ),
            Effect.mapError((e) => {
              if (e instanceof SwapWalletError) return e
              const reason = describe(e)
              return new SwapWalletError({ reason, kind: kindOf(reason) })
            })
          ),
      preAuthorize: ({ manifest, message, expiresAtSeconds }) =>
        wallet
          .sendPreAuthorizationRequest(
            SubintentRequestBuilder.manifest(manifest)
              .setExpiration("atTime", expiresAtSeconds)
              .message(message)
              .build()
          )
          .pipe(
            Effect.flatMap((r) =>
              r.signedPartialTransaction === "" || r.subintentHash === ""
                ? Effect.fail(new SwapWalletError({ reason: "the wallet answered without a signed pre-authorisation" }))
                : Effect.succeed({
                    signedPartialTransaction: r.signedPartialTransaction,
                    subintentHash: r.subintentHash
                  })
            ),
            Effect.mapError((e) => {
              if (e instanceof SwapWalletError) return e
              const reason = describe(e)
              const code =
                typeof e === "object" && e !== null && "error" in e && typeof e.error === "string" ? e.error : ""
              return new SwapWalletError({
                reason: code === "" ? reason : `${reason}: ${code}`,
                kind: preAuthKindOf(reason, code)
              })
            })
          ),
      cancel: Effect.gen(function* () {
        // The newest transaction or pre-authorisation request still waiting for the wallet's answer.
        const items = yield* wallet.getRequestItems
        const waiting = items
          .filter(
            (i) => (i.type === "sendTransaction" || i.type === "preAuthorizationRequest") && i.status === "pending"
          )
          .sort((a, b) => b.createdAt - a.createdAt)[0]
        if (waiting === undefined) return "nothing_to_cancel" as const
        if (!waiting.showCancel) {
          // The wallet already shows the transaction: it can only be asked to drop it.
          yield* wallet.ignoreTransaction(waiting.interactionId)
          return "ignored" as const
        }
        const answer = yield* wallet.cancelRequest(waiting.interactionId)
        return answer === "requestCancelSuccess" ? ("canceled" as const) : ("unconfirmed" as const)
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logWarning("cancelling the wallet request failed", cause), "unconfirmed" as const)
        )
      )
    }))
  )
}

const describe = (e: unknown): string =>
  typeof e === "object" && e !== null && "_tag" in e && typeof e._tag === "string" ? e._tag : String(e)

/** Confetti (2 s) and a sound after a successful swap. Loaded on first use: most visits never need it. */
export class Celebration extends Context.Tag("hswap/Celebration")<
  Celebration,
  { readonly celebrate: Effect.Effect<void> }
>() {
  static readonly Live = Layer.succeed(Celebration, {
    celebrate: Effect.tryPromise(() => import("./celebrate").then((m) => m.celebrate())).pipe(
      Effect.catchAll((e) => Effect.logWarning("celebration failed", e))
    )
  })
}
