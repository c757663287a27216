/**
 * src/protocol/hash.ts's functions for the browser, on @noble/hashes: the panel serves this module under
 * hash.ts's own URL (/assets/protocol/hash.js), so the protocol modules the in-browser proof verifier loads
 * (proofRules.js and its imports, compiled once for Node) hash with it instead of node:crypto. The compiler
 * holds it to hash.ts's exports (below): a function added there and missing here fails the build.
 */
import type * as NodeHash from "@ledgerd/protocol-hash";

/** @noble/hashes' SHA-2, served by the panel from the project's node_modules. */
const NOBLE_SHA2 = "/assets/noble-hashes/sha2.js";

type Hash = (data: Uint8Array) => Uint8Array;
const noble = (await import(NOBLE_SHA2)) as { sha256: Hash; sha512: Hash };

/** SHA-256 (32 bytes). */
export function sha256(data: Uint8Array): Uint8Array {
  return noble.sha256(data);
}

/** SHA-512 (64 bytes). */
export function sha512(data: Uint8Array): Uint8Array {
  return noble.sha512(data);
}

/** SHA-512 of `data` written into `out` at `offset` (64 bytes). */
export function writeSha512(data: Uint8Array, out: Uint8Array, offset: number): void {
  out.set(sha512(data), offset);
}

/** SHA-256 as lowercase hex (hash.ts's one-shot hex digest of the write path). */
export function sha256Hex(data: Uint8Array): string {
  let out = "";
  for (const b of sha256(data)) out += b.toString(16).padStart(2, "0");
  return out;
}

/** sha256(sha256(x)). */
export function sha256d(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/** First 32 bytes of SHA-512. */
export function sha512half(data: Uint8Array): Uint8Array {
  return sha512(data).subarray(0, 32);
}

void ({ sha256, sha256Hex, sha512, sha256d, sha512half, writeSha512 } satisfies typeof NodeHash);
