/**
 * A replica for the multi-replica tests: `npm run server` (configured from the environment the same way) with the
 * test's fault points, listed in `HSWAP_TEST_FAULT_PAUSE_AT` (comma-separated: claimed, stored, submitted).
 *
 *   node --import tsx test/server/replica.ts
 */
import { FAULT_POINTS, type FaultPoint } from "../../src/server/index"
import { optionsFromEnv, serveStandalone } from "../../src/server/main"
import { pauseAtFaults } from "./faults"

const faultPoints = (raw: string): ReadonlyArray<FaultPoint> =>
  raw
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f !== "")
    .map((f) => {
      const point = FAULT_POINTS.find((p) => p === f)
      if (point === undefined) {
        throw new Error(
          `HSWAP_TEST_FAULT_PAUSE_AT lists ${JSON.stringify(f)}: each must be one of ${FAULT_POINTS.join(", ")}`
        )
      }
      return point
    })

const run = async () => {
  const options = await optionsFromEnv(process.env)
  const points = faultPoints(process.env["HSWAP_TEST_FAULT_PAUSE_AT"] ?? "")
  serveStandalone({ ...options, server: { ...options.server, faults: pauseAtFaults(points) } })
}

run().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`)
  process.exit(1)
})
