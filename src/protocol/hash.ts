import * as nodeCrypto from "node:crypto";
import { createHash } from "node:crypto";

/**
 * Hashes of wire-format §0.3. node:crypto one-shot `crypto.hash` where available (Node ≥ 20.12):
 * ~2× faster than @noble/hashes for 64-byte inputs (bench/protocol.bench).
 */
type OneShot = (alg: string, data: Uint8Array, enc: "hex" | "latin1") => string;
const oneShot: OneShot | undefined = (nodeCrypto as unknown as { hash?: OneShot }).hash;

/**
 * A digest as a view of Node's Buffer pool. A digest into a Buffer of its own (`"buffer"`) gets a malloc'ed
 * store, an ArrayBuffer extension and a free by the GC's sweeper: ~5.0 µs of process CPU per 32-byte digest
 * of 64 bytes here, against ~2.8 µs for the digest as a latin1 string (one byte per character, on V8's heap)
 * copied into the pool (issue 35: the write path makes several per entry; docs/performance.md
 * §"Signature checks per entry", change 13). The view keeps its 8 KiB pool slab alive while it lives, as
 * `hexBytes`'s do.
 */
function digest(alg: "sha256" | "sha512", data: Uint8Array): Uint8Array {
  const b = oneShot ? Buffer.from(oneShot(alg, data, "latin1"), "latin1") : createHash(alg).update(data).digest();
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** SHA-512 of `data` written into `out` at `offset` (64 bytes), with no buffer of its own (see `digest`). */
export function writeSha512(data: Uint8Array, out: Uint8Array, offset: number): void {
  if (oneShot === undefined) {
    out.set(createHash("sha512").update(data).digest(), offset);
    return;
  }
  const text = oneShot("sha512", data, "latin1");
  for (let i = 0; i < 64; i++) out[offset + i] = text.charCodeAt(i);
}

/** SHA-256 (32 bytes). */
export function sha256(data: Uint8Array): Uint8Array {
  return digest("sha256", data);
}

/**
 * SHA-256 as lowercase hex (64 characters), as `toHex(sha256(data))`. The write path answers with hashes in
 * hex: a one-shot digest into a string costs less than one into a Buffer (an ArrayBuffer with its own malloc'ed
 * store and GC bookkeeping: ~2.5 against ~1.0 µs for 40 bytes here), and the hex is made once (issue 35).
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
