/**
 * Manifest SBOR (payload prefix 0x4d): value kinds, a bounded reader and a writer, and the generic manifest value
 * (any SBOR value, including the manifest custom kinds 0x80–0x88).
 *
 * Rules kept exactly as the Radix decoder applies them, so what we accept is what the network accepts and a decoded
 * value re-encodes to the same bytes:
 * - sizes are LEB128, at most 4 bytes (≤ 0x0FFFFFFF), and canonical (no trailing zero byte);
 * - bools are 0 or 1; strings are valid UTF-8 (a leading BOM is kept, not stripped);
 * - every value counts one level of depth (the payload's root value is level 1), at most 24 levels
 *   (MANIFEST_SBOR_V1_MAX_DEPTH);
 * - a collection's count can never exceed the bytes left, since every element body takes at least one byte, so a
 *   hostile count fails at once instead of looping.
 */
import {
  fixedToString,
  fromLeBytesSigned,
  fromLeBytesUnsigned,
  parseFixed,
  DECIMAL,
  PRECISE_DECIMAL,
  toLeBytes
} from "./decimal"

export const MANIFEST_SBOR_PREFIX = 0x4d
/** MANIFEST_SBOR_V1_MAX_DEPTH in radix-common's sbor_payload.rs. */
export const MAX_DEPTH = 24
/** The network's limit on a user transaction payload (PreparationSettings::max_user_payload_length). */
export const MAX_PAYLOAD_BYTES = 1024 * 1024
const MAX_SIZE = 0x0fffffff

export const Kind = {
  Bool: 0x01,
  I8: 0x02,
  I16: 0x03,
  I32: 0x04,
  I64: 0x05,
  I128: 0x06,
  U8: 0x07,
  U16: 0x08,
  U32: 0x09,
  U64: 0x0a,
  U128: 0x0b,
  String: 0x0c,
  Array: 0x20,
  Tuple: 0x21,
  Enum: 0x22,
  Map: 0x23,
  Address: 0x80,
  Bucket: 0x81,
  Proof: 0x82,
  Expression: 0x83,
  Blob: 0x84,
  Decimal: 0x85,
  PreciseDecimal: 0x86,
  NonFungibleLocalId: 0x87,
  AddressReservation: 0x88
} as const
export type ValueKindName = keyof typeof Kind

const KIND_NAMES = new Map<number, ValueKindName>(
  (Object.keys(Kind) as Array<ValueKindName>).map((name) => [Kind[name], name])
)
export const kindName = (code: number): ValueKindName | undefined => KIND_NAMES.get(code)

/** Entity type bytes (first byte of a node id) that the engine knows (radix-common `EntityType`). */
export const EntityType = {
  GlobalPackage: 0x0d,
  GlobalConsensusManager: 0x86,
  GlobalValidator: 0x83,
  GlobalTransactionTracker: 0x82,
  GlobalGenericComponent: 0xc0,
  GlobalAccount: 0xc1,
  GlobalIdentity: 0xc2,
  GlobalAccessController: 0xc3,
  GlobalOneResourcePool: 0xc4,
  GlobalTwoResourcePool: 0xc5,
  GlobalMultiResourcePool: 0xc6,
  GlobalAccountLocker: 0x68,
  GlobalPreallocatedSecp256k1Account: 0xd1,
  GlobalPreallocatedSecp256k1Identity: 0xd2,
  GlobalPreallocatedEd25519Account: 0x51,
  GlobalPreallocatedEd25519Identity: 0x52,
  GlobalFungibleResourceManager: 0x5d,
  InternalFungibleVault: 0x58,
  GlobalNonFungibleResourceManager: 0x9a,
  InternalNonFungibleVault: 0x98,
  InternalGenericComponent: 0xf8,
  InternalKeyValueStore: 0xb0
} as const
const ENTITY_BYTES = new Set<number>(Object.values(EntityType))
const INTERNAL_BYTES = new Set<number>([0x58, 0x98, 0xf8, 0xb0])
export const isEntityType = (b: number): boolean => ENTITY_BYTES.has(b)
export const isGlobalEntity = (b: number): boolean => ENTITY_BYTES.has(b) && !INTERNAL_BYTES.has(b)
export const isInternalEntity = (b: number): boolean => INTERNAL_BYTES.has(b)
export const isResourceEntity = (b: number): boolean => b === 0x5d || b === 0x9a

