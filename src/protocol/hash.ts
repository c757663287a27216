import * as nodeCrypto from "node:crypto";
import { createHash } from "node:crypto";

/**
 * Hashes of wire-format §0.3. node:crypto one-shot `crypto.hash` where available (Node ≥ 20.12):
 * ~2× faster than @noble/hashes for 64-byte inputs (bench/protocol.bench).
 */
type OneShot = {
  (alg: string, data: Uint8Array, enc: "buffer"): Buffer;
  (alg: string, data: Uint8Array, enc: "hex"): string;
};
const oneShot: OneShot | undefined = (nodeCrypto as unknown as { hash?: OneShot }).hash;

function digest(alg: "sha256" | "sha512", data: Uint8Array): Uint8Array {
  const b = oneShot ? oneShot(alg, data, "buffer") : createHash(alg).update(data).digest();
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** SHA-256 (32 bytes). */
export function sha256(data: Uint8Array): Uint8Array {
  return digest("sha256", data);
}

/**
 * SHA-256 as lowercase hex (64 characters), as `toHex(sha256(data))`. The write path keys its maps and writes
 * its answers by hashes in hex: a one-shot digest into a string costs less than one into a Buffer (an
 * ArrayBuffer with its own malloc'ed store and GC bookkeeping: ~2.5 against ~1.0 µs for 40 bytes here), and
 * the hex is then made once instead of per lookup (issue 35).
 */
export function sha256Hex(data: Uint8Array): string {
  return oneShot ? oneShot("sha256", data, "hex") : createHash("sha256").update(data).digest("hex");
}

/** SHA-512 (64 bytes). */
export function sha512(data: Uint8Array): Uint8Array {
  return digest("sha512", data);
}

/** sha256(sha256(x)): address checksums, RCD hash, ChainIDHash, Weld. */
export function sha256d(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/** First 32 bytes of SHA-512: admin block back-reference hash. */
export function sha512half(data: Uint8Array): Uint8Array {
  return sha512(data).subarray(0, 32);
}
