// Stage 3 of the live half (see shell/islands.tsx): streams and their queues.
import { PubSub, Stream, SubscriptionRef } from "effect"

export const stage = [PubSub.unbounded, Stream.unwrap, SubscriptionRef.make] as const
