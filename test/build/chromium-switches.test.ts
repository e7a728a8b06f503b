import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import {
  disableFeaturesSwitch,
  OMNIBOX_POPUP_FEATURES,
  PLAYWRIGHT_DISABLED_FEATURES
} from "../../e2e/chromium-switches"

/** The installed playwright-core's own `disabledFeatures` list, read from its bundle (it does not export it). */
const installedList = (): ReadonlyArray<string> => {
  const require = createRequire(import.meta.url)
  const bundle = readFileSync(
    join(dirname(require.resolve("playwright-core/package.json")), "lib", "coreBundle.js"),
    "utf8"
  )
  const body = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1]
  if (body === undefined) throw new Error("playwright-core's bundle no longer holds a disabledFeatures list")
  const code = body.replace(/\/\/[^\n]*/g, "")
  return [...code.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "")
}

describe("the e2e browser's --disable-features", () => {
  it("repeats every feature the installed Playwright turns off (Chromium keeps only the last such switch)", () => {
    const installed = installedList()
    expect(installed.length).toBeGreaterThan(5)
    expect(installed).toContain("PaintHolding")
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...installed].sort())
  })

  it("is one switch: Playwright's list and the omnibox popup's two features", () => {
    const value = disableFeaturesSwitch().replace(/^--disable-features=/, "")
    expect(disableFeaturesSwitch().startsWith("--disable-features=")).toBe(true)
    expect(value.split(",")).toEqual([...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES])
    expect(value).not.toMatch(/\s/)
  })
})
