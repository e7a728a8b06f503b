/**
 * The shell's live islands (loaded with the live chunk, see runtime/live-context.tsx): the parts of the header,
 * sidebar and content area that need the configuration or the runtime.
 */
import { Effect } from "effect"
import { useAppConfig } from "../config/useAppConfig"
import { useEffectResult, useFork } from "../runtime/app-runtime"
import { Overlays } from "../services/Overlays"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { ExternalLink } from "../ui/kit"
import { sidebarLinkBase } from "./nav"
import { WelcomeButtonView } from "./views"
import { shellStartup, showWelcome } from "./welcome"

/**
 * Started once per mount of the shell: the delayed welcome toast and the validator dialog's auto-open. The open
 * drawer (a phone's sidebar, the shell's own state) counts as an overlay: neither opens over it.
 */
export function ShellStartup({ drawerOpen }: { readonly drawerOpen: boolean }) {
  useEffectResult(shellStartup, [])
  useEffectResult(drawerOpen ? Overlays.holdWhileRunning : Effect.void, [drawerOpen])
  return null
}

export function WelcomeButton() {
  const fork = useFork()
  return <WelcomeButtonView onClick={() => fork(showWelcome)} />
}

/** The sidebar's footer links that need the runtime or the configured brand. */
export function SidebarLinks({ onNavigate }: { readonly onNavigate: () => void }) {
  const fork = useFork()
  const { brand } = useAppConfig()
  return (
    <>
      <button
        type="button"
        onClick={() => fork(Effect.zipRight(ValidatorSupport.show, Effect.sync(onNavigate)))}
        className={`${sidebarLinkBase} text-muted hover:bg-panel-2 hover:text-ink`}
      >
        Support our validator
      </button>
      <div>
        <p className="px-3 pb-2 text-xs font-semibold text-muted">Community &amp; Support</p>
        <ul className="flex flex-col gap-1">
          <li>
            <ExternalLink href={brand.microblogUrl} className={`${sidebarLinkBase} text-muted hover:text-ink`}>
              Follow us on X
            </ExternalLink>
          </li>
          <li>
            <ExternalLink href={brand.messagingBotUrl} className={`${sidebarLinkBase} text-muted hover:text-ink`}>
              Telegram bot
            </ExternalLink>
          </li>
        </ul>
      </div>
    </>
  )
}
