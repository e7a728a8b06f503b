/**
 * `npm start` (src/devnet/main.ts: the same command line, environment and launch) for the stop tests, with what only
 * a test sets: the swaps in PostgreSQL (`HSWAP_DATABASE_URL`), the claim lease (`HSWAP_CLAIM_LEASE_SECONDS`) and the
 * fault points to pause a settlement at (`HSWAP_TEST_FAULT_PAUSE_AT`, comma-separated: claimed, stored, submitted).
 *
 *   node --import tsx test/devnet/stack-replica.ts --port 0 --dist DIR --data-dir DIR [--reset]
 */
import { Layer } from "effect"
import { devnetFromEnv } from "../../src/devnet/main"
import { FAULT_POINTS, type FaultPoint } from "../../src/server/index"
import { launch } from "../../src/server/main"
import { pauseAtFaults } from "../server/faults"

const env = (name: string): string | undefined => {
  const value = process.env[name]
  return value === undefined || value === "" ? undefined : value
}

const points = (env("HSWAP_TEST_FAULT_PAUSE_AT") ?? "")
  .split(",")
  .map((f) => f.trim())
  .filter((f) => f !== "")
  .map((f): FaultPoint => {
    const point = FAULT_POINTS.find((p) => p === f)
    if (point === undefined) {
      throw new Error(
        `HSWAP_TEST_FAULT_PAUSE_AT lists ${JSON.stringify(f)}: each must be one of ${FAULT_POINTS.join(", ")}`
      )
    }
    return point
  })
const databaseUrl = env("HSWAP_DATABASE_URL")
const lease = env("HSWAP_CLAIM_LEASE_SECONDS")

launch(
  Layer.unwrapEffect(
    devnetFromEnv({
      ...(databaseUrl === undefined ? {} : { databaseUrl }),
      ...(lease === undefined ? {} : { claimLeaseMs: Number(lease) * 1000 }),
      ...(points.length === 0 ? {} : { faults: pauseAtFaults(points) })
    })
  )
)
