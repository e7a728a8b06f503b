// Stack floor, step 4: step 3 + what the app's state is made of: SubscriptionRef, PubSub, Stream, Schedule.
import { Context, Effect, Layer, ManagedRuntime, PubSub, Schedule, Schema, Stream, SubscriptionRef } from "effect"
import { createRoot } from "react-dom/client"

class Service extends Context.Tag("floor/Service")<Service, { readonly n: number }>() {}
const Body = Schema.Struct({
  a: Schema.String,
  b: Schema.Array(Schema.Number),
  c: Schema.optional(Schema.Literal("x", "y"))
})
const runtime = ManagedRuntime.make(Layer.succeed(Service, { n: 1 }))
runtime.runFork(
  Effect.gen(function* () {
    const s = yield* Service
    const body = yield* Schema.decodeUnknown(Body)(JSON.parse(document.title))
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
createRoot(document.body).render(<p>hello</p>)
