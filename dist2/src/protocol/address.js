import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { base58Decode, base58Encode } from "./base58.js";
import { bytesEqual, concat } from "./bytes.js";
import { ProtocolError } from "./errors.js";
import { sha256d } from "./hash.js";
/** The four human-readable address kinds (wire-format §3.1). */
export const ADDRESS_PREFIXES = {
    FA: Uint8Array.of(0x5f, 0xb1), // public asset address: payload = RCD hash
    Fs: Uint8Array.of(0x64, 0x78), // private asset key: payload = ed25519 seed
    EC: Uint8Array.of(0x59, 0x2a), // public EC address: payload = ed25519 public key
    Es: Uint8Array.of(0x5d, 0xb6), // private EC key: payload = ed25519 seed
};
/** Length of every human-readable address string. */
export const ADDRESS_LENGTH = 52;
/** base58(prefix ‖ key ‖ first 4 bytes of sha256d(prefix ‖ key)). */
export function encodeAddress(kind, key32) {
    if (key32.length !== 32)
        throw new ProtocolError("BAD_LENGTH", "address", `payload must be 32 bytes, got ${key32.length}`);
    const body = concat(ADDRESS_PREFIXES[kind], key32);
    return base58Encode(concat(body, sha256d(body).subarray(0, 4)));
}
/**
 * Decode and validate a human-readable address: length 52, base58, known prefix (or exactly
 * `expected`), checksum. Returns the kind and the 32-byte payload.
 */
export function decodeAddress(text, expected, field = "address") {
    if (typeof text !== "string")
        throw new ProtocolError("BAD_VALUE", field, "expected an address string");
    if (text.length !== ADDRESS_LENGTH)
        throw new ProtocolError("BAD_LENGTH", field, `expected ${ADDRESS_LENGTH} characters, got ${text.length}`);
    const raw = base58Decode(text, field);
    if (raw.length !== 38)
        throw new ProtocolError("BAD_LENGTH", field, `decodes to ${raw.length} bytes, expected 38`);
    const prefix = raw.subarray(0, 2);
    const kind = Object.keys(ADDRESS_PREFIXES).find((k) => bytesEqual(ADDRESS_PREFIXES[k], prefix));
    if (kind === undefined)
        throw new ProtocolError("BAD_PREFIX", field, "unknown address prefix");
    if (expected !== undefined && kind !== expected)
        throw new ProtocolError("BAD_PREFIX", field, `expected an ${expected} address, got ${kind}`);
    const check = sha256d(raw.subarray(0, 34)).subarray(0, 4);
    if (!bytesEqual(check, raw.subarray(34)))
        throw new ProtocolError("BAD_CHECKSUM", field, "address checksum does not match");
    return { kind, key: raw.slice(2, 34) };
}
/** True when `text` is a valid address (of kind `expected`, if given). */
export function isValidAddress(text, expected) {
    try {
        decodeAddress(text, expected);
        return true;
    }
    catch {
        return false;
    }
}
/** RCD type 1: `01 ‖ pubkey` (33 bytes). */
export function rcd1(publicKey) {
    return concat(Uint8Array.of(1), publicKey);
}
/** Asset address hash of a public key: sha256d(01 ‖ pubkey) (what FA strings and tx inputs hold). */
export function rcd1Hash(publicKey) {
    return sha256d(rcd1(publicKey));
}
/** Key pair of a private key string; throws ProtocolError on a bad string. */
export function keyPairFromPrivate(privateText) {
    const { kind, key } = decodeAddress(privateText, undefined, "private key");
    if (kind !== "Fs" && kind !== "Es")
        throw new ProtocolError("BAD_PREFIX", "private key", `expected Fs or Es, got ${kind}`);
    return keyPairFromSeed(kind === "Fs" ? "FA" : "EC", key);
}
/** Key pair of a seed for the asset (FA) or EC kind. */
export function keyPairFromSeed(kind, seed) {
    const publicKey = publicKeyFromSeed(seed);
    return kind === "FA"
        ? {
            seed,
            publicKey,
            publicAddress: encodeAddress("FA", rcd1Hash(publicKey)),
            privateAddress: encodeAddress("Fs", seed),
        }
        : { seed, publicKey, publicAddress: encodeAddress("EC", publicKey), privateAddress: encodeAddress("Es", seed) };
}
//# sourceMappingURL=address.js.map