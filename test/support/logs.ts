/**
 * Test logging: Effect's logger routed into an array, so that a test asserts on the warnings it provokes and `npm test`
 * prints only what nobody expected. Shared by the app harness and the devnet and exchange suites.
 */
import { Cause, Logger, LogLevel } from "effect"

/** One line the app logged through Effect's logger: its level ("WARN", "ERROR", …) and its message. */
export interface LogLine {
  readonly level: string
  /** The first message part as text; later parts (the failure it reports, usually) are in `details`. */
  readonly message: string
  readonly details: ReadonlyArray<unknown>
}

/**
 * The test logger: every line the code under test logs goes to `lines` instead of the console, so a test asserts on the warnings
 * it provokes (a failing request, corrupt storage) and the test output stays free of them. Lines at ERROR and above
 * still go to the console too: nothing a test provokes should log an error unnoticed.
 */
export const captureLogs = (lines: Array<LogLine>) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message, cause }) => {
      const parts = Array.isArray(message) ? (message as ReadonlyArray<unknown>) : [message]
      const [first, ...details] = parts
      const line: LogLine = {
        level: logLevel.label,
        message: typeof first === "string" ? first : String(first),
        details: Cause.isEmpty(cause) ? details : [...details, Cause.pretty(cause)]
      }
      lines.push(line)
      if (LogLevel.greaterThanEqual(logLevel, LogLevel.Error))
        console.error(`[${line.level}] ${line.message}`, ...line.details)
    })
  )

/** The messages logged at `level` (e.g. "WARN"), in order. */
export const messagesAt = (lines: ReadonlyArray<LogLine>, level: string) =>
  lines.filter((l) => l.level === level).map((l) => l.message)
