import { describe, expect, it } from "vitest"
import { renderShellHtml } from "../../src/app/shell/prerender"

describe("the prerendered shell (written into index.html by the build)", () => {
  it("is the frame before the live chunk: brand, tagline, navigation, placeholders and the page skeleton", async () => {
    const html = await renderShellHtml()
    expect(html).toContain(">hSwap<")
    // The tagline is read as one phrase (a visually hidden copy), not through an aria-label on its <p>.
    expect(html).toContain('<span class="sr-only">Swap, Bridge, Save and Earn</span>')
    for (const label of ["Exchange hAssets", "Swap", "Bridge", "hBTC bridge", "Earn", "Airdrop", "Stats", "Proof of Funds"])
      expect(html).toContain(`>${label}<`)
    expect(html).toContain('href="/swap"')
    expect(html).toContain('data-testid="wallet-button-loading"')
    expect(html).toContain('data-testid="page-loading"')
    // The info button cannot be used before the runtime is there.
    expect(html).toMatch(/<button[^>]*data-testid="welcome-info"[^>]*disabled/)
  })

  it("marks no navigation entry as the current page and holds nothing from the live half", async () => {
    const html = await renderShellHtml()
    expect(html).not.toContain('aria-current="page"')
    expect(html).not.toContain("Support our validator")
    expect(html).not.toContain('data-testid="swap-card"')
  })
})
