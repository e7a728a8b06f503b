import { afterEach } from "vitest"

// Component tests opt into jsdom per file; unmount whatever they rendered after each test.
if (typeof document !== "undefined") {
  const { cleanup } = await import("@testing-library/react")
  afterEach(() => cleanup())
}
