/**
 * Toast descriptions that need no sanitiser: text without `<`, `>` or `&`, with only bare tags from the sanitiser's
 * allowlist (no attributes at all, so no handler, style or URL can ride along). Such a string parses to the same DOM
 * the sanitiser would return, so the page can render it without loading DOMPurify; anything else goes through it.
 */
const BARE_MARKUP = /^(?:[^<>&]|<\/?(?:b|strong|i|em|code|br|p|span)>)*$/

export const isBareMarkup = (html: string): boolean => BARE_MARKUP.test(html)
