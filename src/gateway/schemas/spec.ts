/** Internal (not exported from the package index): the annotation a tagged union carries for the decode twin. */
import type { SchemaAST } from "effect"

/** Annotation key on a `taggedUnion` declaration: its discriminator and members, read by ../decode.ts. */
export const TaggedUnionSpec: unique symbol = Symbol.for("hswap/gateway/TaggedUnionSpec")

export interface TaggedUnionSpecValue {
  readonly key: string
  /** Discriminator value → member AST (a member with several literals appears once per literal). */
  readonly members: ReadonlyArray<readonly [SchemaAST.LiteralValue, SchemaAST.AST]>
  /** The unknown-variant fallback. */
  readonly fallback: SchemaAST.AST
}

/**
 * The property-signature `decode` functions of {@link ../schemas/common.ts opt} fields (`optionalWith(s, { nullable:
 * true })`): `Option.filter(isNotNull)`, i.e. a present `null` becomes absent and any other value stays as it is. The
 * fast decoder applies them without building an Option per present key.
 */
export const nullDroppingDecodes = new WeakSet<object>()
