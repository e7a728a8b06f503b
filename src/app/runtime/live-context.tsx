/**
 * The app's live half (the decoded configuration and the Effect runtime with every service) loads in its own chunk
 * after the shell has painted (src/app/live.tsx). This module is the shell's view of it and must stay free of runtime
 * imports (`effect`, the toolkit, the gateway): everything here is in the initial bundle. Types only cross over.
 *
 * A `LiveResource` is settled once. The shell's islands and content area render through `LiveOnly`: a placeholder
 * until it settles, the live component once it is ready, and a clear message when the build is misconfigured or the
 * chunk cannot be loaded. Components below read the configuration and runtime through `useLive()`.
 *
 * Hydration: the build writes `/` into index.html as it renders with the live half ready (the page in its initial
 * state) but every island still pending (see shell/prerender.tsx), and main.tsx hydrates it only once the boot is
 * ready. So while hydrating, an island's `LiveOnly` reads "not settled" (its placeholder, as in the markup) and the
 * content area's (`hydrate="settled"`) reads the boot as it is. The islands open in a transition after that commit
 * (see IslandsOpen), and React renders them with the boot in slices.
 */
import type { ManagedRuntime } from "effect"
import { createContext, type ReactNode, use, useCallback, useEffect, useSyncExternalStore } from "react"
import type { AppConfigShape } from "../config/AppConfig"
import type { AppServices } from "./services"

export interface Live {
  readonly config: AppConfigShape
  readonly runtime: ManagedRuntime.ManagedRuntime<AppServices, never>
}

export type Boot =
  | { readonly _tag: "Ready"; readonly live: Live }
  /** A `VITE_*` variable is invalid; the message names it. */
  | { readonly _tag: "Misconfigured"; readonly message: string }
  /** The live chunk could not be fetched or evaluated (offline, or a deploy replaced the files). */
  | { readonly _tag: "Unavailable"; readonly message: string }

export interface LiveResource {
  /** Set once the boot has settled; `promise` never rejects. */
  readonly current: () => Boot | undefined
  readonly promise: Promise<Boot>
  /** Starts loading (once; later calls do nothing). `LiveOnly` calls it after the shell's first commit. */
  readonly start: () => void
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * A resource over `load`, which runs on `start()`; a rejection becomes `Unavailable` instead of an unhandled error.
 * Loading after the shell's first commit keeps the live chunk's evaluation from delaying the first paint.
 */
export const makeLiveResource = (load: () => Promise<Boot>): LiveResource => {
  let settled: Boot | undefined
  let begin: () => void = () => undefined
  const started = new Promise<void>((resolve) => {
    begin = resolve
  })
  const promise = started
    .then(load)
    .catch((error: unknown): Boot => ({ _tag: "Unavailable", message: describe(error) }))
    .then((boot) => {
      settled = boot
      return boot
    })
  return { current: () => settled, promise, start: () => begin() }
}

/** An already settled resource (tests, and anything that builds its runtime up front). */
export const readyLiveResource = (live: Live): LiveResource => {
  const boot: Boot = { _tag: "Ready", live }
  return { current: () => boot, promise: Promise.resolve(boot), start: () => undefined }
}

const LiveContext = createContext<LiveResource | null>(null)

/**
 * Whether the islands may show the boot: false while the app hydrates markup in which they are placeholders, until
 * shell/mount.tsx (HydrateSoon) opens them in a transition after that commit. Reading the boot straight away instead
 * made the islands' `useSyncExternalStore` see a snapshot other than the server's once hydrated, which React answers
 * with a synchronous re-render: one task of about 60 ms at 4× slowdown (bench:app --trace). A transition renders in
 * slices. Without a provider (any render that is not a hydration) they are open.
 */
export const IslandsOpen = createContext(true)

export function LiveProvider({
  resource,
  children
}: {
  readonly resource: LiveResource
  readonly children: ReactNode
}) {
  return <LiveContext value={resource}>{children}</LiveContext>
}

const useResource = (): LiveResource => {
  const resource = use(LiveContext)
  if (resource === null) throw new Error("no LiveProvider above this component")
  return resource
}

/**
 * The boot once settled, undefined before; re-renders when it settles. Never suspends. While hydrating it reads
 * `undefined` unless `hydrate` is "settled" (see the module's comment).
 */
export function useBoot(hydrate: "pending" | "settled" = "pending"): Boot | undefined {
  const resource = useResource()
  const subscribe = useCallback(
    (onSettled: () => void) => {
      let subscribed = true
      void resource.promise.then(() => {
        if (subscribed) onSettled()
      })
      return () => {
        subscribed = false
      }
    },
    [resource]
  )
  const islandsOpen = use(IslandsOpen)
  const current = hydrate === "settled" || islandsOpen ? resource.current : notSettled
  return useSyncExternalStore(subscribe, current, hydrate === "settled" ? resource.current : notSettled)
}

const notSettled = (): Boot | undefined => undefined

/**
 * The configuration and the runtime, for components rendered under `LiveOnly` (the shell's islands and content
 * area), which only renders its children once the boot is `Ready`.
 */
export function useLive(): Live {
  const boot = useResource().current()
  if (boot?._tag !== "Ready")
    throw new Error(`useLive: the app is not running (${boot === undefined ? "still loading" : boot.message})`)
  return boot.live
}

/**
 * `children` once the live half is ready; `pending` before; `whenDown` when the app cannot run (default: nothing).
 * `hydrate`: what it renders while hydrating, the placeholder ("pending", the islands) or by the boot ("settled", the
 * content area, prerendered with the live half ready).
 */
export function LiveOnly({
  children,
  pending = null,
  whenDown,
  hydrate = "pending"
}: {
  readonly children: ReactNode
  readonly pending?: ReactNode
  readonly whenDown?: (boot: Exclude<Boot, { _tag: "Ready" }>) => ReactNode
  readonly hydrate?: "pending" | "settled"
}) {
  const boot = useBoot(hydrate)
  const resource = useResource()
  // Whatever waits for the live half starts its load, after this commit (so after the shell has painted).
  useEffect(() => resource.start(), [resource])
  if (boot === undefined) return pending
  if (boot._tag === "Ready") return children
  return whenDown === undefined ? null : whenDown(boot)
}
