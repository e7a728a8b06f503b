/** Tokens of Radix manifest text (`.rtm`): identifiers, strings, typed integers, bools and punctuation. */

export type Token =
  | { readonly t: "ident"; readonly v: string; readonly line: number; readonly col: number }
  | { readonly t: "string"; readonly v: string; readonly line: number; readonly col: number }
  | { readonly t: "int"; readonly v: bigint; readonly kind: IntKind; readonly line: number; readonly col: number }
  | { readonly t: "bool"; readonly v: boolean; readonly line: number; readonly col: number }
  | {
      readonly t: "punct"
      readonly v: "(" | ")" | "<" | ">" | "," | ";" | "=>"
      readonly line: number
      readonly col: number
    }

export type IntKind = "I8" | "I16" | "I32" | "I64" | "I128" | "U8" | "U16" | "U32" | "U64" | "U128"

export class LexFailure {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly reason: string
  ) {}
}

const INT_BITS: Readonly<Record<string, readonly [IntKind, number, boolean]>> = {
  i8: ["I8", 8, true],
  i16: ["I16", 16, true],
  i32: ["I32", 32, true],
  i64: ["I64", 64, true],
  i128: ["I128", 128, true],
  u8: ["U8", 8, false],
  u16: ["U16", 16, false],
  u32: ["U32", 32, false],
  u64: ["U64", 64, false],
  u128: ["U128", 128, false]
}

const isIdentChar = (c: number): boolean =>
  (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export const tokenize = (text: string): Array<Token> => {
  const out: Array<Token> = []
  let i = 0
  let line = 1
  let col = 1
  const advance = (): string => {
    const c = text[i] ?? ""
    i += 1
    if (c === "\n") {
      line += 1
      col = 1
    } else col += 1
    return c
  }
  while (i < text.length) {
    const c = text[i] ?? ""
    if (c === "#") {
      const nl = text.indexOf("\n", i)
      const stop = nl < 0 ? text.length : nl
      col += stop - i
      i = stop
      continue
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\n") {
      advance()
      continue
    }
    const at = { line, col }
    if (c === "-" || (c >= "0" && c <= "9")) {
      let digits = ""
      if (c === "-") digits += advance()
      while (i < text.length && (text[i] ?? "") >= "0" && (text[i] ?? "") <= "9") digits += advance()
      if (digits === "" || digits === "-") throw new LexFailure(at.line, at.col, "a number needs digits")
      let suffix = ""
      while (i < text.length && /[a-z0-9]/.test(text[i] ?? "")) suffix += advance()
      const spec = INT_BITS[suffix]
      if (spec === undefined)
        throw new LexFailure(at.line, at.col, `an integer needs a type suffix (u8, i32, …), found "${suffix}"`)
      if (digits.length > 45) throw new LexFailure(at.line, at.col, "integer too long")
      const v = BigInt(digits)
      const [kind, bits, signed] = spec
      const min = signed ? -(1n << BigInt(bits - 1)) : 0n
      const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
      if (v < min || v > max) throw new LexFailure(at.line, at.col, `${digits} is out of range for ${suffix}`)
      out.push({ t: "int", v, kind, ...at })
      continue
    }
    if (c === '"') {
      advance()
      let s = ""
      for (;;) {
        if (i >= text.length) throw new LexFailure(at.line, at.col, "unterminated string")
        const escAt = { line, col }
        const ch = advance()
        if (ch === '"') break
        if (ch !== "\\") {
          s += ch
          continue
        }
        if (i >= text.length) throw new LexFailure(at.line, at.col, "unterminated string")
        const esc = advance()
        const simple: Readonly<Record<string, string>> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t"
        }
        if (simple[esc] !== undefined) s += simple[esc]
        else if (esc === "u") {
          const hex = text.slice(i, i + 4)
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new LexFailure(escAt.line, escAt.col, "\\u needs four hex digits")
          for (let k = 0; k < 4; k++) advance()
          s += String.fromCharCode(parseInt(hex, 16))
        } else throw new LexFailure(escAt.line, escAt.col, `unknown escape \\${esc === "\n" ? "(line break)" : esc}`)
      }
      if (LONE_SURROGATE.test(s)) throw new LexFailure(at.line, at.col, "a string with an unpaired surrogate")
      out.push({ t: "string", v: s, ...at })
      continue
    }
    if (/[A-Za-z]/.test(c)) {
      const start = i
      while (i < text.length && isIdentChar(text.charCodeAt(i))) i += 1
      col += i - start
      const id = text.slice(start, i)
      if (id === "true" || id === "false") out.push({ t: "bool", v: id === "true", ...at })
      else out.push({ t: "ident", v: id, ...at })
      continue
    }
    if (c === "=" && text[i + 1] === ">") {
      advance()
      advance()
      out.push({ t: "punct", v: "=>", ...at })
      continue
    }
    if (c === "(" || c === ")" || c === "<" || c === ">" || c === "," || c === ";") {
      advance()
      out.push({ t: "punct", v: c, ...at })
      continue
    }
    throw new LexFailure(at.line, at.col, `unexpected character "${c}"`)
  }
  return out
}
