import { Effect, Stream } from "effect"
import { useEffect, useMemo, useState } from "react"
import { loadOnce } from "../../lib/loadOnce"
import { Toaster, type Toast, type ToastAction } from "../services/Toaster"
import { useFork, useStream } from "../runtime/app-runtime"
import { escapeHtml } from "./escape"
import { isBareMarkup } from "./markup"
import { ANNOUNCE_LABEL, ToastRoot, ToastViewport } from "./toast"

type Sanitizer = (html: string) => string
// DOMPurify is loaded with the first toast whose description has more than bare allowlisted tags, not with the page.
// A failed load is forgotten, so the next toast that needs it fetches it again.
const sanitizer = loadOnce((): Promise<Sanitizer> => import("./sanitize").then((m) => m.sanitizeHtml))

/**
 * The description as sanitised HTML; nothing is rendered until the sanitiser is there. Plain text and bare allowlisted
 * tags (see {@link isBareMarkup}) are rendered as they are, without the sanitiser. If the sanitiser cannot be loaded,
 * the description is shown as plain text (its markup escaped), so the message is not lost.
 */
function Description({ html }: { readonly html: string }) {
  const bare = isBareMarkup(html)
  const [clean, setClean] = useState<Sanitizer | undefined>(() => sanitizer.current())
  useEffect(() => {
    if (bare || clean !== undefined) return
    let live = true
    sanitizer.load().then(
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
    <div
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

/** The text of a description's markup, for the announcement: parsed inert (nothing in it runs or loads). */
const textOf = (html: string): string =>
  typeof DOMParser === "undefined" ? html : (new DOMParser().parseFromString(html, "text/html").body.textContent ?? "")

/** What the live region says for the toast on screen: as Radix's, "Notification", then the toast's text. */
export const announcementOf = (toast: Toast | undefined): { text: string; assertive: boolean } =>
  toast === undefined
    ? { text: "", assertive: false }
    : {
        text: [ANNOUNCE_LABEL, toast.title, textOf(toast.description ?? ""), toast.action?.altText ?? ""]
          .map((part) => part.trim())
          .filter((part) => part !== "")
          .join(" "),
        assertive: toast.variant === "destructive"
      }

/** The toast's action; as Radix's, it also closes the toast. */
function ActionButton({ action, onClose }: { readonly action: ToastAction | undefined; readonly onClose: () => void }) {
  if (action === undefined) return null
  if (action.altText.trim() === "") {
    console.error("Toast action: `altText` must be a non-empty string; the action is not rendered.")
    return null
  }
  return (
    <button
      type="button"
      aria-description={action.altText}
      onClick={() => {
        action.onAction()
        onClose()
      }}
      className="rounded-md border border-line px-3 py-1 text-sm font-semibold hover:bg-panel focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      {action.label}
    </button>
  )
}

/** Renders the Toaster service's queue with our toast primitives (./toast.tsx). Mounted once, in the app shell. */
export function Toasts() {
  // A toast renders as a transition, in slices: it appears on its own (the welcome toast at 4 s) while the page may be
  // in use.
  const toasts = useStream(toastsStream, noToasts, { transition: true })
  const fork = useFork()
  const onScreen = toasts.find((t) => t.open)
  // The Toaster service owns the timers; the region reports pausing and resuming for the toast on screen.
  const onScreenId = onScreen?.id
  const announcement = useMemo(() => announcementOf(onScreen), [onScreen])
  const close = (id: string) => fork(Effect.flatMap(Toaster, (s) => s.dismiss(id)))
  // Under 768 px the region sits at the top, just under the header: at the bottom a toast covered the swap card's
  // action area and its details. From 768 px it is bottom right; below 820 px there it meets the devnet wallet's panel
  // (bottom left, up to 392 px), so it keeps above the panel's reach: --devnet-wallet-inset, which only that panel
  // sets (0 elsewhere).
  return (
    <ToastViewport
      className="fixed right-0 top-24 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 px-4 pb-4 outline-none md:bottom-0 md:top-auto md:pt-4 md:max-[820px]:pb-[calc(1rem+var(--devnet-wallet-inset,0px))]"
      current={onScreenId}
      onPause={() => onScreenId !== undefined && fork(Effect.flatMap(Toaster, (s) => s.pause(onScreenId)))}
      onResume={() => onScreenId !== undefined && fork(Effect.flatMap(Toaster, (s) => s.resume(onScreenId)))}
      announcement={announcement}
    >
      {toasts.map((t) => (
        <ToastRoot
          key={t.id}
          open={t.open}
          onClose={() => close(t.id)}
          data-variant={t.variant}
          data-testid="toast"
          className={`group pointer-events-auto relative grid w-full grid-cols-[1fr_auto] items-start gap-x-3 gap-y-1 rounded-xl border p-4 pr-9 shadow-2xl data-[state=closed]:animate-toast-out data-[state=open]:animate-toast-in ${variantClass[t.variant]}`}
        >
          <div className="text-sm font-semibold">{t.title}</div>
          {t.description !== undefined && <Description html={t.description} />}
          <div className="col-start-2 row-span-2 row-start-1 self-center">
            <ActionButton action={t.action} onClose={() => close(t.id)} />
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={() => close(t.id)}
            className="absolute right-2 top-2 rounded p-1 text-muted hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            <span aria-hidden>×</span>
          </button>
        </ToastRoot>
      ))}
    </ToastViewport>
  )
}