export const NODE_ID_LENGTH = 30

/** An address in a manifest: a 30-byte node id, or a named address (an index allocated in the manifest). */
export type ManifestAddress =
  { readonly type: "Static"; readonly nodeId: Uint8Array } | { readonly type: "Named"; readonly id: number }

export type NonFungibleLocalId =
  | { readonly type: "String"; readonly value: string }
  | { readonly type: "Integer"; readonly value: bigint }
  | { readonly type: "Bytes"; readonly value: Uint8Array }
  | { readonly type: "RUID"; readonly value: Uint8Array }

/** Any Manifest SBOR value. An `Array` of `U8` decodes as `Bytes`; both forms encode to the same bytes. */
export type ManifestValue =
  | { readonly kind: "Bool"; readonly value: boolean }
  | { readonly kind: "I8" | "I16" | "I32" | "U8" | "U16" | "U32"; readonly value: number }
  | { readonly kind: "I64" | "I128" | "U64" | "U128"; readonly value: bigint }
  | { readonly kind: "String"; readonly value: string }
  | { readonly kind: "Tuple"; readonly fields: ReadonlyArray<ManifestValue> }
  | { readonly kind: "Enum"; readonly discriminator: number; readonly fields: ReadonlyArray<ManifestValue> }
  | { readonly kind: "Array"; readonly elementKind: ValueKindName; readonly elements: ReadonlyArray<ManifestValue> }
  | { readonly kind: "Bytes"; readonly value: Uint8Array }
  | {
      readonly kind: "Map"
      readonly keyKind: ValueKindName
      readonly valueKind: ValueKindName
      readonly entries: ReadonlyArray<readonly [ManifestValue, ManifestValue]>
    }
  | { readonly kind: "Address"; readonly value: ManifestAddress }
  | { readonly kind: "Bucket" | "Proof" | "AddressReservation"; readonly id: number }
  | { readonly kind: "Expression"; readonly value: "EntireWorktop" | "EntireAuthZone" }
  | { readonly kind: "Blob"; readonly hash: Uint8Array }
  | { readonly kind: "Decimal" | "PreciseDecimal"; readonly value: string }
  | { readonly kind: "NonFungibleLocalId"; readonly value: NonFungibleLocalId }

/** The SBOR value kind of a value (`Bytes` is an `Array`). */
export const valueKindOf = (v: ManifestValue): ValueKindName => (v.kind === "Bytes" ? "Array" : v.kind)

// ---------------------------------------------------------------------------------------------------------------
// Failures: thrown inside the codec only, caught at every public entry point and turned into typed errors.

export class DecodeFailure {
  constructor(
    readonly offset: number,
    readonly path: string,
    readonly reason: string
  ) {}
}
export class EncodeFailure {
  constructor(
    readonly path: string,
    readonly reason: string
  ) {}
}

