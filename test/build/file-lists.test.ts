import { describe, expect, it } from "vitest"
import { entryAfterMarkup } from "../../build/entryAfterMarkup"
import { liveChunkList } from "../../build/liveChunkList"
import { ENTRY_STAGES_PLACEHOLDER, LIVE_CHUNKS_PLACEHOLDER } from "../../src/app/runtime/inStages"
import { ENTRY_ATTRIBUTE, entryLoaderScript } from "../../src/app/shell/entryLoader"

const ROOT = "/repo"

/** A build's chunks, as Rollup's `renderChunk` meta lists them: file name, modules (paths from ROOT), static imports. */
const chunksOf = (
  chunks: Record<string, { readonly modules: ReadonlyArray<string>; readonly imports?: ReadonlyArray<string> }>
) =>
  Object.fromEntries(
    Object.entries(chunks).map(([fileName, c]) => [
      fileName,
      { fileName, moduleIds: c.modules.map((m) => `${ROOT}/${m}`), imports: c.imports ?? [] }
    ])
  )

/**
 * The first visit's graph: the entry (main.tsx, which holds inStages.ts and so both placeholders), the entry's stages
 * (React, the start), the live chunk with one stage, the page of `/` (TanStack names its split module with a query)
 * with a file it shares, and a lazy route that none of them reach.
 */
const CHUNKS = chunksOf({
  "assets/index.js": { modules: ["src/app/main.tsx", "src/app/runtime/inStages.ts"] },
  "assets/react.js": {
    modules: ["src/app/runtime/stages/react.ts", "node_modules/react/index.js"],
    imports: ["assets/index.js"]
  },
  "assets/start.js": { modules: ["src/app/start.tsx"], imports: ["assets/react.js", "assets/index.js"] },
  "assets/effect.js": { modules: ["src/app/runtime/stages/effect.ts"], imports: ["assets/index.js"] },
  "assets/live.js": { modules: ["src/app/live.tsx"], imports: ["assets/effect.js", "assets/react.js"] },
  "assets/ExchangePage.js": {
    modules: ["src/app/features/exchange/ExchangePage.tsx?tsr-split=component"],
    imports: ["assets/shared.js", "assets/start.js"]
  },
  "assets/shared.js": { modules: ["src/app/ui/Button.tsx"] },
  "assets/about.js": { modules: ["src/app/routes/about.tsx"], imports: ["assets/shared.js"] }
})

type RenderChunk = (code: string, chunk: { fileName: string }, options: unknown, meta: { chunks: unknown }) => unknown
const renderChunk = (hook: unknown) => {
  const f = typeof hook === "function" ? hook : (hook as { handler?: unknown } | undefined)?.handler
  if (typeof f !== "function") throw new Error("the plugin has no renderChunk hook")
  return (code: string, fileName: string, chunks: unknown = CHUNKS) =>
    (f as RenderChunk).call({} as never, code, { fileName }, {}, { chunks }) as { code: string; map: null } | null
}
/** The list the plugin wrote in place of `placeholder`, from `const files = "<placeholder>"`. */
const listIn = (out: { code: string } | null): unknown => JSON.parse(out?.code.replace(/^const files = /, "") ?? "null")

describe("build: the live chunk's list of files (build/liveChunkList.ts)", () => {
  const render = renderChunk(liveChunkList().renderChunk)

  it("lists the live chunk's files and the page of /'s, without the entry's stages or the chunk that asks", () => {
    const out = render(`const files = "${LIVE_CHUNKS_PLACEHOLDER}"`, "assets/index.js")
    expect(out?.map).toBeNull()
    expect(listIn(out)).toEqual(["assets/live.js", "assets/effect.js", "assets/ExchangePage.js", "assets/shared.js"])
  })

  it("writes the list wherever the placeholder is quoted, and leaves a chunk without it alone", () => {
    for (const quote of ["'", "`"]) {
      const out = render(`const files = ${quote}${LIVE_CHUNKS_PLACEHOLDER}${quote}`, "assets/index.js")
      expect(listIn(out)).toContain("assets/live.js")
    }
    expect(render(`const files = "${ENTRY_STAGES_PLACEHOLDER}"`, "assets/index.js")).toBeNull()
    expect(render(`const files = ${LIVE_CHUNKS_PLACEHOLDER}`, "assets/index.js")).toBeNull()
  })

  it("fails the build when no chunk holds the live chunk's module", () => {
    const { ["assets/live.js"]: _live, ...withoutLive } = CHUNKS
    expect(() => render(`"${LIVE_CHUNKS_PLACEHOLDER}"`, "assets/index.js", withoutLive)).toThrow(
      /no chunk of the build holds src\/app\/live\.tsx/
    )
  })
})

describe("build: the entry after the markup (build/entryAfterMarkup.ts)", () => {
  it("writes the entry's stages (React's, the start's, what they import) into the entry, without the entry itself", () => {
    const out = renderChunk(entryAfterMarkup().renderChunk)(
      `const files = "${ENTRY_STAGES_PLACEHOLDER}"`,
      "assets/index.js"
    )
    expect(listIn(out)).toEqual(["assets/react.js", "assets/start.js"])
    expect(renderChunk(entryAfterMarkup().renderChunk)("const files = 1", "assets/index.js")).toBeNull()
  })

  const transformHtml = (html: string, built = true) => {
    const hook = entryAfterMarkup().transformIndexHtml
    const f = typeof hook === "function" ? hook : hook?.handler
    if (typeof f !== "function") throw new Error("entryAfterMarkup has no transformIndexHtml hook")
    return f.call({} as never, html, {
      path: "/index.html",
      filename: "/repo/index.html",
      bundle: built ? {} : undefined
    } as never)
  }
  const html = (scripts: string) =>
    `<!doctype html>\n<html>\n  <head>\n    ${scripts}\n    <link rel="stylesheet" crossorigin href="/assets/index-c.css">\n  </head>\n  <body>\n    <div id="root"><main>page</main></div>\n  </body>\n</html>\n`
  const ENTRY_SCRIPT = '<script type="module" crossorigin src="/assets/index-abc.js"></script>'

  it("moves the entry's module script from the head to a loader at the end of the body, with a preload", () => {
    const out = transformHtml(html(ENTRY_SCRIPT))
    expect(typeof out).toBe("string")
    const text = String(out)
    expect(text).not.toContain(ENTRY_SCRIPT)
    const preload = '<link rel="modulepreload" crossorigin href="/assets/index-abc.js">'
    const loader = `<script type="module" ${ENTRY_ATTRIBUTE}="/assets/index-abc.js">${entryLoaderScript()}</script>`
    expect(text).toContain(`<div id="root"><main>page</main></div>\n    ${preload}\n    ${loader}\n  </body>`)
    expect(text.indexOf("</head>")).toBeLessThan(text.indexOf(preload))
    // The stylesheet stays where it was.
    expect(text).toContain('<link rel="stylesheet" crossorigin href="/assets/index-c.css">\n  </head>')
  })

  it("leaves the dev server's page as it is, and fails the build on a page it cannot read", () => {
    const page = html(ENTRY_SCRIPT)
    expect(transformHtml(page, false)).toBe(page)
    expect(() => transformHtml(html(""))).toThrow(/one module script \(the entry\), found 0/)
    expect(() => transformHtml(html(`${ENTRY_SCRIPT}\n    ${ENTRY_SCRIPT.replace("abc", "def")}`))).toThrow(/found 2/)
    expect(() => transformHtml(html(ENTRY_SCRIPT).replace("</body>", ""))).toThrow(/no <\/body>/)
  })
})
