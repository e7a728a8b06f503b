/**
 * TanStack's store selects through use-sync-external-store's shim, which stands in for React's own
 * useSyncExternalStore before React 18 and only re-exports it after. The package's selector module without the shim
 * uses React's at once: the same hook, without the stand-in's code in the first visit.
 * What it saves (bench:app --fetched against `HSWAP_BUILD_WITHOUT=selectorWithoutShim`, exact gzip bytes):
 * initial JS 103,042 → 102,818 B (−224 B, the start's file); JS fetched by / in its first 10 s 247,488 → 247,261 B
 * (−227 B). Under the 2 kB that a patch of a dependency's internals must save to stay: kept only while the fetched
 * total without it would be over its budget (1.05× the anchor's).
 */
export const SELECTOR_WITHOUT_SHIM = {
  find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
  replacement: "use-sync-external-store/with-selector.js"
}
