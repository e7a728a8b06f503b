/** A stage of the live chunk (see runtime/inStages.ts): Stream, PubSub, Schedule, SubscriptionRef. */
// By path, as in data.ts.
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"

export const stage = [Stream.empty, Schedule.spaced, SubscriptionRef.make] as const
