/**
 * The toolkit's errors that its always-loaded parts raise (the lazy front, toolkit/lazy.ts, and the Gateway adapter,
 * toolkit/gateway.ts), apart from the rest of the catalogue (errors.ts, which re-exports them) so that a first visit's
 * start-up does not build every error class. Same rules as errors.ts: `_tag` is the spec's code.
 */
import { Schema } from "effect"

/** The fields every toolkit error has: its request's `interactionId` ("" when none) and the spec's message. */
export const errorFields = (defaultMessage: string) => ({
  interactionId: Schema.optionalWith(Schema.String, { default: () => "" }),
  message: Schema.optionalWith(Schema.String, { default: () => defaultMessage })
})

/** The same, with the underlying cause. */
export const errorFieldsWithCause = (defaultMessage: string) => ({
  ...errorFields(defaultMessage),
  cause: Schema.optional(Schema.Defect)
})

export class FailedToSendDappRequest extends Schema.TaggedError<FailedToSendDappRequest>()(
  "FailedToSendDappRequest",
  errorFieldsWithCause("failed to send the dApp request")
) {}
export class FailedToPoll extends Schema.TaggedError<FailedToPoll>()(
  "failedToPoll",
  errorFieldsWithCause("failed to poll")
) {}
export class FailedToFetch extends Schema.TaggedError<FailedToFetch>()(
  "FailedToFetch",
  errorFieldsWithCause("failed to fetch")
) {}
export class FailedToParseResponseToJson extends Schema.TaggedError<FailedToParseResponseToJson>()(
  "FailedToParseResponseToJson",
  errorFieldsWithCause("failed to parse the response as JSON")
) {}
export class RequestStatusNotOk extends Schema.TaggedError<RequestStatusNotOk>()("RequestStatusNotOk", {
  ...errorFields("the request status is not ok"),
  status: Schema.Number
}) {}
