/**
 * Cheap input checks for Radix addresses and transaction hashes on the configured network (a 4xx otherwise). The
 * codec is the shared one in src/exchange/bech32m.ts.
 */
import { isAddressOf as isBech32mAddressOf } from "../exchange/bech32m"

export { hrpSuffix } from "../exchange/bech32m"

export type AddressKind = "account" | "resource" | "txid"

/** True when `text` is a well-formed `kind` address (or intent hash for `txid`) of `networkId`. */
export const isAddressOf = (kind: AddressKind, networkId: number, text: string): boolean =>
  isBech32mAddressOf(kind, networkId, text)
