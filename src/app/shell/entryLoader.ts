/**
 * How index.html starts the app's entry: not with a `<script type="module" src>` in the head, but with a small inline
 * module script at the end of the body (entryLoaderScript(), written by build/entryAfterMarkup.ts) that adds
 * the entry's module script once the prerendered markup is parsed. The entry's file is named by the loader's
 * `data-entry`; the loader finds its own element by that attribute (a module script has no `document.currentScript`).
 *
 * Why: a module script in the head is found by the preload scanner as the HTML arrives, and its request and compile
 * (with the entry's stages, modulepreloaded beside it) ran while the parser, the style and the layout of the first
 * paint were still under way, on the same two cores. Started from the end of the body instead, and the stages from the
 * entry after the first paint, the first paint of `/` came sooner. FCP over interleaved loads of the two builds at 4×
 * CPU slowdown (a throwaway probe on bench/cdp-pipe.ts): median 196 → 180 ms, quartiles 184–216 → 164–192 ms (40
 * loads each); with index.html edited by hand the same way, 216 → 188 ms (50 loads each) and 208 → 196 ms (30).
 *
 * The loader is a module script, not a classic one, so that it runs after the first paint's frame: a classic script at
 * the end of the body runs inside the parser's task, after the render-blocking wait is over but before the frame, and
 * this small one took about 35 ms there at 4× CPU slowdown in a trace (its first use of the DOM's bindings, the use
 * counters, the request it starts). An inline module script is deferred: it runs when the document is parsed, which
 * Chromium schedules after that first frame. Same probe, 70 interleaved loads each, on a slower machine: median 528 →
 * 492 ms, quartiles 492–584 → 444–556 ms (a second run of 50 each showed no difference: 456 against 460 ms; the
 * spread between loads on that machine is wide). So that the entry does not wait for a request the later start would
 * add, a `<link rel="modulepreload">` beside the loader has the preload scanner fetch the entry's file (5 kB, compiled
 * off the page's thread) as the HTML arrives, and the loader's script reuses it: one request.
 *
 * The entry runs only after the markup has painted (and later still if its file is slow to come), so the loader also
 * captures clicks on the markup's controls until the entry takes over (shell/earlyClicks.ts): a click made then is kept
 * and replayed, as one made before the app mounts.
 *
 * This module is in the initial bundle and is read by the build: strings, the scripts' text as a function (so that the
 * bundle, which never calls it, drops it), and the entry's one function to take the loader's capture over. Its imports
 * are strings too.
 */
import { FIRST_PAINT_ATTRIBUTE, PRERENDERED_SHELL_ID } from "./firstPaint"
import {
  LOAD_FAILURE_KEY,
  LOAD_FAILURE_NOTICE,
  MENU_BUTTON_SELECTOR,
  SIDEBAR_SELECTOR,
  STOPPED_PLACEHOLDER,
  WALLET_PLACEHOLDER_LOADING,
  WALLET_PLACEHOLDER_STOPPED
} from "./loadFailure"
import { DRAWER } from "./drawer"

/** What a click acts on before the app listens (links navigate natively; text fields keep what is typed). */
export const EARLY_CLICK_CONTROLS =
  'button, [role="button"], [role="tab"], [role="switch"], [role="checkbox"], [role="menuitem"], summary, label, ' +
  'input[type="checkbox"], input[type="radio"]'

/** Where the loader keeps its capture for the entry: `{ target, stop }`. */
export const EARLY_CLICK_KEY = "__hswapEarlyClick"

/** The attribute of the loader's script element that names the entry's file. */
export const ENTRY_ATTRIBUTE = "data-entry"

/** What the notice says when the entry's own file did not load: the file, as the console names it. */
export const ENTRY_FAILED_MESSAGE = "The app's entry did not load: "

/**
 * The loader's body. It captures clicks on controls inside #root (the last one is kept; its default and propagation
 * are stopped, as shell/earlyClicks.ts does once the entry runs), then adds the entry's module script. If that file
 * cannot load, or loads and cannot run before it takes the capture over (a truncated file: its SyntaxError, or an
 * exception as it starts, goes to the window's `error` event, not to the script element's), the capture stops (the
 * markup acts as plain HTML again), the console says which file failed, and the page shows the notice the entry shows
 * when its stages cannot load (shell/loadFailure.ts showLoadFailure, by the same steps: test/app/entry-stages.test.ts
 * compares the two), instead of a page that looks ready and never acts. The notice's copy keeps a working menu button
 * (its sidebar is a drawer under 768 px). The function that puts the notice up stays on the window (LOAD_FAILURE_KEY):
 * in a build, the entry's showLoadFailure hands a stage's failure to it, so the entry's file carries no copy of it.
 */
