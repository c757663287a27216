/**
 * Hashing and signature verification, one core: the ceilings everything above them is measured against.
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import {
  publicKeyFromSeed,
  signEd25519,
  verifyEd25519,
  verifyEd25519Noble,
  verifyEd25519OpenSsl,
} from "../src/crypto/ed25519.js";
import { sha256 } from "../src/protocol/hash.js";
import type { BenchRow } from "./row.js";
import { type BenchCase, runCases } from "./suite.js";

/** Distinct signing keys in rotation: like EC keys repeating across commits, all in the KeyObject cache. */
export const BENCH_KEYS = 64;

/** The signed part of an entry commit is 40 bytes (wire-format §2.1): the most frequent signature. */
export const COMMIT_MESSAGE_BYTES = 40;

/** A valid check per key, for every verification benchmark (same inputs → comparable figures). */
export function benchSignatures(
  count = BENCH_KEYS,
): { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }[] {
  return Array.from({ length: count }, (_, i) => {
    const seed = sha256(Uint8Array.of(0xbe, 0x4c, i & 0xff, i >> 8));
    // 40 bytes as in a commit: 32 of hash, then 8 that differ per key.
    const message = new Uint8Array(COMMIT_MESSAGE_BYTES);
    message.set(sha256(seed), 0);
    message.set(seed.subarray(0, COMMIT_MESSAGE_BYTES - 32), 32);
    return { publicKey: publicKeyFromSeed(seed), message, signature: signEd25519(seed, message) };
  });
}

export async function cryptoRows(): Promise<BenchRow[]> {
  const data64 = sha256(Uint8Array.of(1)).slice();
  const block64 = new Uint8Array(64);
  block64.set(data64, 0);
  block64.set(data64, 32);
  const sigs = benchSignatures();
  let i = 0;
  const next = () => sigs[i++ % sigs.length]!;

  const cases: BenchCase[] = [
    {
      id: "crypto.sha256.node",
      name: "sha256 64 B, node:crypto one-shot (protocol sha256)",
      fn: () => sha256(block64),
    },
    { id: "crypto.sha256.noble", name: "sha256 64 B, @noble/hashes", fn: () => nobleSha256(block64) },
    {
      id: "crypto.ed25519.node",
      name: "ed25519 verify 40 B, the node's rule: canonical S, libsodium's yes, else OpenSSL's answer (1 core ceiling)",
      fn: () => {
        const c = next();
        if (!verifyEd25519(c.publicKey, c.message, c.signature)) throw new Error("valid signature did not verify");
      },
      note: "one core; a valid signature is libsodium's scalar multiplication (sodium-native)",
    },
    {
      id: "crypto.ed25519.openssl",
      name: "ed25519 verify 40 B, node:crypto (OpenSSL) alone + canonical rule",
      fn: () => {
        const c = next();
        if (!verifyEd25519OpenSsl(c.publicKey, c.message, c.signature))
          throw new Error("valid signature did not verify");
      },
      note: "one core; what a refused signature costs on top of libsodium's check",
    },
    {
      id: "crypto.ed25519.noble",
      name: "ed25519 verify 40 B, @noble/ed25519",
      fn: () => {
        const c = next();
        if (!verifyEd25519Noble(c.publicKey, c.message, c.signature)) throw new Error("valid signature did not verify");
      },
    },
  ];
  return runCases("crypto", cases);
}
