// The Effect features of floor step 5 (runtime, Schema, SubscriptionRef, PubSub, Stream, Schedule, HttpClient), used
// by steps 5 to 7. The bundler inlines it into each step, so every step's build still stands alone.
import { FetchHttpClient, HttpClient, HttpClientResponse } from "@effect/platform"
import { Context, Effect, Layer, ManagedRuntime, PubSub, Schedule, Schema, Stream, SubscriptionRef } from "effect"

class Service extends Context.Tag("floor/Service")<Service, { readonly n: number }>() {}
const Body = Schema.Struct({
  a: Schema.String,
  b: Schema.Array(Schema.Number),
  c: Schema.optional(Schema.Literal("x", "y"))
})

export const startEffectStack = () => {
  const runtime = ManagedRuntime.make(Layer.merge(Layer.succeed(Service, { n: 1 }), FetchHttpClient.layer))
  runtime.runFork(
    Effect.gen(function* () {
      const s = yield* Service
      const http = yield* HttpClient.HttpClient
      const body = yield* http.get("/body").pipe(Effect.flatMap(HttpClientResponse.schemaBodyJson(Body)))
      const ref = yield* SubscriptionRef.make(0)
      const hub = yield* PubSub.unbounded<number>()
      yield* Stream.merge(ref.changes, Stream.fromPubSub(hub)).pipe(
        Stream.flatMap((n) => Stream.make(n), { switch: true }),
        Stream.runForEach((n) => Effect.log(n)),
        Effect.fork
      )
      yield* Effect.repeat(Effect.log("tick"), Schedule.spaced("1 second")).pipe(Effect.fork)
      yield* Effect.log(s.n, body)
    })
  )
}