export const entryLoaderScript = (): string =>
  "(()=>{" +
  `const d=document,c={target:null},on=e=>{const t=e.target instanceof Element?e.target.closest(${JSON.stringify(EARLY_CLICK_CONTROLS)}):null;` +
  'const r=d.getElementById("root");if(!(t instanceof HTMLElement)||r===null||!r.contains(t))return;' +
  "e.preventDefault();e.stopPropagation();c.target=t};" +
  `c.stop=()=>{d.removeEventListener("click",on,!0);removeEventListener("error",bad)};d.addEventListener("click",on,!0);window.${EARLY_CLICK_KEY}=c;` +
  `const fail=m=>{const h=d.documentElement,f=h.getAttribute(${JSON.stringify(FIRST_PAINT_ATTRIBUTE)})==="shell"?d.getElementById(${JSON.stringify(PRERENDERED_SHELL_ID)}):null,r=f??d.getElementById("root");if(r===null)return;` +
  'const n=r.querySelector("main")??r;' +
  `n.innerHTML=${JSON.stringify(LOAD_FAILURE_NOTICE)};n.querySelector("p").textContent=m;` +
  'n.querySelector("button").addEventListener("click",()=>location.reload());' +
  'for(const p of r.querySelectorAll(".animate-pulse")){' +
  `p.classList.replace("animate-pulse",${JSON.stringify(STOPPED_PLACEHOLDER)});` +
  `if(p.dataset.testid===${JSON.stringify(WALLET_PLACEHOLDER_LOADING)})p.dataset.testid=${JSON.stringify(WALLET_PLACEHOLDER_STOPPED)}}` +
  `const b=r.querySelector(${JSON.stringify(MENU_BUTTON_SELECTOR)}),v=r.querySelector(${JSON.stringify(SIDEBAR_SELECTOR)});` +
  `if(b!==null&&v!==null)b.addEventListener("click",()=>{const o=v.classList.toggle(${JSON.stringify(DRAWER.openClass)});` +
  `v.classList.toggle(${JSON.stringify(DRAWER.closedClass)},!o);v.setAttribute("data-open",o);b.setAttribute("aria-expanded",o);` +
  `b.setAttribute("aria-label",o?${JSON.stringify(DRAWER.openLabel)}:${JSON.stringify(DRAWER.closedLabel)})});` +
  'if(f!==null){f.removeAttribute("inert");f.removeAttribute("aria-hidden");return}' +
  `d.getElementById(${JSON.stringify(PRERENDERED_SHELL_ID)})?.remove();h.removeAttribute(${JSON.stringify(FIRST_PAINT_ATTRIBUTE)})};window.${LOAD_FAILURE_KEY}=fail;` +
  `const s=d.createElement("script");s.type="module";s.crossOrigin="";s.src=d.querySelector(${JSON.stringify(`script[${ENTRY_ATTRIBUTE}]`)}).getAttribute(${JSON.stringify(ENTRY_ATTRIBUTE)});` +
  `const failed=(...why)=>{c.stop();console.error("hSwap: the entry could not load:",s.src,...why);fail(${JSON.stringify(ENTRY_FAILED_MESSAGE)}+s.src)},` +
  'bad=e=>{if(e.filename===s.src)failed(e.message)};s.onerror=()=>failed();addEventListener("error",bad);d.head.append(s)})();'

/** What the loader left: the capture to take over, or nothing (dev, tests, a page without the loader). */
export interface LoaderCapture {
  readonly target: HTMLElement | null
  readonly stop: () => void
}

/** Takes the loader's capture over: stops it and returns the control it kept, if any. Once; later calls get nothing. */
export const takeLoaderCapture = (win: Window = window): HTMLElement | undefined => {
  const holder = win as unknown as Record<string, unknown>
  const capture = holder[EARLY_CLICK_KEY] as LoaderCapture | undefined
  if (capture === undefined || capture === null || typeof capture.stop !== "function") return undefined
  delete holder[EARLY_CLICK_KEY]
  capture.stop()
  return capture.target instanceof HTMLElement ? capture.target : undefined
}
