import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as nodeSign,
  verify as nodeVerify,
} from "node:crypto";
import { createRequire } from "node:module";
import * as noble from "@noble/ed25519";

/**
 * Ed25519 for the protocol (wire-format §0.5). Verification is node:crypto (OpenSSL), ~12× faster than
 * @noble/ed25519 here (bench/crypto), with the reference node's canonical rule applied first; libsodium
 * (sodium-native) answers first where it loads, ~2.2× faster again (below).
 * @noble/ed25519 is kept for key derivation in tools and as an independent cross-check in tests.
 */

// noble v3 needs a synchronous sha512 to offer its sync API. Taken from node:crypto directly, not
// protocol/hash.ts: crypto/ is the floor every other folder builds on, and imports none of them.
noble.hashes.sha512 = (m: Uint8Array) => Uint8Array.from(createHash("sha512").update(m).digest());

/** DER prefixes that wrap a raw 32-byte key for node:crypto (RFC 8410). */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** Group order L of ed25519, little-endian scalar bound for S (canonical rule). */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
/** L as 32 little-endian bytes: S is compared with it byte by byte from the top (no BigInt per check). */
const L_BYTES: Uint8Array = Uint8Array.from({ length: 32 }, (_, i) => Number((L >> BigInt(8 * i)) & 0xffn));

/**
 * Public keys seen recently → KeyObject. Creating a KeyObject costs about as much as hashing a
 * few hundred bytes; EC keys repeat across commits, so the cache saves it on the hot path.
 * Bounded so hostile input cannot grow it without limit.
 */
export const KEY_CACHE_LIMIT = 10_000;
const keyCache = new Map<string, KeyObject>();

/** How many public keys the cache holds now (at most KEY_CACHE_LIMIT): for the tests and diagnostics. */
export function publicKeyCacheSize(): number {
  return keyCache.size;
}

function publicKeyObject(pub: Uint8Array): KeyObject {
  const id = Buffer.from(pub.buffer, pub.byteOffset, pub.byteLength).toString("latin1");
  let key = keyCache.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, pub]), format: "der", type: "spki" });
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value!);
    keyCache.set(id, key);
  }
  return key;
}

/** libsodium's detached verify: true when `signature` by `publicKey` signs `message`. */
type SodiumVerify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

/**
 * libsodium's `crypto_sign_verify_detached` through sodium-native's prebuilt addon: 47–50 µs per verify on
 * this project's Xeon vCPUs against 105–108 µs for OpenSSL (node:crypto) in the same process. libsodium is
 * stricter than the reference (it also refuses small-order and non-canonical keys), and everything it
 * accepts satisfies the same cofactorless equation OpenSSL checks, so it is used only to say yes: a
 * signature it refuses is asked of OpenSSL, whose answer stands. The accepted set stays OpenSSL's (the
 * consensus rule the tests pin, small-order keys included); only a refused signature costs both.
 * Undefined where the addon does not load (a platform without a prebuild): OpenSSL alone then. Loaded at the
 * first verify, not with this module: ~0.1 s of CPU, and a node's main thread, whose verifies run in the pool's
 * threads, then never loads it before (or at all after) its start (docs/performance.md §Restart).
 */
let sodiumVerify: SodiumVerify | undefined | null = null;

/** libsodium's verify, loaded on first use (null: not tried yet; undefined: it does not load here). */
function sodium(): SodiumVerify | undefined {
  if (sodiumVerify === null) sodiumVerify = loadSodiumVerify();
  return sodiumVerify;
}

function loadSodiumVerify(): SodiumVerify | undefined {
  let verify: unknown;
  try {
    const sodium = createRequire(import.meta.url)("sodium-native") as { crypto_sign_verify_detached?: unknown };
    verify = sodium.crypto_sign_verify_detached;
  } catch {
    // not installed, or no prebuild for this platform: OpenSSL alone
  }
  return typeof verify === "function" ? (verify as SodiumVerify) : undefined;
}

/** True when libsodium is answering first (sodium-native loaded); false: OpenSSL alone. */
export function libsodiumLoaded(): boolean {
  return sodium() !== undefined;
}

/**
 * S (bytes 32..63, little-endian) must be < L (reference rule); that keeps the top three bits of byte 63
 * clear too: a set one makes byte 63 above L's top byte 0x10, refused at the first comparison.
 */
export function isCanonicalSignature(sig: Uint8Array): boolean {
  if (sig.length !== 64) return false;
  for (let i = 31; i >= 0; i--) {
    const s = sig[32 + i]!;
    const l = L_BYTES[i]!;
    // two tests, not `s !== l ? s < l`: there `s <= l` could never differ (an untestable mutant)
    if (s < l) return true;
    if (s > l) return false;
  }
  return false; // S = L
}

/**
 * Verify an ed25519 signature as the reference node does (VerifyCanonical). Never throws:
 * malformed keys or signatures verify false.
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || !isCanonicalSignature(signature)) return false;
  // Stryker disable next-line BlockStatement: libsodium's yes is a subset of OpenSSL's, asked next; only speed differs
  try {
    // Stryker disable next-line OptionalChaining: without libsodium the call throws, caught: OpenSSL answers all the same
    if (sodium()?.(signature, message, publicKey) === true) return true;
  } catch {
    // a refusal by the addon: OpenSSL decides
  }
  return openSslVerify(publicKey, message, signature);
}

/** The consensus rule through node:crypto (OpenSSL) alone, after the canonical check; never throws. */
export function verifyEd25519OpenSsl(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || !isCanonicalSignature(signature)) return false;
  return openSslVerify(publicKey, message, signature);
}

function openSslVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return nodeVerify(null, message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

/** libsodium's verdict alone (undefined when it did not load): for the tests' agreement checks. */
export function verifyEd25519Sodium(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean | undefined {
  const verify = sodium();
  if (verify === undefined) return undefined;
  try {
    return verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

/** Same rule through @noble/ed25519 (zip215: false = strict RFC 8032): the independent cross-check. */
export function verifyEd25519Noble(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || !isCanonicalSignature(signature)) return false;
  try {
    return noble.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/**
 * Ed25519 public key (32 bytes) of a 32-byte seed (the payload of Fs/Es strings), through node:crypto: noble's
 * first derivation builds its base-point tables, 60–160 ms of a node's start (docs/performance.md §Restart);
 * the tests check it against @noble/ed25519.
 */
export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new RangeError(`ed25519 seed must be 32 bytes, got ${seed.length}`);
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  const spki = createPublicKey(key).export({ format: "der", type: "spki" });
  return new Uint8Array(spki.subarray(SPKI_PREFIX.length));
}

/** Deterministic RFC 8032 signature (64 bytes) of `message` with the key of `seed` (node:crypto). */
export function signEd25519(seed: Uint8Array, message: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new RangeError(`ed25519 seed must be 32 bytes, got ${seed.length}`);
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  return new Uint8Array(nodeSign(null, message, key));
}
