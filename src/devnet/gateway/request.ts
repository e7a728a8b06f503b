/**
 * Request decoding shared by the API groups: the Gateway's mixins (`at_ledger_state`, cursor paging), the body
 * decoder that answers `InvalidRequestError` with one validation error per issue, and the opaque cursors.
 */
import { Effect, ParseResult, Schema } from "effect"
import { type GatewayFailure, invalidField, invalidRequest } from "./failure"

export const opt = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { nullable: true })

export const LedgerStateSelector = Schema.Struct({
  state_version: opt(Schema.Int),
  timestamp: opt(Schema.String),
  epoch: opt(Schema.Int),
  round: opt(Schema.Int)
})
export type LedgerStateSelector = typeof LedgerStateSelector.Type

/** The Gateway's `int` (32 bits): a larger number does not bind, and is a validation error. */
export const Int32 = Schema.Int.pipe(Schema.between(-2_147_483_648, 2_147_483_647))

export const Paging = {
  at_ledger_state: opt(LedgerStateSelector),
  cursor: opt(Schema.String),
  limit_per_page: opt(Int32)
}

export const Address = Schema.String
export const AggregationLevel = Schema.Literal("Global", "Vault")

/** At most this many validation errors in one answer: a body of a million bad items gets a short answer. */
export const MAX_VALIDATION_ERRORS = 20
/** A validation error's message is cut to this many characters: the real Gateway never echoes a value back. */
export const MAX_VALIDATION_MESSAGE = 200

/** The issue tree cut to its first `budget.left` leaves, so that formatting it costs no more than they do. */
const firstLeaves = (issue: ParseResult.ParseIssue, budget: { left: number }): ParseResult.ParseIssue | undefined => {
  if (budget.left <= 0) return undefined
  switch (issue._tag) {
    case "Pointer": {
      const inner = firstLeaves(issue.issue, budget)
      return inner === undefined ? undefined : new ParseResult.Pointer(issue.path, issue.actual, inner)
    }
    case "Refinement": {
      const inner = firstLeaves(issue.issue, budget)
      return inner === undefined ? undefined : new ParseResult.Refinement(issue.ast, issue.actual, issue.kind, inner)
    }
    case "Transformation": {
      const inner = firstLeaves(issue.issue, budget)
      return inner === undefined
        ? undefined
        : new ParseResult.Transformation(issue.ast, issue.actual, issue.kind, inner)
    }
    case "Composite": {
      const kept: Array<ParseResult.ParseIssue> = []
      for (const child of Array.isArray(issue.issues) ? issue.issues : [issue.issues]) {
        const cut = firstLeaves(child, budget)
        if (cut === undefined) break
        kept.push(cut)
      }
      const [first, ...rest] = kept
      return first === undefined ? undefined : new ParseResult.Composite(issue.ast, issue.actual, [first, ...rest])
    }
    default:
      budget.left -= 1
      return issue
  }
}

const cutMessage = (message: string): string =>
  message.length <= MAX_VALIDATION_MESSAGE ? message : `${message.slice(0, MAX_VALIDATION_MESSAGE - 1)}…`

/**
 * One validation error per issue, for at most `MAX_VALIDATION_ERRORS` issues, each message at most
 * `MAX_VALIDATION_MESSAGE` characters. A value too deep to be printed (thousands of nested arrays) gets the one
 * error at the body's root rather than a 500.
 */
const validationErrors = (error: ParseResult.ParseError): Array<{ path: string; errors: Array<string> }> => {
  const issue = firstLeaves(error.issue, { left: MAX_VALIDATION_ERRORS }) ?? error.issue
  try {
    return ParseResult.ArrayFormatter.formatIssueSync(issue).map((i) => ({
      path: i.path.length === 0 ? "$" : i.path.map(String).join("."),
      errors: [cutMessage(i.message)]
    }))
  } catch {
    return [{ path: "$", errors: ["The request body is not of the expected shape (nested too deeply to describe)"] }]
  }
}

export const decodeBody = <A, I>(schema: Schema.Schema<A, I>, body: unknown): Effect.Effect<A, GatewayFailure> =>
  Schema.decodeUnknown(schema, { errors: "all" })(body ?? {}).pipe(
    Effect.mapError((e) => invalidRequest(validationErrors(e)))
  )

// ---------------------------------------------------------------------------------------------------------------
// Cursors: opaque base64 JSON, as the real Gateway's `{"o":100}`

export const OffsetCursor = Schema.parseJson(Schema.Struct({ o: Schema.NonNegativeInt }))
export const StreamCursor = Schema.parseJson(Schema.Struct({ v: Schema.NonNegativeInt }))

export const encodeCursor = (value: object): string => Buffer.from(JSON.stringify(value), "utf8").toString("base64")

export const decodeCursor = <A>(schema: Schema.Schema<A, string>, cursor: string): Effect.Effect<A, GatewayFailure> =>
  Schema.decodeUnknown(schema)(Buffer.from(cursor, "base64").toString("utf8")).pipe(
    Effect.mapError(() => invalidField("cursor", "Invalid cursor"))
  )
