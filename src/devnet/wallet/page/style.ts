/**
 * The CSS custom property, on the page's root element, that holds how far the panel reaches up from the viewport's
 * bottom (e.g. "64px"). The app's toast region reads it (src/app/ui/Toasts.tsx); unset in a production page.
 */
export const PANEL_INSET_PROPERTY = "--devnet-wallet-inset"

/** The Devnet Wallet panel's styles (adopted by its shadow root, so the app's CSS and CSP are untouched). */
export const PANEL_CSS = `
:host { all: initial; }
.panel {
  position: fixed; left: 12px; bottom: 12px; z-index: 2147483000; box-sizing: border-box;
  width: min(380px, calc(100vw - 24px)); max-height: min(75vh, 640px); overflow: auto;
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #f5f3ff;
  background: #1e1b2e; border: 2px solid #a855f7; border-radius: 12px; box-shadow: 0 10px 30px #0008;
}
.panel:not(.open) { width: auto; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; padding: 8px 10px; position: sticky; top: 0; background: #1e1b2e; }
header strong { font-size: 13px; white-space: nowrap; }
.badge, label.auto { white-space: nowrap; }
.badge { font-size: 10px; text-transform: uppercase; letter-spacing: .06em; padding: 1px 6px; border-radius: 999px; background: #7c3aed; }
.count { min-width: 18px; text-align: center; border-radius: 999px; background: #f59e0b; color: #111; font-weight: 700; font-size: 11px; }
label.auto { margin-left: auto; display: flex; align-items: center; gap: 4px; font-size: 12px; }
button { font: inherit; cursor: pointer; border-radius: 8px; border: 1px solid #6d28d9; background: #2e2650; color: inherit; padding: 4px 10px; }
button:disabled { opacity: .5; cursor: default; }
button.approve { background: #16a34a; border-color: #16a34a; color: #fff; font-weight: 600; }
button.reject { background: transparent; border-color: #ef4444; color: #fecaca; }
.body { padding: 0 10px 10px; }
.card { border: 1px solid #4c1d95; border-radius: 10px; padding: 8px 10px; margin: 8px 0; background: #261f3d; }
.card h3 { margin: 0; font-size: 14px; }
.card ul { margin: 6px 0; padding-left: 18px; }
.origin { margin: 2px 0 0; font-size: 11px; word-break: break-all; }
.muted { color: #c4b5fd; opacity: .8; }
.problem { color: #fecaca; background: #7f1d1d55; border-radius: 6px; padding: 4px 6px; }
.pos { color: #86efac; } .neg { color: #fca5a5; }
fieldset { border: 1px solid #4c1d95; border-radius: 8px; margin: 6px 0; padding: 4px 8px; }
fieldset label { display: block; padding: 2px 0; }
h4 { margin: 6px 0 2px; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: #c4b5fd; }
table { width: 100%; border-collapse: collapse; }
td { padding: 2px 4px; border-bottom: 1px solid #4c1d9555; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 11px; max-height: 160px; overflow: auto; background: #0004; padding: 6px; border-radius: 6px; }
.actions { display: flex; justify-content: flex-end; gap: 8px; margin-top: 8px; }
.log { margin: 8px 0 0; padding-left: 18px; font-size: 12px; word-break: break-all; }
a { color: #d8b4fe; }
details.accounts { margin-top: 8px; font-size: 12px; }
`
