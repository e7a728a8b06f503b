/**
 * A small in-memory Gateway for interop tests and the bench. It serves entity details (with nested fungible
 * collections that page), fungible pages, metadata pages, transaction status and committed details, and enforces the
 * real server's rules that matter here: at most 20 addresses per details request, and a `cursor` on a `/state/*`
 * request needs `at_ledger_state.state_version` (else 400 InvalidRequestError, as the .NET server answers).
 */

export interface FakeGatewayOptions {
  readonly accounts: number
  readonly fungiblesPerAccount: number
  /** Items per page for every collection (the real default is 100). */
  readonly pageSize?: number
  /** Metadata items per entity. */
  readonly metadataPerEntity?: number
  readonly stateVersion?: number
  /** Bodies for transaction endpoints. */
  readonly transactionStatus?: unknown
  readonly committedDetails?: unknown
}

export interface FakeReply {
  readonly status: number
  readonly body: unknown
}

export const accountAddress = (i: number) => `account_tdx_2_1fake${String(i).padStart(6, "0")}`
export const resourceAddress = (i: number) => `resource_tdx_2_1fake${String(i).padStart(4, "0")}`
const amountOf = (account: number, resource: number) => `${account}.${String(resource).padStart(3, "0")}`

const encodeCursor = (offset: number) => btoa(JSON.stringify({ o: offset }))
const decodeCursor = (cursor: string): number => {
  const parsed = JSON.parse(atob(cursor)) as { o?: unknown }
  return typeof parsed.o === "number" ? parsed.o : 0
}

const invalid = (message: string, path: string, error: string): FakeReply => ({
  status: 400,
  body: {
    message,
    code: 400,
    details: { type: "InvalidRequestError", validation_errors: [{ path, errors: [error] }] }
  }
})

export const makeFakeGateway = (options: FakeGatewayOptions) => {
  const pageSize = options.pageSize ?? 100
  const metadataCount = options.metadataPerEntity ?? 2
  const baseVersion = options.stateVersion ?? 1000
  let version = baseVersion
  const indexOf = new Map(Array.from({ length: options.accounts }, (_, i) => [accountAddress(i), i]))

  const ledgerState = (stateVersion: number) => ({
    network: "stokenet",
    state_version: stateVersion,
    proposer_round_timestamp: "2024-04-10T08:49:40.926Z",
    epoch: 51653,
    round: 1594
  })

  const page = <A>(all: ReadonlyArray<A>, offset: number) => {
    const items = all.slice(offset, offset + pageSize)
    const next = offset + pageSize < all.length ? { next_cursor: encodeCursor(offset + pageSize) } : {}
    return { total_count: all.length, items, ...next }
  }

  const fungibles = (account: number) =>
    Array.from({ length: options.fungiblesPerAccount }, (_, r) => ({
      aggregation_level: "Vault",
      resource_address: resourceAddress(r),
      vaults: {
        total_count: 1,
        items: [
          {
            vault_address: `internal_vault_tdx_2_1fake${account}x${r}`,
            amount: amountOf(account, r),
            last_updated_at_state_version: 10
          }
        ]
      }
    }))

  const metadata = (address: string) =>
    Array.from({ length: metadataCount }, (_, i) => ({
      key: i === 0 ? "name" : `key_${i}`,
      value: {
        raw_hex: "5c2200010c0466616b65",
        programmatic_json: { kind: "Enum", variant_id: 0, fields: [{ kind: "String", value: `${address}:${i}` }] },
        typed: { type: "String", value: i === 0 ? `Name of ${address}` : `value ${i}` }
      },
      is_locked: false,
      last_updated_at_state_version: 7
    }))

  /** The state version a request is answered at; a cursor without a pinned state version is refused. */
  const stateVersionFor = (body: Record<string, unknown>): number | FakeReply => {
    const at = body["at_ledger_state"] as { state_version?: unknown } | undefined
    if (body["cursor"] !== undefined && body["cursor"] !== null && typeof at?.state_version !== "number")
      return invalid(
        "One or more validation errors occurred",
        "AtLedgerState.StateVersion",
        "AtLedgerState.StateVersion is required if cursor is provided"
      )
    return typeof at?.state_version === "number" ? at.state_version : version++
  }

  const handle = (path: string, body: Record<string, unknown>): FakeReply => {
    switch (path) {
      case "/transaction/status":
        return { status: 200, body: options.transactionStatus ?? {} }
      case "/transaction/committed-details":
        return { status: 200, body: options.committedDetails ?? {} }
    }
    const sv = stateVersionFor(body)
    if (typeof sv !== "number") return sv
    const cursorOffset = typeof body["cursor"] === "string" ? decodeCursor(body["cursor"]) : 0
    switch (path) {
      case "/state/entity/details": {
        const addresses = body["addresses"] as ReadonlyArray<string>
        if (addresses.length > 20)
          return invalid("One or more validation errors occurred", "Addresses", "must contain at most 20 items")
        return {
          status: 200,
          body: {
            ledger_state: ledgerState(sv),
            items: addresses.map((address) => {
              const i = indexOf.get(address) ?? -1
              return {
                address,
                fungible_resources: page(i < 0 ? [] : fungibles(i), 0),
                non_fungible_resources: { total_count: 0, items: [] },
                metadata: page(metadata(address), 0),
                details: { type: "Component", blueprint_name: "Account", blueprint_version: "1.0.0" }
              }
            })
          }
        }
      }
      case "/state/entity/page/fungibles/": {
        const address = body["address"] as string
        const i = indexOf.get(address)
        if (i === undefined)
          return { status: 404, body: { message: "not found", details: { type: "EntityNotFoundError", address } } }
        return { status: 200, body: { ledger_state: ledgerState(sv), address, ...page(fungibles(i), cursorOffset) } }
      }
      case "/state/entity/page/metadata": {
        const address = body["address"] as string
        return {
          status: 200,
          body: { ledger_state: ledgerState(sv), address, ...page(metadata(address), cursorOffset) }
        }
      }
      default:
        return { status: 404, body: "Not Found" }
    }
  }

  return { handle, amountOf, reset: () => void (version = baseVersion) }
}

export type FakeGateway = ReturnType<typeof makeFakeGateway>

export interface RecordedCall {
  readonly path: string
  readonly body: Record<string, unknown>
  readonly headers: Readonly<Record<string, string>>
}

/** The fake as a WHATWG `fetch` (for the SDK's `fetchApi` and our `FetchHttpClient.Fetch`), recording each call. */
export const fakeFetch = (gateway: FakeGateway, basePath: string) => {
  const calls: Array<RecordedCall> = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const path = request.url.slice(basePath.length)
    const text = await request.text()
    const body = (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>
    const headers: Record<string, string> = {}
    request.headers.forEach((value, key) => (headers[key] = value))
    calls.push({ path, body, headers })
    const reply = gateway.handle(path, body)
    return new Response(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { "content-type": "application/json" }
    })
  }
  return { fetch, calls }
}
