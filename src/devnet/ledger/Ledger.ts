/**
 * The devnet ledger: a local Radix ledger for network 240 that accepts real notarized transactions.
 *
 * This module is the service's tag and its layers; the interface is `LedgerService` (`types.ts`) and the
 * implementation (`live.ts`: storage in `store.ts`, formats in `formats.ts`, the Gateway's payload tracking in
 * `submission.ts`) is loaded when a layer is built. State (vault balances with history, resources, metadata,
 * committed transactions) lives in SQLite; submissions are validated by their format, executed, and applied
 * atomically in one SQL transaction. Epoch and round follow the Clock.
 */
import type { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { LEDGER_DEFAULTS, LEDGER_FILE, LedgerConfig, type LedgerOptions, type LedgerService } from "./types"

export { TransactionRejected } from "./transaction"
export * from "./types"

const make: Effect.Effect<LedgerService, never, SqlClient.SqlClient | LedgerConfig> = Effect.flatMap(
  Effect.promise(() => import("./live")),
  (live) => live.makeLedger
)

export class Ledger extends Effect.Service<Ledger>()("devnet/Ledger", { effect: make }) {
  /**
   * The ledger over SQLite: `dataDir/ledger.sqlite`, or in memory when `dataDir` is undefined. `reset` deletes
   * the stored ledger first.
   */
  static readonly layer = (options: Partial<LedgerOptions> = {}): Layer.Layer<Ledger> => {
    const resolved: LedgerOptions = { ...LEDGER_DEFAULTS, ...options }
    const sqlite = Layer.unwrapEffect(
      Effect.sync(() => {
        if (resolved.dataDir === undefined) return SqliteClient.layer({ filename: ":memory:" })
        fs.mkdirSync(resolved.dataDir, { recursive: true })
        const file = path.join(resolved.dataDir, LEDGER_FILE)
        if (resolved.reset) {
          for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(`${file}${suffix}`, { force: true })
        }
        return SqliteClient.layer({ filename: file })
      })
    ).pipe(Layer.orDie)
    return Ledger.Default.pipe(Layer.provide(sqlite), Layer.provide(Layer.succeed(LedgerConfig, resolved)))
  }

  /** An in-memory ledger (tests). */
  static readonly memory = (options: Partial<Omit<LedgerOptions, "dataDir">> = {}): Layer.Layer<Ledger> =>
    Ledger.layer({ ...options, dataDir: undefined })
}
