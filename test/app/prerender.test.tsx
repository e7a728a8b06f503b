import { describe, expect, it, vi } from "vitest"
import { renderPageHtml, renderShellHtml } from "../../src/app/shell/prerender"

describe("the prerendered shell (written into index.html by the build)", () => {
  it("is the frame before the live chunk: brand, tagline, navigation, placeholders and the page skeleton", async () => {
    const html = await renderShellHtml()
    expect(html).toContain(">hSwap<")
    // The tagline is read as one phrase (a visually hidden copy), not through an aria-label on its <p>.
    expect(html).toContain('<span class="sr-only">Swap, Bridge, Save and Earn</span>')
    for (const label of [
      "Exchange hAssets",
      "Swap",
      "Bridge",
      "hBTC bridge",
      "Earn",
      "Airdrop",
      "Stats",
      "Proof of Funds"
    ])
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

describe("the prerendered / (written into index.html's #root by the build, and hydrated)", () => {
  it("holds the page's largest text, in the page's initial state, with every island still a placeholder", async () => {
    const html = await renderPageHtml()
    expect(html).toContain(">Exchange Wrapped Assets</h1>")
    expect(html).toContain("Swaps are backed by the operator&#x27;s own liquidity, not by liquidity pools.")
    expect(html).toContain('data-testid="swap-card"')
    // The islands as the browser hydrates them: placeholders, nothing from the live half.
    expect(html).toContain('data-testid="wallet-button-loading"')
    expect(html).toMatch(/<button[^>]*data-testid="welcome-info"[^>]*disabled/)
    expect(html).not.toContain("Support our validator")
    // `/` is the current page; no skeleton, no boundary left to the client, no script.
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*href="\/"|<a[^>]*href="\/"[^>]*aria-current="page"/)
    expect(html).not.toContain('data-testid="page-loading"')
    expect(html).not.toMatch(/<!--\$[?!]-->|<script/)
  })

  it("refuses to prerender with a configuration the browser would refuse", async () => {
    // The browser's boot says why on the console; so does the build, which then stops.
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    await expect(renderPageHtml({ VITE_GATEWAY_URL: "ftp://example.com" })).rejects.toThrow(/VITE_GATEWAY_URL/)
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("VITE_GATEWAY_URL is invalid"))
    logged.mockRestore()
  })
})
