/**
 * `npm start`'s settings from its command line and environment: what it refuses, in the words it prints, before
 * anything starts.
 */
import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { devnetFromEnv } from "../../src/devnet/main"

/** What `devnetFromEnv` answers for `env` (as the process environment) and `argv`: the stack's layer, or why not. */
const read = (env: Record<string, string>, argv: ReadonlyArray<string> = []) =>
  Effect.runPromise(
    devnetFromEnv({}, argv).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.either
    )
  )

const refusal = async (env: Record<string, string>, argv: ReadonlyArray<string> = []) => {
  const answer = await read(env, argv)
  if (Either.isRight(answer)) throw new Error(`accepted ${JSON.stringify(env)} ${JSON.stringify(argv)}`)
  return answer.left.message
}

describe("npm start's settings", () => {
  it("accepts what is unset or in range", async () => {
    expect(Either.isRight(await read({}))).toBe(true)
    for (const seconds of ["1", "65", "3600"])
      expect(Either.isRight(await read({ HSWAP_KEEP_ALIVE_SECONDS: seconds }))).toBe(true)
    expect(Either.isRight(await read({ HSWAP_DRAIN_SECONDS: "0", HSWAP_RATE_LIMIT: "0" }, ["--port", "0"]))).toBe(true)
  })

  it("refuses a keep-alive time that is not a whole number of seconds from 1 to 3600, naming what it got", async () => {
    for (const bad of ["0", "3601", "1.5", "-5", "long", " 65"])
      expect(await refusal({ HSWAP_KEEP_ALIVE_SECONDS: bad })).toBe(
        `HSWAP_KEEP_ALIVE_SECONDS must be a whole number from 1 to 3600, got ${JSON.stringify(bad)}`
      )
  })

  it("refuses a drain time, a rate limit or a port out of their ranges", async () => {
    expect(await refusal({ HSWAP_DRAIN_SECONDS: "3601" })).toBe(
      'HSWAP_DRAIN_SECONDS must be a whole number from 0 to 3600, got "3601"'
    )
    expect(await refusal({ HSWAP_RATE_LIMIT: "lots" })).toBe(
      'HSWAP_RATE_LIMIT must be a whole number of requests per minute (0 turns it off), got "lots"'
    )
    expect(await refusal({}, ["--port", "70000"])).toBe('--port must be a whole number from 0 to 65535, got "70000"')
  })
})
