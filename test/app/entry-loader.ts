/**
 * Runs index.html's loader (src/app/shell/entryLoader.ts) in jsdom as the browser would once the body is parsed: its
 * own element, naming `entry`, is in the document, and, as for any module script, `document.currentScript` is null.
 * Returns the entry's script element the loader added to the head.
 */
import { expect } from "vitest"
import { ENTRY_ATTRIBUTE, entryLoaderScript } from "../../src/app/shell/entryLoader"

export const runEntryLoader = (entry: string): HTMLScriptElement => {
  const own = document.createElement("script")
  own.type = "module"
  own.setAttribute(ENTRY_ATTRIBUTE, entry)
  document.body.append(own)
  expect(document.currentScript).toBeNull()
  new Function(entryLoaderScript())()
  const added = document.head.querySelector("script")
  if (added === null) throw new Error("the loader added no script")
  return added
}
