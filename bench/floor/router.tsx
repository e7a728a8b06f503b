// Stack floor, step 6: step 5 + TanStack Router (a root and one route, rendered by RouterProvider).
import { FetchHttpClient, HttpClient, HttpClientResponse } from "@effect/platform"
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router"
import { Context, Effect, Layer, ManagedRuntime, PubSub, Schedule, Schema, Stream, SubscriptionRef } from "effect"
import { createRoot } from "react-dom/client"

class Service extends Context.Tag("floor/Service")<Service, { readonly n: number }>() {}
const Body = Schema.Struct({
  a: Schema.String,
  b: Schema.Array(Schema.Number),
  c: Schema.optional(Schema.Literal("x", "y"))
})
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
const root = createRootRoute({ component: () => <Outlet /> })
const index = createRoute({ getParentRoute: () => root, path: "/", component: () => <p>hello</p> })
const router = createRouter({ routeTree: root.addChildren([index]) })
createRoot(document.body).render(<RouterProvider router={router} />)
