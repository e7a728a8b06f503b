/**
 * Whether a failure of the store says that the database cannot be reached just now (so the request may be made again
 * shortly, and the API answers 503), rather than that a statement or a record is wrong (a 500 worth a look). The
 * repositories turn every `SqlError` into a defect; the API reads it back from the request's cause.
 */
import { Cause, Option, Predicate } from "effect"

/**
 * PostgreSQL's codes for a server that cannot serve now: a connection exception (class 08), too many connections,
 * a shutdown or start-up, a database that is not there (dropped or not yet made), and SQLite's busy or locked file.
 */
const UNREACHABLE_CODES = /^(08[0-9A-Z]{3}|53300|57P0[1-4]|3D000|SQLITE_BUSY|SQLITE_LOCKED|SQLITE_CANTOPEN)$/

/** Node's socket errors and pg's own words for a connection lost or not made in time. */
const UNREACHABLE_ERRNO = /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)$/
const UNREACHABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i

const codeOf = (error: unknown): string | undefined =>
  Predicate.hasProperty(error, "code") && typeof error.code === "string" ? error.code : undefined

const messageOf = (error: unknown): string =>
  Predicate.hasProperty(error, "message") && typeof error.message === "string" ? error.message : ""

/** A connection that could not be had, or a statement refused for a reason that is the server's state, not ours. */
export const isUnreachable = (defect: unknown): boolean => {
  if (!Predicate.isTagged(defect, "SqlError")) return false
  const said = messageOf(defect)
  if (said === "Failed to acquire connection" || said === "Connection error") return true
  const cause = Predicate.hasProperty(defect, "cause") ? defect.cause : undefined
  const code = codeOf(cause)
  if (code !== undefined && (UNREACHABLE_CODES.test(code) || UNREACHABLE_ERRNO.test(code))) return true
  return UNREACHABLE_TEXT.test(messageOf(cause))
}

/** Whether `cause` failed (or died) because the database could not be reached. */
export const unreachableDatabase = (cause: Cause.Cause<unknown>): boolean =>
  Cause.reduce(cause, false, (found, part) =>
    found
      ? Option.none()
      : part._tag === "Die"
        ? Option.some(isUnreachable(part.defect))
        : part._tag === "Fail"
          ? Option.some(isUnreachable(part.error))
          : Option.none()
  )
