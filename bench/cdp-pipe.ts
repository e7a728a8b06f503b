/**
 * Chromium driven over the DevTools protocol through a pipe (`--remote-debugging-pipe`), with only the domains a
 * measured load needs: no Runtime.enable and no Network.enable, which Playwright turns on for every page.
 *
 * Why (bench:app's paint runs): with the Runtime domain on, V8 keeps a detailed stack trace of every Error the page
 * creates, and a frame's line and column need its function's source positions, which V8 otherwise builds only when
 * something asks. So the first Error created under a large function recompiles that function. React DOM's client
 * creates one as it loads, inside the one function the CommonJS plugin wraps its 200 kB in: its evaluation took 36–44 ms
 * at 4× CPU slowdown with Runtime enabled, 12–13 ms without (four loads each, the same file and page; 2.3 ms without
 * slowdown or DevTools). The Network domain likewise captures a JS stack for each request a script starts. A user's
 * browser does neither.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Readable, Writable } from "node:stream"
import { OMNIBOX_POPUP_FEATURES } from "../e2e/chromium-switches"

interface Reply {
  readonly id?: number
  readonly result?: Record<string, unknown>
  readonly error?: { readonly message: string }
}

export interface PipeBrowser {
  /** Sends one command (to a page when `sessionId` is given) and resolves with its result, or rejects with its error. */
  readonly send: (
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string
  ) => Promise<Record<string, unknown>>
  readonly close: () => Promise<void>
}

/**
 * The switches Playwright launches Chromium with that bear on how a page is scheduled or drawn, so that a load over the
 * pipe differs from one through Playwright in the DevTools domains only. Its other switches turn off services
 * (updates, sync, extensions' pages, prompts) that a headless run over a pipe does not start anyway.
 *
 * Beyond Playwright's: no omnibox popup. Headless Chromium opens a window for each new browser context, and preloads
 * that window's omnibox popup, a WebUI page (chrome://omnibox-popup.top-chrome/omnibox_popup_aim.html), in a renderer
 * of its own. Traced, it ran about 1 s of script and layout in the first second of every measured load, on the same
 * two cores as the page (Playwright's pages get one too; the two features are e2e/chromium-switches.ts's). A user's
 * browser loads it once per window, not per page. With it, FCP at 4x ranged 216–524 ms for ours and 504–764 ms for the
 * anchor in 12 loads each; without it, 192–244 and 368–440 ms.
 */
const PLAYWRIGHT_LIKE_ARGS: ReadonlyArray<string> = [
  "--disable-field-trial-config",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
  "--disable-back-forward-cache",
  "--disable-hang-monitor",
  "--disable-ipc-flooding-protection",
  "--disable-dev-shm-usage",
  "--disable-extensions",
  "--force-color-profile=srgb",
  `--disable-features=${["PaintHolding", ...OMNIBOX_POPUP_FEATURES].join(",")}`,
  "--hide-scrollbars",
  "--mute-audio"
]

/** Launches `executable` headless with `args`, talking the protocol over file descriptors 3 (in) and 4 (out). */
export const launchPipe = (executable: string, args: ReadonlyArray<string>): PipeBrowser => {
  const profile = mkdtempSync(join(tmpdir(), "hswap-bench-chromium-"))
  const child: ChildProcess = spawn(
    executable,
    [
      "--headless",
      "--remote-debugging-pipe",
      `--user-data-dir=${profile}`,
      ...PLAYWRIGHT_LIKE_ARGS,
      ...args,
      "about:blank"
    ],
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] }
  )
  const toBrowser = child.stdio[3] as Writable
  const fromBrowser = child.stdio[4] as Readable
  let stderr = ""
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString("utf8")).slice(-4000)
  })
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>()
  let exited: Error | undefined
  const failAll = (error: Error) => {
    exited ??= error
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  child.on("exit", (code, signal) =>
    failAll(new Error(`chromium exited (${signal ?? code}) with commands pending; its last output: ${stderr}`))
  )
  child.on("error", failAll)
  // A write to a pipe whose reader died is reported here, not thrown: the pending commands fail through "exit".
  toBrowser.on("error", () => undefined)
  let buffered = ""
  fromBrowser.setEncoding("utf8")
  fromBrowser.on("data", (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf("\0"); end >= 0; end = buffered.indexOf("\0")) {
      const message = JSON.parse(buffered.slice(0, end)) as Reply
      buffered = buffered.slice(end + 1)
      // Events (no id): no load here subscribes to any.
      if (message.id === undefined) continue
      const waiter = pending.get(message.id)
      pending.delete(message.id)
      if (message.error !== undefined) waiter?.reject(new Error(`CDP ${message.error.message}`))
      else waiter?.resolve(message.result ?? {})
    }
  })
  let lastId = 0
  const send: PipeBrowser["send"] = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      if (exited !== undefined) return reject(exited)
      const id = ++lastId
      pending.set(id, {
        resolve,
        reject: (e) => reject(new Error(`${method}: ${e.message}`))
      })
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`)
    })
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once("exit", resolve))
      // Browser.close shuts Chromium down as a user would: its helpers end and the profile is written before it exits.
      // A signal alone left helpers writing into the profile as it was being removed (ENOTEMPTY).
      // Its reply may never come: the browser exits, and the command then fails with the exit, which is the outcome
      // awaited here (through "exit"), so that failure is not an error.
      send("Browser.close").catch(() => undefined)
      const timer = setTimeout(() => {
        console.warn("bench: Chromium did not exit within 10 s of Browser.close; killing it")
        child.kill("SIGKILL")
      }, 10_000)
      await gone
      clearTimeout(timer)
    }
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    } catch (error) {
      console.warn(`bench: could not remove Chromium's profile ${profile}: ${String(error)}`)
    }
  }
  return { send, close }
}

/** A page in a browser context of its own (no cookies, cache or storage from another load). */
export interface PipePage {
  readonly sessionId: string
  /** Evaluates `expression` in the page and returns its value (JSON), without enabling the Runtime domain. */
  readonly evaluate: <T>(expression: string) => Promise<T>
  readonly close: () => Promise<void>
}

export const newPipePage = async (
  browser: PipeBrowser,
  viewport: { readonly width: number; readonly height: number }
): Promise<PipePage> => {
  const { browserContextId } = await browser.send("Target.createBrowserContext", { disposeOnDetach: true })
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank", browserContextId })
  const { sessionId } = (await browser.send("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string
  }
  await browser.send(
    "Emulation.setDeviceMetricsOverride",
    { width: viewport.width, height: viewport.height, deviceScaleFactor: 1, mobile: false },
    sessionId
  )
  const evaluate = async <T>(expression: string): Promise<T> => {
    const reply = (await browser.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId)) as {
      result?: { value?: T }
      exceptionDetails?: { text?: string; exception?: { description?: string } }
    }
    if (reply.exceptionDetails !== undefined)
      throw new Error(
        `evaluate: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text ?? "exception"}`
      )
    return reply.result?.value as T
  }
  return {
    sessionId,
    evaluate,
    close: async () => {
      await browser.send("Target.disposeBrowserContext", { browserContextId })
    }
  }
}
