import { useRouter } from "@tanstack/react-router"
import { Effect, Stream } from "effect"
import { useState } from "react"
import { useAppConfig } from "../../config/useAppConfig"
import { useEffectResult, useFork } from "../../runtime/app-runtime"
import { Browser } from "../../services/Browser"
import { countdown } from "../../services/ShellTimeline"
import { Button, Progress } from "../../ui/kit"

/**
 * Spec §9: the 404 page redirects after 5 s, to the main website by default (the configured target: `/` on the
 * devnet, which has no internet).
 */
export const NOT_FOUND_REDIRECT_SECONDS = 5

export const countdownThenRedirect = (target: string, onTick: (remaining: number) => void) =>
  Stream.runForEach(countdown(NOT_FOUND_REDIRECT_SECONDS), (n) => Effect.sync(() => onTick(n))).pipe(
    Effect.zipRight(Effect.flatMap(Browser, (b) => b.redirect(target)))
  )

/** What the countdown names: the website by the brand's name, a path of this app as its home page. */
export const redirectName = (target: string, brandName: string) =>
  target.startsWith("/") ? "the home page" : brandName

export function NotFoundPage() {
  const { brand, notFoundRedirect } = useAppConfig()
  const router = useRouter()
  const fork = useFork()
  const [remaining, setRemaining] = useState(NOT_FOUND_REDIRECT_SECONDS)
  useEffectResult(countdownThenRedirect(notFoundRedirect, setRemaining), [notFoundRedirect])
  const elapsed = NOT_FOUND_REDIRECT_SECONDS - remaining
  return (
    <div className="mx-auto mt-10 max-w-lg text-center">
      <p className="text-7xl font-semibold text-accent/70">404</p>
      <h1 className="mt-4 text-2xl font-semibold">Page Not Found</h1>
      <p className="mt-2 text-muted">
        Redirecting to {redirectName(notFoundRedirect, brand.name)} in{" "}
        <span data-testid="redirect-seconds">{remaining}</span> s…
      </p>
      <div className="mx-auto mt-5 max-w-sm">
        <Progress value={elapsed} max={NOT_FOUND_REDIRECT_SECONDS} label="Redirect countdown" />
      </div>
      <div className="mt-8 flex justify-center gap-3">
        <Button variant="primary" onClick={() => void router.navigate({ to: "/" })}>
          Go Home
        </Button>
        <Button onClick={() => fork(Effect.flatMap(Browser, (b) => b.historyBack))}>Go Back</Button>
      </div>
    </div>
  )
}
