/**
 * Environment: the few browser facts and effects the transports need (window events, user agent, location,
 * Telegram Mini App). The browser layer reads `globalThis`; the test layer is a plain `EventTarget` with captured
 * navigations, so transports can be tested in Node.
 */
import { Context, Effect, Layer, Ref } from "effect"

const MOBILE =
  /(mobi|ipod|phone|blackberry|opera mini|fennec|minimo|symbian|psp|nintendo ds|archos|skyfire|puffin|blazer|bolt|gobrowser|iris|maemo|semc|teashark|uzard|ipad|tablet|(android(?!.*mobile))|(windows(?!.*phone)(.*touch))|kindle|playbook|silk|(puffin(?!.*(IP|AP|WP))))/

/** The official toolkit's mobile test: its regex over the lower-cased user agent. */
export const isMobileUserAgent = (userAgent: string): boolean => MOBILE.test(userAgent.toLowerCase())

export interface EnvironmentApi {
  /** The target of `radix#chromeExtension#*` events (the window). */
  readonly events: EventTarget
  readonly isBrowser: boolean
  readonly isMobile: boolean
  /** A Telegram Mini App (`Telegram.WebView.initParams` non-empty) opens links in a new window. */
  readonly isTelegramMiniApp: () => boolean
  readonly origin: string
  /** `location.href = url` */
  readonly navigate: (url: string) => Effect.Effect<void>
  /** `window.open(url, "_blank")` */
  readonly openWindow: (url: string) => Effect.Effect<void>
}

interface TelegramGlobal {
  readonly Telegram?: { readonly WebView?: { readonly initParams?: Record<string, unknown> } }
}

export class Environment extends Context.Tag("hswap/toolkit/Environment")<Environment, EnvironmentApi>() {
  /** The real browser (or a no-op EventTarget when there is no window, e.g. during SSR). */
  static readonly Browser: Layer.Layer<Environment> = Layer.sync(Environment, () => {
    const hasWindow = typeof window !== "undefined" && typeof document !== "undefined"
    const userAgent = typeof navigator !== "undefined" ? navigator.userAgent : ""
    return {
      events: hasWindow ? window : new EventTarget(),
      isBrowser: hasWindow,
      isMobile: isMobileUserAgent(userAgent),
      isTelegramMiniApp: () =>
        Object.keys((globalThis as TelegramGlobal).Telegram?.WebView?.initParams ?? {}).length > 0,
      origin: hasWindow ? window.location.origin : "",
      navigate: (url) =>
        Effect.sync(() => {
          if (hasWindow) window.location.href = url
        }),
      openWindow: (url) =>
        Effect.sync(() => {
          if (hasWindow) window.open(url, "_blank")
        })
    }
  })

  /** A scripted environment: its own EventTarget; navigations are recorded in `opened`. */
  static readonly Test = (
    options: {
      readonly events?: EventTarget
      readonly isMobile?: boolean
      readonly isTelegramMiniApp?: boolean
      readonly origin?: string
      readonly opened?: Ref.Ref<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>
    } = {}
  ): Layer.Layer<Environment> =>
    Layer.sync(Environment, () => {
      const record = (how: "navigate" | "window", url: string) =>
        options.opened ? Ref.update(options.opened, (all) => [...all, { how, url }]) : Effect.void
      return {
        events: options.events ?? new EventTarget(),
        isBrowser: true,
        isMobile: options.isMobile ?? false,
        isTelegramMiniApp: () => options.isTelegramMiniApp ?? false,
        origin: options.origin ?? "http://localhost:5173",
        navigate: (url) => record("navigate", url),
        openWindow: (url) => record("window", url)
      }
    })
}
