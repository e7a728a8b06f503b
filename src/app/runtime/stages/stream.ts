/** A stage of the live chunk (see runtime/inStages.ts): Stream, PubSub, Schedule, SubscriptionRef. */
import { Schedule, Stream, SubscriptionRef } from "effect"

export const stage = [Stream.empty, Schedule.spaced, SubscriptionRef.make] as const
