// Stack floor, step 3: step 2 + decoding with Schema.
import { Context, Effect, Layer, ManagedRuntime, Schema } from "effect"
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
    yield* Effect.sleep("10 millis")
    yield* Effect.log(s.n, body)
  })
)
createRoot(document.body).render(<p>hello</p>)
