import { Effect, Layer, Schema } from "effect"

/** The clipboard refused the text (no clipboard in this context, or the permission was denied). */
export class ClipboardUnavailable extends Schema.TaggedError<ClipboardUnavailable>()("ClipboardUnavailable", {
  cause: Schema.optional(Schema.Defect)
}) {
  override get message(): string {
    return "The text could not be copied to the clipboard"
  }
}

export interface BrowserShape {
  /** Leaves the app for another site (the 404 redirect). */
  readonly redirect: (url: string) => Effect.Effect<void>
  readonly openInNewTab: (url: string) => Effect.Effect<void>
  readonly historyBack: Effect.Effect<void>
  /** Reloads the current page (the aggregator after adding a route). */
  readonly reload: Effect.Effect<void>
  /** Puts `text` on the clipboard (a copy button: the exact amount for whoever asks). */
  readonly copyText: (text: string) => Effect.Effect<void, ClipboardUnavailable>
}

/** Navigation that leaves the app, as a service so tests see where it would have gone. */
export class Browser extends Effect.Tag("hswap/Browser")<Browser, BrowserShape>() {
  static readonly Live = Layer.succeed(Browser, {
    redirect: (url) => Effect.sync(() => window.location.assign(url)),
    openInNewTab: (url) =>
      Effect.sync(() => {
        window.open(url, "_blank", "noopener,noreferrer")
      }),
    historyBack: Effect.sync(() => window.history.back()),
    reload: Effect.sync(() => window.location.reload()),
    copyText: (text) =>
      Effect.tryPromise({
        try: () => navigator.clipboard.writeText(text),
        catch: (cause) => new ClipboardUnavailable({ cause })
      })
  })

  /**
   * Records every navigation, and every text copied ("copy:{text}"), instead of performing it; without a clipboard
   * (`clipboard: false`) a copy fails as the browser's would.
   */
  static readonly recording = (log: Array<string>, options: { readonly clipboard?: boolean } = {}) =>
    Layer.succeed(Browser, {
      redirect: (url) => Effect.sync(() => void log.push(`redirect:${url}`)),
      openInNewTab: (url) => Effect.sync(() => void log.push(`open:${url}`)),
      historyBack: Effect.sync(() => void log.push("back")),
      reload: Effect.sync(() => void log.push("reload")),
      copyText: (text) =>
        options.clipboard === false
          ? Effect.fail(new ClipboardUnavailable({ cause: new Error("no clipboard") }))
          : Effect.sync(() => void log.push(`copy:${text}`))
    })
}
