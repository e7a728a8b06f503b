import { Effect, Layer } from "effect"

export interface BrowserShape {
  /** Leaves the app for another site (the 404 redirect). */
  readonly redirect: (url: string) => Effect.Effect<void>
  readonly openInNewTab: (url: string) => Effect.Effect<void>
  readonly historyBack: Effect.Effect<void>
  /** Reloads the current page (the aggregator after adding a route). */
  readonly reload: Effect.Effect<void>
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
    reload: Effect.sync(() => window.location.reload())
  })

  /** Records every navigation instead of performing it. */
  static readonly recording = (log: Array<string>) =>
    Layer.succeed(Browser, {
      redirect: (url) => Effect.sync(() => void log.push(`redirect:${url}`)),
      openInNewTab: (url) => Effect.sync(() => void log.push(`open:${url}`)),
      historyBack: Effect.sync(() => void log.push("back")),
      reload: Effect.sync(() => void log.push("reload"))
    })
}
