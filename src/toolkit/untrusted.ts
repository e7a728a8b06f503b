/**
 * The one guarded entry for untrusted wallet data (extension events, relay entries, deep links, storage reads).
 *
 * `toPlainJson` copies a value into plain JSON data (null, booleans, finite numbers, strings, arrays, plain objects)
 * without invoking user code on ordinary objects: it reads own data properties through property descriptors (never a
 * getter, `toString`, `valueOf`, `toJSON` or an inherited property), refuses accessors, class instances, functions,
 * symbols, bigints, cycles, and bounds depth, node count and characters. A Proxy's traps are user code that cannot be
 * avoided; anything they throw is caught and becomes an issue. The copy keeps a `__proto__` key as an own property.
 *
 * `decodeUntrusted` then decodes the copy with a Schema. Effect's decoder can throw on plain JSON too (a union
 * discriminator that is an object with a non-callable `toString`), so the decode is guarded as well: every failure is
 * a `WalletResponseValidation` carrying the interactionId when one is readable. No error path formats the raw value.
 */
import { Either, type Schema } from "effect"
import { WalletResponseValidation } from "./errors"
import { validate, type ValidationIssue } from "./schemas"

export type JsonValue =
  null | boolean | number | string | ReadonlyArray<JsonValue> | { readonly [key: string]: JsonValue }

export const isJsonObject = (json: JsonValue): json is { readonly [key: string]: JsonValue } =>
  typeof json === "object" && json !== null && !Array.isArray(json)

export interface UntrustedLimits {
  /** Deepest nesting of arrays and objects (the top level is depth 0). */
  readonly maxDepth: number
  /** Values (primitives, arrays, objects) in the whole input, counting shared references each time. */
  readonly maxNodes: number
  /** Characters of all strings and keys together. */
  readonly maxChars: number
}

/** A wallet response is a few KB, 10 levels deep; these bounds are far above any genuine message. */
export const untrustedLimits: UntrustedLimits = { maxDepth: 64, maxNodes: 50_000, maxChars: 1_000_000 }

/** Longest interactionId read from a message that does not decode (a UUID has 36 characters). */
const MAX_INTERACTION_ID_CHARS = 256

class Refused {
  constructor(
    readonly path: ReadonlyArray<string | number>,
    readonly message: string
  ) {}
}

const isPlainPrototype = (proto: object | null): boolean => proto === null || Object.getPrototypeOf(proto) === null

/**
 * Copies `input` into plain JSON data, or returns the first issue. Never throws; never calls a getter or a
 * conversion method on an ordinary object.
 */
