/**
 * Scripted fakes: a Connector extension on an EventTarget, and a relay with a mobile wallet behind it.
 */
import { eventType } from "../../src/toolkit/schemas.js"

export type Reply = "sync" | "async" | "none"

export interface FakeExtensionOptions {
  /** How the status probe is answered (default async). */
  readonly status?: Reply
  readonly isWalletLinked?: boolean
  readonly canHandleSessions?: boolean
  /** receivedByExtension inside the dispatch, as the real extension does (default true). */
  readonly ackSynchronously?: boolean
  /** Called for every walletInteraction (wrapped or legacy bare); may reply through `fake.reply`. */
  readonly onInteraction?: (message: Record<string, unknown>, fake: FakeExtension) => void
}

export interface FakeExtension {
  readonly target: EventTarget
  /** Everything the page dispatched, oldest first. */
  readonly received: Array<Record<string, unknown>>
  readonly reply: (detail: unknown) => void
  readonly replyLater: (detail: unknown) => Promise<void>
  readonly detach: () => void
}

export const fakeExtension = (options: FakeExtensionOptions = {}, target: EventTarget = new EventTarget()): FakeExtension => {
  const received: Array<Record<string, unknown>> = []
  const reply = (detail: unknown) => target.dispatchEvent(new CustomEvent(eventType.incomingMessage, { detail }))
  const replyLater = (detail: unknown) => Promise.resolve().then(() => void reply(detail))
  const fake: FakeExtension = { target, received, reply, replyLater, detach: () => target.removeEventListener(eventType.outgoingMessage, listener) }
  const statusEvent = () => ({
    eventType: "extensionStatus",
    isExtensionAvailable: true,
    isWalletLinked: options.isWalletLinked ?? true,
    canHandleSessions: options.canHandleSessions ?? true
  })
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<Record<string, unknown>>).detail
    received.push(detail)
    if (detail["discriminator"] === "extensionStatus") {
      const mode = options.status ?? "async"
      if (mode === "sync") reply(statusEvent())
      else if (mode === "async") void replyLater(statusEvent())
      return
    }
    if (typeof detail["interactionId"] === "string" && (options.ackSynchronously ?? true)) {
      reply({ eventType: "receivedByExtension", interactionId: detail["interactionId"] })
    }
    if (detail["discriminator"] === "walletInteraction" || "items" in detail) options.onInteraction?.(detail, fake)
  }
  target.addEventListener(eventType.outgoingMessage, listener)
  return fake
}
