/**
 * The WalletRequest service's tag, apart from its implementation (`walletRequest.ts`). Code that only asks for the
 * service (an app's wallet button, its swap machine) imports this module and does not bundle the request machinery,
 * the transports and their Schemas; `WalletRequest.Default` loads the implementation when it is built, and the lazy
 * toolkit (`lazy.ts`) only when the wallet is first used.
 */
import { Context, Effect, Layer } from "effect"
import type { ToolkitConfig } from "./config"
import type { Crypto } from "./crypto"
import type { Environment } from "./environment"
import type { Extension } from "./extension"
import type { ToolkitGateway } from "./gateway"
import type { Relay } from "./relay"
import type { Storage } from "./storage"
import type { WalletRequestApi } from "./walletRequestApi"

export type {
  ButtonStatus,
  DataRequestFailure,
  PreAuthorizationResult,
  RequestFailure,
  SendTransactionInput,
  SendTransactionResult,
  WalletRequestApi
} from "./walletRequestApi"

/** What the WalletRequest implementation is built from. */
export type WalletRequestDependencies =
  ToolkitConfig | Storage | Crypto | Environment | Extension | Relay | ToolkitGateway

/**
 * WalletRequest: data, login and proof requests, transactions and pre-authorisations; request items and their
 * statuses; the wallet data and shared data; the button status.
 */
export class WalletRequest extends Context.Tag("hswap/toolkit/WalletRequest")<WalletRequest, WalletRequestApi>() {
  /** The service over its dependencies; the implementation module is loaded when the layer is built. */
  static readonly Default: Layer.Layer<WalletRequest, never, WalletRequestDependencies> = Layer.scoped(
    WalletRequest,
    Effect.flatMap(
      Effect.promise(() => import("./walletRequest")),
      (implementation) => implementation.makeWalletRequest
    )
  )
}