const pathText = (segments: ReadonlyArray<string | number>): string => {
  let out = "root"
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : `.${s}`
  return out
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
const utf8Encoder = new TextEncoder()

const MAX_NF_LOCAL_ID = 64
const NF_STRING = /^[0-9A-Za-z_]+$/

export const nonFungibleLocalIdProblem = (id: NonFungibleLocalId): string | undefined => {
  switch (id.type) {
    case "String":
      if (id.value.length === 0) return "an empty string id"
      if (utf8Encoder.encode(id.value).length > MAX_NF_LOCAL_ID) return "a string id longer than 64 bytes"
      return NF_STRING.test(id.value) ? undefined : "a string id with characters outside 0-9 A-Z a-z _"
    case "Integer":
      return id.value < 0n || id.value > 0xffffffffffffffffn ? "an integer id outside u64" : undefined
    case "Bytes":
      if (id.value.length === 0) return "an empty bytes id"
      return id.value.length > MAX_NF_LOCAL_ID ? "a bytes id longer than 64 bytes" : undefined
    case "RUID":
      return id.value.length === 32 ? undefined : "a RUID id that is not 32 bytes"
  }
}

// ---------------------------------------------------------------------------------------------------------------

export class Reader {
  pos = 0
  private depth = 0
  readonly path: Array<string | number> = []

  constructor(
    readonly buf: Uint8Array,
    readonly maxDepth: number = MAX_DEPTH
  ) {}

  fail(reason: string, at: number = this.pos): never {
    throw new DecodeFailure(at, pathText(this.path), reason)
  }

  get remaining(): number {
    return this.buf.length - this.pos
  }

  byte(): number {
    if (this.pos >= this.buf.length) this.fail("unexpected end of input")
    return this.buf[this.pos++] ?? 0
  }

  /** A copy of the next `n` bytes. */
  bytes(n: number): Uint8Array {
    if (n > this.remaining) this.fail(`needs ${n} bytes, ${this.remaining} left`)
    const out = this.buf.slice(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  size(): number {
    const start = this.pos
    let size = 0
    let shift = 0
    for (;;) {
      const b = this.byte()
      size |= (b & 0x7f) << shift
      if (b < 0x80) {
        if (b === 0 && shift !== 0) this.fail("non-canonical size prefix", start)
        return size >>> 0
      }
      shift += 7
      if (shift >= 28) this.fail("size prefix longer than 4 bytes", start)
    }
  }

  /** A count of elements of at least `minBytes` bytes each, checked against the bytes left and `max`. */
  count(max: number, what: string, minBytes = 1): number {
    const at = this.pos
    const n = this.size()
    if (n > max) this.fail(`${n} ${what}, at most ${max} allowed`, at)
    if (n * minBytes > this.remaining) this.fail(`${n} ${what} cannot fit in the ${this.remaining} bytes left`, at)
    return n
  }

  uint(bytes: number): number {
    let v = 0
    for (let i = 0; i < bytes; i++) v += this.byte() * 2 ** (8 * i)
    return v
  }

  bigUint(bytes: number): bigint {
    return fromLeBytesUnsigned(this.bytes(bytes))
  }

  bigInt(bytes: number): bigint {
    return fromLeBytesSigned(this.bytes(bytes))
  }

  stringBody(): string {
    const at = this.pos
    const n = this.count(MAX_SIZE, "string bytes", 1)
    const raw = this.buf.subarray(this.pos, this.pos + n)
    this.pos += n
    try {
      return utf8Decoder.decode(raw)
    } catch {
      return this.fail("string is not valid UTF-8", at)
    }
  }

  /** Enters one level of depth under the given path segment. */
  enter(segment: string | number): void {
    this.path.push(segment)
    this.depth += 1
    if (this.depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth} levels`)
  }

  leave(): void {
    this.path.pop()
    this.depth -= 1
  }

  /** One level of depth with no path segment (the payload's root enum). */
  enterLevel(): void {
    this.depth += 1
    if (this.depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth} levels`)
  }

  leaveLevel(): void {
    this.depth -= 1
  }

  expectKind(expected: number): void {
    const at = this.pos
    const k = this.byte()
    if (k !== expected)
      this.fail(`expected value kind ${kindName(expected) ?? expected} (0x${hex2(expected)}), found 0x${hex2(k)}`, at)
  }

  /** Reads a value of a given kind under `segment`: the kind byte, then `body` one level deeper. */
  value<T>(segment: string | number, kind: number, body: (r: Reader) => T): T {
    this.path.push(segment)
    this.expectKind(kind)
    this.path.pop()
    this.enter(segment)
    const v = body(this)
    this.leave()
    return v
  }

  /** A tuple body with exactly `n` fields. */
  tupleHeader(n: number): void {
    const at = this.pos
    const got = this.size()
    if (got !== n) this.fail(`expected a tuple of ${n} fields, found ${got}`, at)
  }

  /** An enum body's discriminator and field count, checked against the allowed variants. */
  enumHeader(fieldCounts: ReadonlyMap<number, number> | Readonly<Record<number, number>>): number {
    const at = this.pos
    const d = this.byte()
    const expected = fieldCounts instanceof Map ? fieldCounts.get(d) : (fieldCounts as Record<number, number>)[d]
    if (expected === undefined) this.fail(`unknown enum variant ${d}`, at)
    const n = this.size()
    if (n !== expected) this.fail(`enum variant ${d} needs ${expected} fields, found ${n}`, at)
    return d
  }

  /** An array body of `elementKind` elements, at most `max` of them, each read one level deeper. */
  array<T>(elementKind: number, max: number, what: string, element: (r: Reader, i: number) => T): Array<T> {
    this.expectKind(elementKind)
    const n = this.count(max, what)
    const out: Array<T> = []
    for (let i = 0; i < n; i++) {
      this.enter(i)
      out.push(element(this, i))
      this.leave()
    }
    return out
  }

  /** An Array<U8> body of exactly `length` bytes (or any length up to `max` when length is undefined). */
  byteArray(length: number | undefined, max = MAX_SIZE): Uint8Array {
    this.expectKind(Kind.U8)
    const at = this.pos
    const n = this.count(max, "bytes")
    if (length !== undefined && n !== length) this.fail(`expected ${length} bytes, found ${n}`, at)
    return this.bytes(n)
  }

  end(): void {
    if (this.pos !== this.buf.length) this.fail(`${this.buf.length - this.pos} trailing bytes after the payload`)
  }
}

const hex2 = (n: number): string => n.toString(16).padStart(2, "0")

// ---------------------------------------------------------------------------------------------------------------

export class Writer {
  private buf = new Uint8Array(256)
  private len = 0
  readonly path: Array<string | number> = []

  fail(reason: string): never {
    throw new EncodeFailure(pathText(this.path), reason)
  }

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return
    let cap = this.buf.length * 2
    while (cap < this.len + n) cap *= 2
    const next = new Uint8Array(cap)
    next.set(this.buf.subarray(0, this.len))
    this.buf = next
  }

  byte(b: number): void {
    this.ensure(1)
    this.buf[this.len++] = b
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length)
    this.buf.set(bytes, this.len)
    this.len += bytes.length
  }

  size(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n > MAX_SIZE) this.fail(`size ${n} is outside 0..${MAX_SIZE}`)
    let v = n
    for (;;) {
      const seven = v & 0x7f
      v >>>= 7
      if (v === 0) {
        this.byte(seven)
        return
      }
      this.byte(seven | 0x80)
    }
  }

  uint(value: number, bytes: number, what: string): void {
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** (8 * bytes))
      this.fail(`${what} ${value} is out of range`)
    let v = value
    for (let i = 0; i < bytes; i++) {
      this.byte(v % 256)
      v = Math.floor(v / 256)
    }
  }

  int(value: number, bytes: number, what: string): void {
    const half = 2 ** (8 * bytes - 1)
    if (!Number.isInteger(value) || value < -half || value >= half) this.fail(`${what} ${value} is out of range`)
    this.uint(value < 0 ? value + 2 * half : value, bytes, what)
  }

  bigUint(value: bigint, bytes: number, what: string): void {
    if (value < 0n || value >= 1n << BigInt(8 * bytes)) this.fail(`${what} ${value} is out of range`)
    this.raw(toLeBytes(value, bytes))
  }

  bigInt(value: bigint, bytes: number, what: string): void {
    const half = 1n << BigInt(8 * bytes - 1)
    if (value < -half || value >= half) this.fail(`${what} ${value} is out of range`)
    this.raw(toLeBytes(value, bytes))
  }

  stringBody(s: string): void {
    const raw = utf8Encoder.encode(s)
    this.size(raw.length)
    this.raw(raw)
  }

  /** An Array<U8> body (element kind, count, bytes), optionally of an exact length. */
  byteArray(bytes: Uint8Array, length?: number): void {
    if (length !== undefined && bytes.length !== length) this.fail(`expected ${length} bytes, found ${bytes.length}`)
    this.byte(Kind.U8)
    this.size(bytes.length)
    this.raw(bytes)
  }

  /** Runs `body` with `segment` on the path (for error messages). */
  at<T>(segment: string | number, body: () => T): T {
    this.path.push(segment)
    const v = body()
    this.path.pop()
    return v
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Generic values

const readAddressBody = (r: Reader): ManifestAddress => {
  const at = r.pos
  const d = r.byte()
  if (d === 0) {
    const nodeId = r.bytes(NODE_ID_LENGTH)
    if (!isEntityType(nodeId[0] ?? 0)) r.fail(`unknown entity type 0x${hex2(nodeId[0] ?? 0)}`, at + 1)
    return { type: "Static", nodeId }
  }
  if (d === 1) return { type: "Named", id: r.uint(4) }
  return r.fail(`unknown address variant ${d}`, at)
}

const readNonFungibleLocalIdBody = (r: Reader): NonFungibleLocalId => {
  const at = r.pos
  const d = r.byte()
  let id: NonFungibleLocalId
  if (d === 0) id = { type: "String", value: r.stringBody() }
  else if (d === 1) id = { type: "Integer", value: fromBigEndian(r.bytes(8)) }
  else if (d === 2) id = { type: "Bytes", value: r.bytes(r.count(MAX_NF_LOCAL_ID, "id bytes")) }
  else if (d === 3) id = { type: "RUID", value: r.bytes(32) }
  else return r.fail(`unknown non-fungible local id variant ${d}`, at)
  const problem = nonFungibleLocalIdProblem(id)
  if (problem !== undefined) r.fail(problem, at)
  return id
}

const fromBigEndian = (bytes: Uint8Array): bigint => {
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}

/** Reads the body of a value of kind `code` (its kind byte already read), at the current depth. */
export const readValueBody = (r: Reader, code: number): ManifestValue => {
  switch (code) {
    case Kind.Bool: {
      const at = r.pos
      const b = r.byte()
      if (b > 1) r.fail(`bool byte ${b} is neither 0 nor 1`, at)
      return { kind: "Bool", value: b === 1 }
    }
    case Kind.I8:
      return { kind: "I8", value: Number(r.bigInt(1)) }
    case Kind.I16:
      return { kind: "I16", value: Number(r.bigInt(2)) }
    case Kind.I32:
      return { kind: "I32", value: Number(r.bigInt(4)) }
    case Kind.I64:
      return { kind: "I64", value: r.bigInt(8) }
    case Kind.I128:
      return { kind: "I128", value: r.bigInt(16) }
    case Kind.U8:
      return { kind: "U8", value: r.byte() }
    case Kind.U16:
      return { kind: "U16", value: r.uint(2) }
    case Kind.U32:
      return { kind: "U32", value: r.uint(4) }
    case Kind.U64:
      return { kind: "U64", value: r.bigUint(8) }
    case Kind.U128:
      return { kind: "U128", value: r.bigUint(16) }
    case Kind.String:
      return { kind: "String", value: r.stringBody() }
    case Kind.Tuple: {
      const n = r.count(MAX_SIZE, "tuple fields")
      const fields: Array<ManifestValue> = []
      for (let i = 0; i < n; i++) fields.push(readValue(r, i))
      return { kind: "Tuple", fields }
    }
    case Kind.Enum: {
      const discriminator = r.byte()
      const n = r.count(MAX_SIZE, "enum fields")
      const fields: Array<ManifestValue> = []
      for (let i = 0; i < n; i++) fields.push(readValue(r, i))
      return { kind: "Enum", discriminator, fields }
    }
    case Kind.Array: {
      const at = r.pos
      const elementCode = r.byte()
      const elementKind = kindName(elementCode)
      if (elementKind === undefined) return r.fail(`unknown element value kind 0x${hex2(elementCode)}`, at)
      if (elementCode === Kind.U8) {
        const n = r.count(MAX_SIZE, "bytes")
        // The engine's generic decoder counts each byte element one level deeper, so a non-empty byte array
        // at the depth limit fails there too.
        if (n > 0) {
          r.enter(0)
          r.leave()
        }
        return { kind: "Bytes", value: r.bytes(n) }
      }
      const n = r.count(MAX_SIZE, "array elements")
      const elements: Array<ManifestValue> = []
      for (let i = 0; i < n; i++) {
        r.enter(i)
        elements.push(readValueBody(r, elementCode))
        r.leave()
      }
      return { kind: "Array", elementKind, elements }
    }
    case Kind.Map: {
      const at = r.pos
      const keyCode = r.byte()
      const valueCode = r.byte()
      const keyKind = kindName(keyCode)
      const valueKind = kindName(valueCode)
      if (keyKind === undefined || valueKind === undefined)
        return r.fail(`unknown map key or value kind 0x${hex2(keyCode)}/0x${hex2(valueCode)}`, at)
      const n = r.count(MAX_SIZE, "map entries", 2)
      const entries: Array<readonly [ManifestValue, ManifestValue]> = []
      for (let i = 0; i < n; i++) {
        r.enter(i)
        const k = readValueBody(r, keyCode)
        r.leave()
        r.enter(i)
        const v = readValueBody(r, valueCode)
        r.leave()
        entries.push([k, v])
      }
      return { kind: "Map", keyKind, valueKind, entries }
    }
    case Kind.Address:
      return { kind: "Address", value: readAddressBody(r) }
    case Kind.Bucket:
      return { kind: "Bucket", id: r.uint(4) }
    case Kind.Proof:
      return { kind: "Proof", id: r.uint(4) }
    case Kind.AddressReservation:
      return { kind: "AddressReservation", id: r.uint(4) }
    case Kind.Expression: {
      const at = r.pos
      const e = r.byte()
      if (e > 1) r.fail(`unknown expression ${e}`, at)
      return { kind: "Expression", value: e === 0 ? "EntireWorktop" : "EntireAuthZone" }
    }
    case Kind.Blob:
      return { kind: "Blob", hash: r.bytes(32) }
    case Kind.Decimal:
      return { kind: "Decimal", value: fixedToString(r.bigInt(24), DECIMAL) }
    case Kind.PreciseDecimal:
      return { kind: "PreciseDecimal", value: fixedToString(r.bigInt(32), PRECISE_DECIMAL) }
    case Kind.NonFungibleLocalId:
      return { kind: "NonFungibleLocalId", value: readNonFungibleLocalIdBody(r) }
    default:
      return r.fail(`unknown value kind 0x${hex2(code)}`, r.pos - 1)
  }
}

/** Reads a full value (kind byte and body) one level deeper, under `segment`. */
export const readValue = (r: Reader, segment: string | number): ManifestValue => {
  r.enter(segment)
  const code = r.byte()
  const v = readValueBody(r, code)
  r.leave()
  return v
}

export const readDecimalBody = (r: Reader): string => fixedToString(r.bigInt(24), DECIMAL)
export const readAddress = readAddressBody
export const readNonFungibleLocalId = readNonFungibleLocalIdBody

const writeAddressBody = (w: Writer, a: ManifestAddress): void => {
  if (a.type === "Static") {
    if (a.nodeId.length !== NODE_ID_LENGTH) w.fail(`a node id must be 30 bytes, found ${a.nodeId.length}`)
    if (!isEntityType(a.nodeId[0] ?? 0)) w.fail(`unknown entity type 0x${hex2(a.nodeId[0] ?? 0)}`)
    w.byte(0)
    w.raw(a.nodeId)
  } else {
    w.byte(1)
    w.uint(a.id, 4, "named address")
  }
}

const writeNonFungibleLocalIdBody = (w: Writer, id: NonFungibleLocalId): void => {
  const problem = nonFungibleLocalIdProblem(id)
  if (problem !== undefined) w.fail(problem)
  switch (id.type) {
    case "String":
      w.byte(0)
      w.stringBody(id.value)
      return
    case "Integer": {
      w.byte(1)
      const le = toLeBytes(id.value, 8)
      w.raw(le.reverse())
      return
    }
    case "Bytes":
      w.byte(2)
      w.size(id.value.length)
      w.raw(id.value)
      return
    case "RUID":
      w.byte(3)
      w.raw(id.value)
  }
}

export const writeDecimalBody = (w: Writer, text: string, precise = false): void => {
  const f = precise ? PRECISE_DECIMAL : DECIMAL
  const v = parseFixed(text, f)
  if (typeof v === "string") w.fail(`invalid ${precise ? "PreciseDecimal" : "Decimal"} "${text.slice(0, 80)}": ${v}`)
  w.raw(toLeBytes(v, f.bits / 8))
}

/** Writes the body of a value (not its kind byte). */
export const writeValueBody = (w: Writer, v: ManifestValue): void => {
  switch (v.kind) {
    case "Bool":
      w.byte(v.value ? 1 : 0)
      return
    case "I8":
      return w.int(v.value, 1, "I8")
    case "I16":
      return w.int(v.value, 2, "I16")
    case "I32":
      return w.int(v.value, 4, "I32")
    case "I64":
      return w.bigInt(v.value, 8, "I64")
    case "I128":
      return w.bigInt(v.value, 16, "I128")
    case "U8":
      return w.uint(v.value, 1, "U8")
    case "U16":
      return w.uint(v.value, 2, "U16")
    case "U32":
      return w.uint(v.value, 4, "U32")
    case "U64":
      return w.bigUint(v.value, 8, "U64")
    case "U128":
      return w.bigUint(v.value, 16, "U128")
    case "String":
      return w.stringBody(v.value)
    case "Tuple":
      w.size(v.fields.length)
      v.fields.forEach((f, i) => w.at(i, () => writeValue(w, f)))
      return
    case "Enum":
      w.uint(v.discriminator, 1, "enum discriminator")
      w.size(v.fields.length)
      v.fields.forEach((f, i) => w.at(i, () => writeValue(w, f)))
      return
    case "Bytes":
      w.byteArray(v.value)
      return
    case "Array":
      w.byte(Kind[v.elementKind])
      w.size(v.elements.length)
      v.elements.forEach((e, i) =>
        w.at(i, () => {
          if (valueKindOf(e) !== v.elementKind)
            w.fail(`element of kind ${valueKindOf(e)} in an Array<${v.elementKind}>`)
          writeValueBody(w, e)
        })
      )
      return
    case "Map":
      w.byte(Kind[v.keyKind])
      w.byte(Kind[v.valueKind])
      w.size(v.entries.length)
      v.entries.forEach(([k, val], i) =>
        w.at(i, () => {
          if (valueKindOf(k) !== v.keyKind) w.fail(`key of kind ${valueKindOf(k)} in a Map<${v.keyKind}, …>`)
          if (valueKindOf(val) !== v.valueKind) w.fail(`value of kind ${valueKindOf(val)} in a Map<…, ${v.valueKind}>`)
          writeValueBody(w, k)
          writeValueBody(w, val)
        })
      )
      return
    case "Address":
      return writeAddressBody(w, v.value)
    case "Bucket":
    case "Proof":
    case "AddressReservation":
      return w.uint(v.id, 4, v.kind)
    case "Expression":
      w.byte(v.value === "EntireWorktop" ? 0 : 1)
      return
    case "Blob":
      if (v.hash.length !== 32) w.fail("a blob hash must be 32 bytes")
      w.raw(v.hash)
      return
    case "Decimal":
      return writeDecimalBody(w, v.value)
    case "PreciseDecimal":
      return writeDecimalBody(w, v.value, true)
    case "NonFungibleLocalId":
      return writeNonFungibleLocalIdBody(w, v.value)
  }
}

export const writeValue = (w: Writer, v: ManifestValue): void => {
  w.byte(Kind[valueKindOf(v)])
  writeValueBody(w, v)
}

export const writeAddress = writeAddressBody
export const writeNonFungibleLocalId = writeNonFungibleLocalIdBody
