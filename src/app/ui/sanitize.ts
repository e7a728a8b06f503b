import DOMPurify from "dompurify"
import { escapeHtml } from "./escape"

/** The small allowlist for toast descriptions: emphasis, code, line breaks and links. */
const ALLOWED_TAGS = ["b", "strong", "i", "em", "code", "br", "p", "span", "a"]
const ALLOWED_ATTR = ["href"]

let hooked = false

/**
 * Sanitises HTML for a toast description. Scripts, event handlers, styles, iframes and `javascript:` URLs are
 * removed; links open in a new tab without an opener. Without a DOM (server rendering) everything is escaped.
 */
export const sanitizeHtml = (html: string): string => {
  if (typeof window === "undefined" || !DOMPurify.isSupported) return escapeHtml(html)
  if (!hooked) {
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        node.setAttribute("target", "_blank")
        node.setAttribute("rel", "noopener noreferrer")
      }
    })
    hooked = true
  }
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ADD_ATTR: ["target", "rel"]
  })
}
