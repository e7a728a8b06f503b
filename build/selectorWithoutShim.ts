/**
 * TanStack's store selects through use-sync-external-store's shim, which stands in for React's own
 * useSyncExternalStore before React 18 and only re-exports it after. The package's selector module without the shim
 * uses React's at once: the same hook, without the stand-in's code in the first visit (0.2 kB gzip, bench:app
 * --fetched).
 */
export const SELECTOR_WITHOUT_SHIM = {
  find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
  replacement: "use-sync-external-store/with-selector.js"
}
