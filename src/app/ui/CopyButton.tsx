import { Effect } from "effect"
import { useState } from "react"
import { useFork } from "../runtime/app-runtime"
import { Browser } from "../services/Browser"

export const COPIED_TEXT = "Copied"
export const COPY_FAILED_TEXT = "Could not copy"

/**
 * A small "Copy" button that puts `value` on the clipboard: where a figure is shown by its display rule, this is how
 * a user gets it in full. `label` is its accessible name ("Copy the exact amount sent"); what happened is said
 * beside it ("Copied", or that it could not copy) until the button loses focus.
 */
export function CopyButton({ value, label }: { readonly value: string; readonly label: string }) {
  const fork = useFork()
  const [said, setSaid] = useState("")
  const copy = () =>
    fork(
      Effect.flatMap(Browser, (b) => b.copyText(value)).pipe(
        Effect.tapError((e) => Effect.logWarning("copy failed", e)),
        Effect.match({
          onSuccess: () => setSaid(COPIED_TEXT),
          onFailure: () => setSaid(COPY_FAILED_TEXT)
        })
      )
    )
  return (
    <span className="inline-flex items-center gap-1.5 align-middle">
      <button
        type="button"
        aria-label={label}
        title={label}
        onClick={copy}
        onBlur={() => setSaid("")}
        className="rounded-md border border-line px-1.5 py-0.5 text-xs font-semibold text-muted hover:border-accent hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        Copy
      </button>
      <span
        role="status"
        aria-live="polite"
        className={`text-xs ${said === COPIED_TEXT ? "text-accent" : "text-warn"}`}
      >
        {said}
      </span>
    </span>
  )
}
