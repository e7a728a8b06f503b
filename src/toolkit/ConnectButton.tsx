/**
 * The connect button (wallet-protocol.md §7): a face that reads 'Connect' or the persona label (a spinner while
 * pending; compact below 138 px) and a popover with the connect flow, or, once connected, the sharing and requests
 * tabs. Presentational: state in, callbacks out. Everything from outside is rendered as text.
 *
 * The face is here; the popover (ConnectPanel.tsx: Radix Popover and Tabs with their positioning, focus and dismissal
 * layers) is its own chunk. It starts loading when the pointer or focus reaches the button, so a page load does not
 * fetch it, and it is usually there by the time the click lands.
 */
import { useEffect, useId, useRef, useState } from "react"
import { loadOnce } from "../lib/loadOnce"
import type { ConnectButtonProps, ConnectButtonTheme } from "./connectButtonModel"
import { isLive } from "./connectButtonModel"

export {
  isLive,
  requestTitle,
  type ConnectButtonMode,
  type ConnectButtonProps,
  type ConnectButtonTheme
} from "./connectButtonModel"

export const COMPACT_BELOW_PX = 138

const themeClasses: Record<ConnectButtonTheme, string> = {
  "radix-blue": "bg-[#060f8f] text-white hover:bg-[#0a17b8]",
  black: "bg-black text-white hover:bg-neutral-800",
  "white-with-outline": "bg-white text-black ring-1 ring-black hover:bg-neutral-100",
  white: "bg-white text-black hover:bg-neutral-100",
  custom: "bg-accent text-accent-ink hover:opacity-90"
}

const Spinner = () => (
  <svg aria-hidden data-testid="connect-button-spinner" viewBox="0 0 24 24" className="h-4 w-4 animate-spin">
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
    <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
  </svg>
)

const RadixMark = () => (
  <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
    <path d="M3 13h4l4 7 7-16h3" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" />
  </svg>
)

type PanelModule = typeof import("./ConnectPanel")
/** The popover chunk, loaded once; a failed load is forgotten, so the next attempt fetches again. */
const panelModule = loadOnce((): Promise<PanelModule> => import("./ConnectPanel"))

export const ConnectButton = (props: ConnectButtonProps) => {
  const { state } = props
  const mode = props.mode ?? "light"
  const theme = props.theme ?? "radix-blue"
  const width = props.width ?? COMPACT_BELOW_PX
  const compact = width < COMPACT_BELOW_PX
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState("sharing")
  const [panel, setPanel] = useState<PanelModule | undefined>(() => panelModule.current())
  const button = useRef<HTMLButtonElement>(null)
  const panelId = useId()
  const pending = state.status === "pending"
  const face = state.connected ? state.personaLabel : "Connect"

  const onOpenChange = (next: boolean) => {
    if (next) setTab(state.requestItems.some(isLive) ? "requests" : "sharing")
    setOpen(next)
  }

  // The wallet connected while the popover was open: on a phone it closes (closeOnConnect).
  const [wasConnected, setWasConnected] = useState(state.connected)
  if (state.connected !== wasConnected) {
    setWasConnected(state.connected)
    if (state.connected && open && props.closeOnConnect === true) setOpen(false)
  }
  const { onPopoverOpenChange } = props
  useEffect(() => {
    onPopoverOpenChange?.(open)
  }, [open, onPopoverOpenChange])

  // One load in flight per button; after a failure the next approach or press asks again.
  const requested = useRef(false)
  const want = () => {
    props.onIntent?.()
    if (panel !== undefined || requested.current) return
    requested.current = true
    panelModule.load().then(
      (m) => setPanel(() => m),
      (error: unknown) => {
        requested.current = false
        console.error("Connect button: the wallet panel could not be loaded", error)
        setOpen(false)
      }
    )
  }
  // Opened before the chunk arrived (a click straight away): load it now; it shows as soon as it is there.
  useEffect(() => {
    if (open && panel === undefined) want()
  })

  return (
    <>
      <button
        ref={button}
        type="button"
        data-testid="connect-button"
        data-status={state.status}
        data-theme={theme}
        data-mode={mode}
        data-state={open ? "open" : "closed"}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open && panel !== undefined ? panelId : undefined}
        aria-label={compact ? face : undefined}
        aria-busy={pending}
        onPointerEnter={want}
        onFocus={want}
        onClick={() => {
          props.onIntent?.()
          onOpenChange(!open)
        }}
        // Never wider than its container: a narrow header row gets a shorter button (the name cut with an ellipsis),
        // not a row that overflows.
        style={{ width: `${width}px`, maxWidth: "100%", height: "42px" }}
        className={`inline-flex items-center justify-center gap-2 rounded-md px-3 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-[#52e3c2] ${themeClasses[theme]}`}
      >
        {pending ? <Spinner /> : <RadixMark />}
        {!compact && <span className="truncate">{face}</span>}
      </button>
      {panel !== undefined && (
        <panel.ConnectPanel
          {...props}
          open={open}
          onOpenChange={onOpenChange}
          anchor={button}
          contentId={panelId}
          tab={tab}
          onTab={setTab}
        />
      )}
    </>
  )
}
