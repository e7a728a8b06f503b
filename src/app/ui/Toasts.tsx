import * as RadixToast from "@radix-ui/react-toast"
import { Effect, Stream } from "effect"
import { useEffect, useState } from "react"
import { Toaster, type Toast, type ToastAction } from "../services/Toaster"
import { useFork, useStream } from "../runtime/app-runtime"
import { escapeHtml } from "./escape"
import { isBareMarkup } from "./markup"

type Sanitizer = (html: string) => string
// DOMPurify is loaded with the first toast whose description has more than bare allowlisted tags, not with the page.
let sanitizer: Sanitizer | undefined
let loading: Promise<Sanitizer> | undefined
/** Loads DOMPurify once; a failed load is forgotten, so the next toast that needs it fetches it again. */
const loadSanitizer = () =>
  (loading ??= import("./sanitize").then(
    (m) => (sanitizer = m.sanitizeHtml),
    (error: unknown) => {
      loading = undefined
      throw error
    }
  ))

/**
 * The description as sanitised HTML; nothing is rendered until the sanitiser is there. Plain text and bare allowlisted
 * tags (see {@link isBareMarkup}) are rendered as they are, without the sanitiser. If the sanitiser cannot be loaded,
 * the description is shown as plain text (its markup escaped), so the message is not lost.
 */
function Description({ html }: { readonly html: string }) {
  const bare = isBareMarkup(html)
  const [clean, setClean] = useState<Sanitizer | undefined>(() => sanitizer)
  useEffect(() => {
    if (bare || clean !== undefined) return
    let live = true
    loadSanitizer().then(
      (s) => live && setClean(() => s),
      (e: unknown) => {
        console.error("could not load the toast sanitiser; showing the description as text", e)
        if (live) setClean(() => escapeHtml)
      }
    )
    return () => {
      live = false
    }
  }, [bare, clean])
  return (
    <RadixToast.Description
      className="col-start-1 text-sm text-muted [&_a]:text-accent [&_a]:underline"
      dangerouslySetInnerHTML={{ __html: bare ? html : clean === undefined ? "" : clean(html) }}
    />
  )
}

const toastsStream = Stream.unwrap(Effect.map(Toaster, (t) => t.toasts))
const noToasts: ReadonlyArray<Toast> = []

const variantClass: Record<Toast["variant"], string> = {
  default: "border-line bg-panel-2 text-ink",
  destructive: "border-danger/60 bg-[#3a1420] text-ink",
  welcome: "border-accent/60 bg-gradient-to-br from-panel-2 to-[#0f2e2b] text-ink"
}

/** Toast swipe (spec toolkit §9): right, 50 px; the viewport hotkey is F8. Durations are the Toaster service's. */
export const SWIPE_THRESHOLD = 50
export const VIEWPORT_HOTKEY = ["F8"]

function ActionButton({ action }: { readonly action: ToastAction | undefined }) {
  if (action === undefined) return null
  if (action.altText.trim() === "") {
    console.error("Toast action: `altText` must be a non-empty string; the action is not rendered.")
    return null
  }
  return (
    <RadixToast.Action
      altText={action.altText}
      onClick={action.onAction}
      className="rounded-md border border-line px-3 py-1 text-sm font-medium hover:bg-panel focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      {action.label}
    </RadixToast.Action>
  )
}

/** Renders the Toaster service's queue with Radix Toast primitives. Mounted once, in the app shell. */
export function Toasts() {
  // A toast (Radix's presence, portal and swipe handlers) renders in slices: it appears on its own, at 4 s for the
  // welcome toast, and would otherwise be one long task while the page may be in use.
  const toasts = useStream(toastsStream, noToasts, { transition: true })
  const fork = useFork()
  return (
    <RadixToast.Provider swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD} duration={Infinity}>
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          // The Toaster service owns the timer; Radix only reports pause/resume and dismissal.
          duration={Infinity}
          type={t.variant === "destructive" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) fork(Effect.flatMap(Toaster, (s) => s.dismiss(t.id)))
          }}
          onPause={() => fork(Effect.flatMap(Toaster, (s) => s.pause(t.id)))}
          onResume={() => fork(Effect.flatMap(Toaster, (s) => s.resume(t.id)))}
          data-variant={t.variant}
          data-testid="toast"
          className={`group pointer-events-auto relative grid w-full grid-cols-[1fr_auto] items-start gap-x-3 gap-y-1 rounded-xl border p-4 pr-9 shadow-2xl data-[state=closed]:animate-toast-out data-[state=open]:animate-toast-in ${variantClass[t.variant]}`}
        >
          <RadixToast.Title className="text-sm font-semibold">{t.title}</RadixToast.Title>
          {t.description !== undefined && <Description html={t.description} />}
          <div className="col-start-2 row-span-2 row-start-1 self-center">
            <ActionButton action={t.action} />
          </div>
          <RadixToast.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded p-1 text-muted hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            <span aria-hidden>×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport
        hotkey={VIEWPORT_HOTKEY}
        className="fixed bottom-0 right-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none"
      />
    </RadixToast.Provider>
  )
}
