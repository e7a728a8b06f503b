/**
 * Chromium's `--disable-features` for the e2e browser. Playwright passes its own list (playwright-core 1.65.1,
 * server/chromium/chromiumSwitches.ts) as one switch, and Chromium keeps only the last `--disable-features` it is
 * given, so a list of ours replaces Playwright's: PLAYWRIGHT_DISABLED_FEATURES repeats it (test/build/chromium-switches
 * checks it against the installed playwright-core, so an upgrade that changes the list fails there, not silently).
 *
 * Ours on top: the omnibox popup. Headless Chromium opens a window for each new browser context and preloads that
 * window's omnibox popup, a WebUI page, in a renderer of its own: about 1 s of CPU at the start of every test's
 * context on the same cores as the app and the stack (bench/cdp-pipe.ts, where the bench turns it off too).
 * Neither feature alone removes it; the two together do.
 */
export const PLAYWRIGHT_DISABLED_FEATURES: ReadonlyArray<string> = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion"
]

export const OMNIBOX_POPUP_FEATURES: ReadonlyArray<string> = ["WebUIOmniboxAimPopup", "WebUIOmniboxPopup"]

/** The one `--disable-features` switch the e2e browser launches with. */
export const disableFeaturesSwitch = (): string =>
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(",")}`
