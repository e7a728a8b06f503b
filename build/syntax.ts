/** The shapes of an ES module's syntax tree (ESTree: Rollup's `parseAst`, `ModuleInfo.ast`) that the plugins read. */

export interface NameNode {
  readonly type: string
  readonly name?: string
  readonly value?: unknown
}

/** A top-level statement, as far as imports and re-exports go. */
export interface StatementNode {
  readonly type: string
  /** Where the statement begins in its module's code. */
  readonly start?: number
  readonly source?: { readonly value: unknown } | null
  readonly specifiers?: ReadonlyArray<{
    readonly type: string
    readonly imported?: NameNode
    readonly local?: NameNode
    readonly exported?: NameNode
  }>
  readonly exported?: NameNode | null
}

/** Any node, read generically (walks that count or find nodes of a kind). */
export interface SyntaxNode {
  readonly type: string
  readonly static?: boolean
  readonly [key: string]: unknown
}

export const isNode = (x: unknown): x is SyntaxNode =>
  typeof x === "object" && x !== null && typeof (x as { type?: unknown }).type === "string"

/** An identifier's name, or a string literal's value (`export { a as "b" }`). */
export const nameOf = (node: NameNode | null | undefined): string | undefined =>
  node === null || node === undefined
    ? undefined
    : (node.name ?? (typeof node.value === "string" ? node.value : undefined))

/** A `Program`'s top-level statements. */
export const bodyOf = (ast: unknown): ReadonlyArray<StatementNode> | undefined => {
  const body = typeof ast === "object" && ast !== null && "body" in ast ? ast.body : undefined
  return Array.isArray(body) ? (body as ReadonlyArray<StatementNode>) : undefined
}

/** An import, or a re-export from another module. */
export const isFrom = (s: StatementNode): boolean =>
  s.type === "ImportDeclaration" ||
  s.type === "ExportAllDeclaration" ||
  (s.type === "ExportNamedDeclaration" && s.source !== null && s.source !== undefined)
