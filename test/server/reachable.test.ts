import { SqlError } from "@effect/sql/SqlError"
import { Cause, FiberId } from "effect"
import { describe, expect, it } from "vitest"
import { isUnreachable, unreachableDatabase } from "../../src/server/db/reachable"

const failed = (cause: unknown, message = "Failed to execute statement") => new SqlError({ cause, message })
const pgError = (code: string, message = "") => Object.assign(new Error(message), { code })

describe("a database that cannot be reached, told from a statement that is wrong", () => {
  it("reads PostgreSQL's codes, the socket's errors and pg's own words", () => {
    const unreachable = [
      failed(new Error("connect ECONNREFUSED"), "Failed to acquire connection"),
      failed(new Error("read ECONNRESET"), "Connection error"),
      failed(pgError("57P01", "terminating connection due to administrator command")),
      failed(pgError("3D000", 'database "x" does not exist')),
      failed(pgError("53300", "sorry, too many clients already")),
      failed(pgError("08006")),
      failed(pgError("ECONNREFUSED")),
      failed(new Error("Connection terminated unexpectedly")),
      failed(pgError("SQLITE_BUSY", "database is locked"))
    ]
    for (const e of unreachable) expect(isUnreachable(e), e.cause instanceof Error ? e.cause.message : "").toBe(true)
    const wrong = [
      failed(pgError("42P01", 'relation "swaps" does not exist')),
      failed(pgError("23505", "duplicate key value violates unique constraint")),
      failed(pgError("22P02", "invalid input syntax for type numeric")),
      failed(pgError("57014", "canceling statement due to user request")),
      new Error("Connection terminated unexpectedly"),
      { _tag: "SqlError" },
      undefined
    ]
    for (const e of wrong) expect(isUnreachable(e)).toBe(false)
  })

  it("finds it in a cause, as a defect or a failure, beside other parts", () => {
    const down = failed(pgError("57P03", "the database system is starting up"))
    expect(unreachableDatabase(Cause.die(down))).toBe(true)
    expect(unreachableDatabase(Cause.fail(down))).toBe(true)
    expect(unreachableDatabase(Cause.sequential(Cause.interrupt(FiberId.none), Cause.die(down)))).toBe(true)
    expect(unreachableDatabase(Cause.die(new Error("a bug")))).toBe(false)
    expect(unreachableDatabase(Cause.empty)).toBe(false)
  })
})
