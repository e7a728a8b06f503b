import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { prerenderPages, ROOT_DIV } from "../../build/prerenderPages"
import {
  FIRST_PAINT_MARK_ID,
  firstPaintScript,
  FIRST_PAINT_STYLE,
  PRERENDERED_SHELL_ID
} from "../../src/app/shell/firstPaint"

/** A root whose src/app/shell/prerender.tsx renders small fixed pages: the plugin loads it as it loads the app's. */
const roots: Array<string> = []
const rootWith = (prerender: string) => {
  const root = mkdtempSync(join(tmpdir(), "hswap-prerender-"))
  roots.push(root)
  mkdirSync(join(root, "src", "app", "shell"), { recursive: true })
  writeFileSync(join(root, "src", "app", "shell", "prerender.tsx"), prerender)
  return root
}
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

const PRERENDER = [
  `export const renderShellHtml = async () => '<header id="top" data-testid="shell-header"><a href="/">hSwap</a></header>'`,
  `export const renderPageHtml = async () => '<main id="main" data-testid="page"><h1>Swap</h1></main>'`
].join("\n")

interface Tag {
  readonly tag: string
  readonly attrs?: Record<string, string>
  readonly children?: string
  readonly injectTo?: string
}
const transform = async (root: string, html: string) => {
  const plugin = prerenderPages()
  const configResolved = plugin.configResolved
  const transformIndexHtml = plugin.transformIndexHtml
  if (typeof configResolved !== "function" || typeof transformIndexHtml !== "function")
    throw new Error("prerenderPages lacks a hook")
  await configResolved.call({} as never, { root, mode: "production" } as never)
  return (await transformIndexHtml.call({} as never, html, {} as never)) as { html: string; tags: ReadonlyArray<Tag> }
}
const PAGE = `<!doctype html>\n<html>\n  <head></head>\n  <body>\n    ${ROOT_DIV}\n  </body>\n</html>\n`

describe("build: the prerendered first paint (build/prerenderPages.ts)", () => {
  it("writes / into #root and the frame, without ids or test ids, into the inert copy after it", async () => {
    const out = await transform(rootWith(PRERENDER), PAGE)
    expect(out.html).toContain(
      [
        `<div id="root"><main id="main" data-testid="page"><h1>Swap</h1></main></div>`,
        `<div id="${PRERENDERED_SHELL_ID}" aria-hidden="true" inert><header><a href="/">hSwap</a></header></div>`,
        `<span id="${FIRST_PAINT_MARK_ID}" hidden></span>`
      ].join("\n    ")
    )
    expect(out.html).not.toContain(ROOT_DIV)
    expect(out.html.match(/data-testid=/g)).toHaveLength(1)
  })

  it("adds the blocking script that picks the copy, its style, and the render-blocking link to the mark", async () => {
    const out = await transform(rootWith(PRERENDER), PAGE)
    expect(out.tags).toEqual([
      { tag: "script", children: firstPaintScript(), injectTo: "head-prepend" },
      { tag: "style", children: FIRST_PAINT_STYLE, injectTo: "head" },
      { tag: "link", attrs: { rel: "expect", href: `#${FIRST_PAINT_MARK_ID}`, blocking: "render" }, injectTo: "head" }
    ])
  })

  it("fails the build on a page without the empty #root, or a prerender module without both renderers", async () => {
    await expect(transform(rootWith(PRERENDER), PAGE.replace(ROOT_DIV, '<div id="app"></div>'))).rejects.toThrow(
      /must contain <div id="root"><\/div>/
    )
    const onlyShell = rootWith(`export const renderShellHtml = async () => "<header></header>"`)
    await expect(transform(onlyShell, PAGE)).rejects.toThrow(/must export renderShellHtml and renderPageHtml/)
  })
})