export const toPlainJson = (
  input: unknown,
  limits: UntrustedLimits = untrustedLimits
): Either.Either<JsonValue, ValidationIssue> => {
  let nodes = 0
  let chars = 0
  const ancestors = new Set<object>()
  const path: Array<string | number> = []

  const countChars = (n: number) => {
    chars += n
    if (chars > limits.maxChars) throw new Refused(path.slice(), "message too large")
  }

  const walk = (value: unknown, depth: number): JsonValue => {
    nodes += 1
    if (nodes > limits.maxNodes) throw new Refused(path.slice(), "message too large")
    switch (typeof value) {
      case "string":
        countChars(value.length)
        return value
      case "number":
        if (!Number.isFinite(value))
          throw new Refused(path.slice(), "Invalid type: Expected JSON data but received a non-finite number")
        return value
      case "boolean":
        return value
      case "object":
        break
      default:
        throw new Refused(path.slice(), `Invalid type: Expected JSON data but received ${typeof value}`)
    }
    if (value === null) return null
    if (depth >= limits.maxDepth) throw new Refused(path.slice(), "message too deep")
    if (ancestors.has(value)) throw new Refused(path.slice(), "Invalid type: Expected JSON data but received a cycle")
    ancestors.add(value)
    try {
      if (Array.isArray(value)) {
        const lengthDescriptor = Object.getOwnPropertyDescriptor(value, "length")
        const length: unknown = lengthDescriptor?.value
        if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) {
          throw new Refused(path.slice(), "Invalid type: Expected JSON data but received an unreadable array")
        }
        if (nodes + length > limits.maxNodes) throw new Refused(path.slice(), "message too large")
        const out: Array<JsonValue> = []
        for (let i = 0; i < length; i++) {
          path.push(i)
          const descriptor = Object.getOwnPropertyDescriptor(value, i)
          if (descriptor === undefined || !("value" in descriptor)) {
            throw new Refused(path.slice(), "Invalid type: Expected JSON data but received a hole or an accessor")
          }
          out.push(walk(descriptor.value, depth + 1))
          path.pop()
        }
        return out
      }
      if (!isPlainPrototype(Object.getPrototypeOf(value))) {
        throw new Refused(path.slice(), "Invalid type: Expected JSON data but received a class instance")
      }
      const keys = Reflect.ownKeys(value)
      if (nodes + keys.length > limits.maxNodes) throw new Refused(path.slice(), "message too large")
      const out: Record<string, JsonValue> = {}
      for (const key of keys) {
        if (typeof key !== "string") continue
        const descriptor = Object.getOwnPropertyDescriptor(value, key)
        if (descriptor === undefined || !descriptor.enumerable) continue
        path.push(key)
        countChars(key.length)
        if (!("value" in descriptor))
          throw new Refused(path.slice(), "Invalid type: Expected JSON data but received an accessor")
        if (descriptor.value !== undefined) {
          const copy = walk(descriptor.value, depth + 1)
          if (key === "__proto__")
            Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true })
          else out[key] = copy
        }
        path.pop()
      }
      return out
    } finally {
      ancestors.delete(value)
    }
  }

  try {
    return Either.right(walk(input, 0))
  } catch (thrown) {
    // A Refused is ours; anything else was thrown by a Proxy trap or a revoked Proxy, and is never read.
    return Either.left(
      thrown instanceof Refused
        ? { path: thrown.path.join("."), message: thrown.message }
        : { path: path.join("."), message: "the value could not be read" }
    )
  }
}

/**
 * The `interactionId` of a message, when it is an own string data property of a plain top-level object (read
 * through its descriptor, so no getter runs). `undefined` otherwise.
 */
export const readInteractionId = (input: unknown): string | undefined => {
  try {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined
    if (!isPlainPrototype(Object.getPrototypeOf(input))) return undefined
    const descriptor = Object.getOwnPropertyDescriptor(input, "interactionId")
    const id: unknown = descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined
    return typeof id === "string" && id.length > 0 && id.length <= MAX_INTERACTION_ID_CHARS ? id : undefined
  } catch {
    return undefined
  }
}

/** Decodes plain JSON with `schema`, turning a throwing decoder into an issue. */
const guardedValidate = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = validate(schema)
  return (json: JsonValue): Either.Either<A, ReadonlyArray<ValidationIssue>> => {
    try {
      return decode(json)
    } catch {
      return Either.left([{ path: "", message: "Invalid input: the value could not be decoded" }])
    }
  }
}

/**
 * The guarded entry: plain JSON copy, then Schema decode. Every failure is a `WalletResponseValidation` with the
 * readable interactionId ("" when none) and the issues.
 */
export const decodeUntrusted = <A, I>(schema: Schema.Schema<A, I>, limits: UntrustedLimits = untrustedLimits) => {
  const decode = guardedValidate(schema)
  return (input: unknown): Either.Either<A, WalletResponseValidation> => {
    const plain = toPlainJson(input, limits)
    if (Either.isLeft(plain)) {
      return Either.left(
        new WalletResponseValidation({ interactionId: readInteractionId(input) ?? "", issues: [plain.left] })
      )
    }
    const decoded = decode(plain.right)
    if (Either.isLeft(decoded)) {
      return Either.left(
        new WalletResponseValidation({ interactionId: readInteractionId(plain.right) ?? "", issues: decoded.left })
      )
    }
    return Either.right(decoded.right)
  }
}
