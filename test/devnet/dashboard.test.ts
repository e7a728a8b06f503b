import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeDashboard } from "../../src/devnet/dashboard/dashboard.js"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"

const [user1 = "", user2 = ""] = DevnetAddresses.users
const { XRD, hUSDC } = DevnetAddresses.resources
const hostileSymbol = `<script>alert("symbol")</script>`
const hostileName = `"><img src=x onerror=alert(1)>`
const hostileMessage = `</dd><script>alert('message')</script><a href="javascript:alert(2)">x</a>`

const withDashboard = <A, E>(f: (d: Effect.Effect.Success<typeof makeDashboard>) => Effect.Effect<A, E, Ledger>) =>
  Effect.flatMap(makeDashboard, f).pipe(Effect.provide(Ledger.memory()))

/** No markup from the ledger survives: no script, no injected element, no javascript: URL. */
const expectInert = (html: string) => {
  expect(html).not.toContain("<script")
  expect(html).not.toContain("<img src=x")
  expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*javascript:/i)
  expect(html).not.toMatch(/<[^>]*\sonerror=/i)
}

const send = (manifest: string, message?: string) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const { epoch } = yield* ledger.state
    const signer = ledger.genesis.users[0].key
    const built = yield* buildNotarizedTransaction({
      manifest,
      signers: [signer],
      notary: ledger.genesis.notary,
      startEpochInclusive: epoch,
      ...(message === undefined ? {} : { message })
    })
    yield* ledger.submit(built.notarizedTransactionHex)
    return built.intentHash
  })

const transfer = (resource: string, amount: string) => `
CALL_METHOD Address("${user1}") "lock_fee" Decimal("1");
CALL_METHOD Address("${user1}") "withdraw" Address("${resource}") Decimal("${amount}");
TAKE_ALL_FROM_WORKTOP Address("${resource}") Bucket("b");
CALL_METHOD Address("${user2}") "try_deposit_or_abort" Bucket("b") Enum<0u8>();`

describe("devnet dashboard", () => {
  it.effect("an account page lists balances with symbols, and escapes hostile resource metadata", () =>
    withDashboard((dashboard) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        yield* ledger.createFungibleResource({
          symbol: hostileSymbol,
          name: hostileName,
          divisibility: 2,
          initialSupply: "42.5",
          to: user1,
          iconUrl: "javascript:alert(3)",
          description: "<b>bold</b>"
        })
        const page = yield* dashboard.render(`/account/${user1}`)
        expect(page.status).toBe(200)
        expect(page.html).toContain("hUSDC")
        expect(page.html).toContain("5000")
        expect(page.html).toContain("10000")
        expect(page.html).toContain("&lt;script&gt;alert(&quot;symbol&quot;)&lt;/script&gt;")
        expect(page.html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
        expect(page.html).toContain("42.5")
        expectInert(page.html)
        // The genesis icons are inline SVG data URLs and are shown; other URLs are not loaded.
        expect(page.html).toContain('src="data:image/svg+xml;base64,')

        const embed = yield* dashboard.render(`/account/${user1}/tokens`)
        expect(embed.status).toBe(200)
        expect(embed.html).toContain('class="embed"')
        expect(embed.html).toContain("hUSDC")
        expect(embed.html).toContain("&lt;script&gt;")
        expectInert(embed.html)
      })
    )
  )

  it.effect("a transaction page shows status, balance changes with symbols, fee and an escaped message", () =>
    withDashboard((dashboard) =>
      Effect.gen(function* () {
        const txid = yield* send(transfer(hUSDC, "12.25"), hostileMessage)
        const page = yield* dashboard.render(`/transaction/${txid}`)
        expect(page.status).toBe(200)
        expect(page.html).toContain("CommittedSuccess")
        expect(page.html).toContain("+12.25")
        expect(page.html).toContain("-12.25")
        expect(page.html).toContain("<strong>hUSDC</strong>")
        expect(page.html).toContain("<strong>XRD</strong>")
        expect(page.html).toContain("&lt;/dd&gt;&lt;script&gt;alert(&#39;message&#39;)&lt;/script&gt;")
        expectInert(page.html)
        expect((yield* dashboard.render(`/transaction/${txid}/summary`)).status).toBe(200)

        // The account's history links to it.
        const account = yield* dashboard.render(`/account/${user2}`)
        expect(account.html).toContain(`/devnet/dashboard/transaction/${txid}`)

        const failed = yield* send(transfer(XRD, "999999"))
        const failure = yield* dashboard.render(`/transaction/${failed}`)
        expect(failure.html).toContain("CommittedFailure")
        expect(failure.html).toContain("InsufficientBalance")
      })
    )
  )

  it.effect("unknown transactions, malformed addresses and unknown paths get an escaped 404 page", () =>
    withDashboard((dashboard) =>
      Effect.gen(function* () {
        const unknownTx = yield* dashboard.render(
          "/transaction/txid_loc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
        )
        expect(unknownTx.status).toBe(404)
        const hostile = yield* dashboard.render(`/account/${encodeURIComponent("<svg onload=alert(1)>")}`)
        expect(hostile.status).toBe(404)
        expect(hostile.html).toContain("&lt;svg onload=alert(1)&gt;")
        expect(hostile.html).not.toContain("<svg")
        expect(
          (yield* dashboard.render("/account/account_rdx12xsvygvltz4uhsht6tdrfxktzpmnl77r0d40j8agmujgdj022sudkk"))
            .status
        ).toBe(404)
        expect((yield* dashboard.render("/validator/x")).status).toBe(404)
        expect((yield* dashboard.render("/account/%E0%A4%A")).status).toBe(404)
        const index = yield* dashboard.render("/")
        expect(index.status).toBe(200)
        for (const user of DevnetAddresses.users) expect(index.html).toContain(user)
      })
    )
  )
})
