import { afterEach } from "vitest"

// Component tests opt into jsdom per file: add the DOM matchers there and unmount after each test.
if (typeof document !== "undefined") {
  await import("@testing-library/jest-dom/vitest")
  // jsdom has no layout: the router's scroll restoration calls scrollTo, which jsdom only reports as missing.
  window.scrollTo = () => undefined
  // …nor pointer capture, which Radix's swipeable toasts use on pointer down.
  Element.prototype.hasPointerCapture ??= () => false
  Element.prototype.setPointerCapture ??= () => undefined
  Element.prototype.releasePointerCapture ??= () => undefined
  const { cleanup, configure } = await import("@testing-library/react")
  afterEach(() => cleanup())
  // findBy*/waitFor give up after 1 s by default, which a busy 2-core CI machine can exceed while chunks and fibers
  // settle. Waiting longer only slows a failing test; a passing one returns as soon as its condition holds.
  configure({ asyncUtilTimeout: 5_000 })
}
