import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"
import { SELECTOR_WITHOUT_SHIM } from "../../build/selectorWithoutShim"

const require = createRequire(import.meta.url)

describe("build: TanStack's store selects without use-sync-external-store's shim (build/selectorWithoutShim.ts)", () => {
  it("matches the import TanStack's store makes, and nothing else of the package", () => {
    const { find } = SELECTOR_WITHOUT_SHIM
    // What @tanstack/react-store imports today: if it ever imports something else, this fails and the alias is stale.
    const store = dirname(require.resolve("@tanstack/react-store/package.json"))
    const source = readFileSync(join(store, "dist", "useSelector.js"), "utf8")
    const imported = /from\s+"(use-sync-external-store[^"]*)"/.exec(source)?.[1]
    expect(imported).toBeDefined()
    expect(find.test(imported ?? "")).toBe(true)
    expect(find.test("use-sync-external-store/shim/with-selector.js")).toBe(true)
    expect(find.test("use-sync-external-store/shim")).toBe(false)
    expect(find.test("use-sync-external-store/with-selector")).toBe(false)
  })

  it("resolves to the selector module that uses React's own hook, with the same export", () => {
    const withoutShim = require(SELECTOR_WITHOUT_SHIM.replacement) as Record<string, unknown>
    const shimmed = require("use-sync-external-store/shim/with-selector") as Record<string, unknown>
    expect(Object.keys(withoutShim)).toEqual(Object.keys(shimmed))
    expect(typeof withoutShim.useSyncExternalStoreWithSelector).toBe("function")
    const resolved = readFileSync(require.resolve(SELECTOR_WITHOUT_SHIM.replacement), "utf8")
    expect(resolved).not.toContain("shim")
  })
})
