/**
 * The wallet's check of a Radix Connect deep link's signature (wallet-protocol.md §2). It calls the noble primitives
 * synchronously, so it imports `cryptoPrimitives.ts` statically: wallet-side code only (the devnet's mobile-wallet
 * emulator, tests). The dApp side in the browser signs through the `Crypto` service, which loads them on demand.
 */
import { fromHex, isHex, signatureMessage } from "./bytes"
import { primitives } from "./cryptoPrimitives"
import type { ParsedDeepLink } from "./deepLink"

/** The signature over blake2b-256 of the 'C' message verifies under `identity`. */
export const verifyDeepLinkSignature = (link: ParsedDeepLink): boolean => {
  if (!isHex(link.signature) || !isHex(link.identity) || link.signature.length !== 128 || link.identity.length !== 64)
    return false
  const { interactionId, metadata } = link.interaction
  if (metadata.origin !== link.origin || metadata.dAppDefinitionAddress !== link.dAppDefinitionAddress) return false
  const hash = primitives.blake2b256(
    signatureMessage({ interactionId, dAppDefinitionAddress: metadata.dAppDefinitionAddress, origin: metadata.origin })
  )
  return primitives.ed25519Verify(fromHex(link.signature), hash, fromHex(link.identity))
}
