// Stack floor, step 2: React + Effect's runtime (a service, a layer, a ManagedRuntime, a fiber that sleeps).
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { createRoot } from "react-dom/client"

class Service extends Context.Tag("floor/Service")<Service, { readonly n: number }>() {}
const runtime = ManagedRuntime.make(Layer.succeed(Service, { n: 1 }))
runtime.runFork(
  Effect.gen(function* () {
    const s = yield* Service
    yield* Effect.sleep("10 millis")
    yield* Effect.log(s.n)
  })
)
createRoot(document.body).render(<p>hello</p>)
