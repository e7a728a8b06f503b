/**
 * The exchange server on the devnet: options for `startExchangeServer` with the genesis exchange account and its
 * key, and an in-process HttpClient that serves the Gateway client from the devnet's gateway emulator (no loopback
 * HTTP, no port to know in advance). Devnet only: this module reads the devnet genesis keys.
 *
 *   const gateway = await startDevnetGateway({ dataDir, reset })
 *   const exchange = await startExchangeServer(devnetExchangeServerOptions(dataDir, gateway, { reset }))
 *   // mounts: [gateway.mount, exchange.mount]; on stop: await exchange.close(); await gateway.dispose()
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { type ExchangeServerOptions, devnetTokens } from "../server/index"
import { emulatorHttpClient } from "./gateway/httpClient"
import type { DevnetGateway } from "./gateway/node"
import { DEFAULT_DEVNET_SEED, keyHex, makeGenesis } from "./ledger/genesis"

export const DEVNET_EXCHANGE_DB_FILE = "exchange.sqlite"

export interface DevnetExchangeOptions {
  /** Start with an empty database (do this whenever the ledger is reset). */
  readonly reset?: boolean
  readonly seed?: string
}

/**
 * Options for the devnet exchange server: network 240, the genesis exchange account and its private key, the
 * database in `dataDir/exchange.sqlite` (in memory when `dataDir` is undefined), the gateway served in process by
 * `gateway` (or reached at a URL), the devnet tokens with their genesis icons, and atomic swaps offered (the devnet
 * ledger executes V2 transactions and its wallet signs pre-authorisations). Override any field by spreading.
 */
export const devnetExchangeServerOptions = (
  dataDir: string | undefined,
  gateway: Pick<DevnetGateway, "emulator" | "runtime"> | { readonly url: string },
  options: DevnetExchangeOptions = {}
): ExchangeServerOptions => {
  const genesis = makeGenesis(options.seed ?? DEFAULT_DEVNET_SEED)
  const databasePath = dataDir === undefined ? ":memory:" : path.join(dataDir, DEVNET_EXCHANGE_DB_FILE)
  if (options.reset === true && dataDir !== undefined) {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(`${databasePath}${suffix}`, { force: true })
  }
  const icons = new Map(genesis.resources.map((r) => [r.symbol as string, r.iconUrl]))
  return {
    networkId: 240,
    ...("url" in gateway
      ? { gatewayUrl: gateway.url }
      : { gatewayUrl: "http://devnet.invalid/gateway", gatewayHttpClient: emulatorHttpClient(gateway.emulator) }),
    exchangeAccount: genesis.exchange.address,
    privateKeyHex: keyHex(genesis.exchange.key).privateKeyHex,
    databasePath,
    tokens: devnetTokens.map((t) => ({ ...t, logoUrl: icons.get(t.symbol) ?? "" })),
    atomic: true
  }
}
