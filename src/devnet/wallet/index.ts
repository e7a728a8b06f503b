/**
 * The devnet wallet emulator, ready to mount next to the gateway emulator in `src/devnet/main.ts`:
 *
 *   const wallet = await startDevnetWallet({ gateway })
 *   // mounts: wallet.mounts (the relay at /relay and everything under /devnet)
 *   // static site: transformIndex: wallet.transformIndex
 *   // on close: await wallet.close() before gateway.dispose()
 *
 * The injected script is same-origin, so the app's CSP (`script-src 'self'`, `connect-src 'self'`) needs nothing
 * more; the panel's styles are a constructed stylesheet in a shadow root, which no `style-src` rule governs.
 */
import { Effect } from "effect"
import type { DevnetGateway } from "../gateway/node"
import { makeDashboard } from "../dashboard/dashboard"
import { Ledger } from "../ledger/Ledger"
import { type DevnetRelay, type Mount, RelayEmulator, startDevnetRelay } from "../relay/index"
import { WALLET_SCRIPT_PATH } from "./api"
import { bundleWalletScript } from "./bundle"
import { devnetNodeHandler } from "./http"
import { mobileWalletSecret } from "./mobile"
import { makeWalletEmulator } from "./WalletEmulator"

export * from "./api"
export { answerDeepLink, DeepLinkRefused, mobileWalletSecret } from "./mobile"
export type { MobileAnswer } from "./mobile"
export { makeWalletEmulator, PERSONA_LABEL, personaName, rolaMessageHash, WalletFailure } from "./WalletEmulator"
export type { WalletAccount, WalletEmulatorApi } from "./WalletEmulator"
export { bundleWalletScript } from "./bundle"
export { devnetNodeHandler, MAX_WALLET_BODY_BYTES } from "./http"
export type { Mount } from "../relay/index"

export const DEVNET_PREFIX = "/devnet"

const SCRIPT_TAG = `<script defer src="${WALLET_SCRIPT_PATH}"></script>`

/**
 * Adds the wallet script to the app's index.html as the first thing in `<head>`, a deferred classic script. It runs
 * once the markup is parsed, ahead of every module script of the page (deferred and module scripts run in document
 * order), so it listens before the app's entry runs, as the extension's content script does. Deferred, not blocking:
 * a blocking script in the head held the first paint of `npm start`'s `/` back until its request and its evaluation
 * (about 230 ms of the page's thread at 4× CPU slowdown) were done, which the production build never pays.
 */
export const injectWalletScript = (html: string): string => {
  if (html.includes(SCRIPT_TAG)) return html
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head === null) return `${SCRIPT_TAG}\n${html}`
  const at = head.index + head[0].length
  return `${html.slice(0, at)}\n    ${SCRIPT_TAG}${html.slice(at)}`
}

export interface DevnetWallet {
  /** The relay at `/relay` and the wallet, mobile wallet and dashboard under `/devnet`. */
  readonly mounts: ReadonlyArray<Mount>
  /** For the static site: injects `/devnet/wallet.js`. */
  readonly transformIndex: (html: string) => string
  readonly relay: DevnetRelay
  /** Stops the relay (when this call started it). The gateway's ledger stays open. */
  readonly close: () => Promise<void>
}

export interface DevnetWalletOptions {
  /** The running gateway emulator; the wallet signs and submits on its ledger. */
  readonly gateway: Pick<DevnetGateway, "runtime">
  /** A relay to post mobile answers to; by default the wallet starts its own and mounts it. */
  readonly relay?: DevnetRelay
}

export const startDevnetWallet = async (options: DevnetWalletOptions): Promise<DevnetWallet> => {
  const { runtime } = options.gateway
  const script = bundleWalletScript()
  const relay = options.relay ?? startDevnetRelay()
  try {
    const { wallet, dashboard, seed } = await runtime.runPromise(
      Effect.all({
        wallet: makeWalletEmulator,
        dashboard: makeDashboard,
        seed: Effect.map(Ledger, (l) => l.genesis.seed)
      })
    )
    await script
    const handle = devnetNodeHandler({
      wallet,
      dashboard,
      run: (effect) => runtime.runPromise(effect),
      script: () => script,
      mobileSecret: mobileWalletSecret(seed),
      relay: (entry) => relay.run(Effect.flatMap(RelayEmulator, (r) => r.sendResponse(entry)))
    })
    return {
      mounts: [relay.mount, { prefix: DEVNET_PREFIX, handle }],
      transformIndex: injectWalletScript,
      relay,
      close: async () => {
        if (options.relay === undefined) await relay.dispose()
      }
    }
  } catch (e) {
    if (options.relay === undefined) await relay.dispose()
    throw e
  }
}
