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
  const { cleanup } = await import("@testing-library/react")
  afterEach(() => cleanup())
}
