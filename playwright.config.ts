import { defineConfig } from "@playwright/test"
import { availableParallelism } from "node:os"
import { disableFeaturesSwitch } from "./e2e/chromium-switches"

/**
 * e2e against the real `npm start` stack: globalSetup starts src/devnet/main.ts in-process on a free 127.0.0.1 port
 * with a fresh data directory, and publishes its URL as E2E_BASE_URL for the workers. Debian's Chromium only.
 */
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Playwright's own list and the omnibox popup's features, in one switch (e2e/chromium-switches.ts).
  disableFeaturesSwitch()
]

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  // One worker on a 2-core machine: two Chromiums beside the shared stack held a load average of 10-15 there, and the
  // app's first mount then overran its 7 s on every retry. Two from 4 cores up.
  workers: availableParallelism() >= 4 ? 2 : 1,
  retries: process.env.CI ? 2 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs },
    trace: "retain-on-failure",
    screenshot: "only-on-failure"
  },
  projects: [
    // A spec meant for one width is tagged @desktop-only or @mobile-only and left out of the other project (rather
    // than listed there as skipped); swap-integrity's specs own one devnet account each and run on desktop only.
    {
      name: "desktop",
      grepInvert: /@mobile-only/,
      use: { browserName: "chromium", viewport: { width: 1280, height: 860 } }
    },
    {
      name: "mobile",
      grepInvert: /@desktop-only/,
      testIgnore: /swap-integrity\.spec\.ts$/,
      use: { browserName: "chromium", viewport: { width: 390, height: 844 }, hasTouch: true }
    },
    // Server-wide switches (maintenance) run alone, after everything else.
    {
      name: "server-admin",
      testMatch: /\.admin\.ts$/,
      dependencies: ["desktop", "mobile"],
      use: { browserName: "chromium", viewport: { width: 1280, height: 860 } }
    }
  ]
})
