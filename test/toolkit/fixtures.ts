/** Loads the shared wallet vectors (../shared/fixtures/wallet) and decodes them with Schema. */
import { readFileSync } from "node:fs"
import { Schema } from "effect"

const read = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../shared/fixtures/wallet/${name}`, import.meta.url), "utf8"))

const SharedSecretVectors = Schema.Struct({
  salt: Schema.String,
  info: Schema.String,
  vectors: Schema.Array(
    Schema.Struct({
      privateKey1: Schema.String,
      publicKey1: Schema.String,
      privateKey2: Schema.String,
      publicKey2: Schema.String,
      sharedSecret: Schema.String
    })
  )
})

const SignatureVectors = Schema.Struct({
  signature: Schema.Struct({
    secret: Schema.String,
    identity_ed25519_public_key: Schema.String,
    x25519_public_key: Schema.String,
    interactionId: Schema.String,
    dAppDefinitionAddress: Schema.String,
    origin: Schema.String,
    message_hex: Schema.String,
    blake2b256_hex: Schema.String,
    signature_hex: Schema.String,
    request_base64url: Schema.String
  }),
  curve25519_shared_secret: Schema.Struct({
    secret_a: Schema.String,
    secret_b: Schema.String,
    salt: Schema.String,
    info: Schema.String,
    shared_secret_hex: Schema.String
  }),
  blake2b256: Schema.Struct({ input_utf8: Schema.String, hash_hex: Schema.String }),
  sealbox_layout: Schema.Struct({ iv_bytes: Schema.Number, tag_bytes: Schema.Number, example_hex: Schema.String })
})

export const sharedSecretVectors = Schema.decodeUnknownSync(SharedSecretVectors)(read("shared-secret-derivation.json"))
export const signatureVectors = Schema.decodeUnknownSync(SignatureVectors)(read("signature.json"))

/** The relay decryption example of wallet-protocol.md §2 (built from shared-secret vector 1). */
export const relayExample = {
  dAppSecret: "f88ba5bd75d92e9d9e2ca5e033e0df30b5d2037265ebd8a89e792e1b3c1a597b",
  walletSecret: "480032c1a072c054e467d74de3317fe8edf7a5474b506dbef72c4a7a0f426a6c",
  walletPublicKey: "d75c0da37485122bdfd27998015791d34b27f5b1d0ff013b826002e3c825613a",
  dAppDefinitionAddress: "dapp_definition_address",
  iv: "000102030405060708090a0b",
  plaintext:
    '{"discriminator":"failure","interactionId":"b25c8587-d08a-48bf-beb6-a80ae98c5106","error":"rejectedByUser"}',
  data: "000102030405060708090a0b613e68c7c56b674bbf670fbf644ab027d763e3174752a10017cd086fc3acb72926588c270f773086597d48e23e915c8e56ec6371deb8affd81eacf4aeb01b7050c779abe09fcbe75320a283b692c990d68b534f31545cd6a0aa99032b3acbf9bc56ba0c6238d9e249ad9e68c9c2720c0ca581faf6867592cc9a386"
} as const
