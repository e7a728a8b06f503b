// Stack floor, step 7: step 6 + the three Radix UI primitives the anchor uses too (dialog, toast, tooltip).
import { FetchHttpClient, HttpClient, HttpClientResponse } from "@effect/platform"
import * as Dialog from "@radix-ui/react-dialog"
import * as Toast from "@radix-ui/react-toast"
import * as Tooltip from "@radix-ui/react-tooltip"
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
function Page() {
  return (
    <Tooltip.Provider>
      <Toast.Provider>
        <Dialog.Root>
          <Dialog.Trigger>open</Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay />
            <Dialog.Content>
              <Dialog.Title>title</Dialog.Title>
              <Dialog.Description>description</Dialog.Description>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <Tooltip.Root>
          <Tooltip.Trigger>tip</Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content>text</Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
        <Toast.Root open>
          <Toast.Title>toast</Toast.Title>
        </Toast.Root>
        <Toast.Viewport />
      </Toast.Provider>
    </Tooltip.Provider>
  )
}
const root = createRootRoute({ component: () => <Outlet /> })
const index = createRoute({ getParentRoute: () => root, path: "/", component: Page })
const router = createRouter({ routeTree: root.addChildren([index]) })
createRoot(document.body).render(<RouterProvider router={router} />)
