import { decode, encode } from "@jridgewell/sourcemap-codec"
import { describe, expect, it } from "vitest"
import { compileHints } from "../../build/compileHints"
import {
  EAGER_WRAPPER_STAGES,
  eagerWrappers,
  largestCalledFunction,
  mappingsWithInsertions
} from "../../build/eagerWrappers"

/** A source map of `code` onto itself: one segment at the start of each word, on every line. */
const identityMappings = (code: string) =>
  encode(
    code
      .split("\n")
      .map((line) =>
        [...line.matchAll(/\w+/g)].map((m) => [m.index, 0, 0, m.index] as [number, number, number, number])
      )
  )

describe("build: React DOM's wrapper compiled with its file (build/eagerWrappers.ts)", () => {
  it("finds the largest function called where it stands, and only such a function", () => {
    const code = [
      "var small = function(){ return 1 }();",
      "var big = function(){ var a = 1; var b = 2; return function(){ return a + b } }();",
      "var notCalled = function(){ var x = 1; var y = 2; var z = 3; return x + y + z + 4 + 5 + 6 };",
      "var arrow = (() => { var p = 1; var q = 2; var r = 3; return p + q + r + 7 + 8 + 9 + 10 })();"
    ].join("\n")
    const found = largestCalledFunction(code)
    expect(found).toBeDefined()
    const text = code.slice(found?.start, found?.end)
    expect(text.startsWith("function(){ var a = 1")).toBe(true)
    expect(text.endsWith("}")).toBe(true)
    // The result, in parentheses, still parses and calls it.
    const wrapped = `${code.slice(0, found?.start)}(${text})${code.slice(found?.end)}`
    expect(new Function(`${wrapped}; return big()`)()).toBe(3)
    expect(largestCalledFunction("var f = function(){ return 1 }; f();")).toBeUndefined()
  })

  it("moves the source map's columns after each insertion on its line, and no other line's", () => {
    const code = "var a = 1;\nvar big = function(){ return a }(), after = big;\nvar last = 2;"
    const found = largestCalledFunction(code)
    if (found === undefined) throw new Error("no function found")
    const wrapped = `${code.slice(0, found.start)}(${code.slice(found.start, found.end)})${code.slice(found.end)}`
    const moved = decode(
      mappingsWithInsertions(code, identityMappings(code), [
        { at: found.start, length: 1 },
        { at: found.end, length: 1 }
      ])
    )
    const before = decode(identityMappings(code))
    const originalLines = code.split("\n")
    const wrappedLines = wrapped.split("\n")
    moved.forEach((segments, line) => {
      segments.forEach((segment, i) => {
        // Each segment still points at the same word in the generated code as in the original.
        const word = /^\w+/.exec(originalLines[line]?.slice(segment[3]) ?? "")?.[0]
        expect(wrappedLines[line]?.slice(segment[0], segment[0] + (word?.length ?? 0))).toBe(word)
        if (line !== 1) expect(segment[0]).toBe(before[line]?.[i]?.[0])
      })
    })
    // `after` comes after both parentheses, `return` between them, `big` (before) not at all.
    const cols = (line: number) => moved[line]?.map((s) => s[0] - (s[3] ?? 0))
    expect(cols(1)).toEqual([0, 0, 1, 1, 1, 2, 2])
  })

  it("puts its rewrite into the names of the files it rewrites, and only theirs", () => {
    type Augment = (chunk: { readonly name: string; readonly isEntry: boolean }) => string | undefined
    const augment = (plugin: { augmentChunkHash?: unknown }): Augment => {
      const h = plugin.augmentChunkHash
      const f = typeof h === "function" ? h : (h as { handler?: unknown } | undefined)?.handler
      if (typeof f !== "function") throw new Error("the plugin lacks augmentChunkHash")
      return (chunk) => (f as Augment).call({} as never, chunk)
    }
    const wrappers = augment(eagerWrappers())
    expect(wrappers({ name: "react", isEntry: false })).toContain("hswap:eager-wrappers")
    expect(wrappers({ name: "react", isEntry: false })).toContain("largestCalledFunction")
    expect(wrappers({ name: "start", isEntry: false })).toBeUndefined()
    expect(wrappers({ name: "react", isEntry: true })).toBeUndefined()
    expect(augment(compileHints())({ name: "start", isEntry: false })).toContain("hswap:compile-hints")
  })

  it("names React's stage", () => {
    expect(EAGER_WRAPPER_STAGES).toEqual(["react"])
  })
})
