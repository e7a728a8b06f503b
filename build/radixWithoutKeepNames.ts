import type { Plugin } from "vite"

/**
 * Radix UI's published modules wrap each function in `__name(fn, "fn")` (their bundler's keepNames), which sets
 * `fn.name` at load. Nothing here reads those names, so the helper becomes the identity and the minifier drops the calls.
 */
export const radixWithoutKeepNames = (): Plugin => ({
  name: "hswap:radix-without-keep-names",
  apply: "build",
  transform(code, id) {
    if (!id.includes("/node_modules/@radix-ui/")) return null
    const helper = /var __name = \(target, value\) => __defProp\(target, "name", \{ value, configurable: true \}\);/
    if (!helper.test(code)) return null
    return { code: code.replace(helper, "var __name = (target, _value) => target;"), map: null }
  }
})
