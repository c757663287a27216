import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { describe, test } from "node:test";
import * as noble from "@noble/ed25519";
import {
  isCanonicalSignature,
  libsodiumLoaded,
  publicKeyFromSeed,
  signEd25519,
  verifyEd25519,
  verifyEd25519Noble,
  verifyEd25519OpenSsl,
  verifyEd25519Sodium,
} from "../../../src/crypto/ed25519.js";
import { Random } from "../../support/random.js";

/** Group order L; S must be below it (RFC 8032 §5.1.7, factomd VerifyCanonical). */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

function scalarOf(sig: Uint8Array): bigint {
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
  return s;
}
function withScalar(sig: Uint8Array, s: bigint): Uint8Array {
  const out = sig.slice();
  for (let i = 32; i < 64; i++) {
    out[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return out;
}
/** Public key of a seed the node:crypto way (independent of noble's derivation). */
function nodePublicKey(seed: Uint8Array): Uint8Array {
  const key = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
    format: "der",
    type: "pkcs8",
  });
  const spki = createPublicKey(key).export({ format: "der", type: "spki" });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

describe("ed25519: node:crypto against @noble/ed25519", () => {
  const rng = new Random(0xed25519);

  test("random keys and messages: same public keys, same signatures, both verify", () => {
    for (let i = 0; i < 200; i++) {
      const seed = rng.bytes(32);
      const msg = rng.bytes(rng.int(0, 300));
      const pub = publicKeyFromSeed(seed);
      assert.deepEqual(pub, nodePublicKey(seed), `seed ${rng.seed} case ${i}`);
      assert.deepEqual(pub, noble.getPublicKey(seed), `the independent derivation agrees: seed ${rng.seed} case ${i}`);
      const sig = signEd25519(seed, msg);
      assert.deepEqual(sig, noble.sign(msg, seed), "deterministic RFC 8032 signatures agree");
      assert.ok(isCanonicalSignature(sig));
      assert.equal(verifyEd25519(pub, msg, sig), true);
      assert.equal(verifyEd25519Noble(pub, msg, sig), true);
    }
  });

  test("altered message, signature or key: both refuse, and agree", () => {
    for (let i = 0; i < 200; i++) {
      const seed = rng.bytes(32);
      const msg = rng.bytes(rng.int(1, 200));
      const pub = publicKeyFromSeed(seed);
      const sig = signEd25519(seed, msg);
      const m2 = msg.slice();
      m2[rng.int(0, m2.length - 1)]! ^= 1 << rng.int(0, 7);
      const s2 = sig.slice();
      s2[rng.int(0, 63)]! ^= 1 << rng.int(0, 7);
      const p2 = pub.slice();
      p2[rng.int(0, 31)]! ^= 1 << rng.int(0, 7);
      for (const [p, m, s, what] of [
        [pub, m2, sig, "message"],
        [pub, msg, s2, "signature"],
        [p2, msg, sig, "public key"],
      ] as const) {
        assert.equal(verifyEd25519(p, m, s), false, `${what} altered, case ${i}`);
        assert.equal(verifyEd25519Noble(p, m, s), false, `${what} altered (noble), case ${i}`);
      }
    }
  });

  test("non-canonical S (S + L) is refused by both", () => {
    for (let i = 0; i < 50; i++) {
      const seed = rng.bytes(32);
      const msg = rng.bytes(32);
      const sig = signEd25519(seed, msg);
      const s = scalarOf(sig);
      const bad = withScalar(sig, s + L);
      assert.equal(scalarOf(bad) % L, s, "same scalar mod L");
      assert.equal(isCanonicalSignature(bad), false);
      assert.equal(verifyEd25519(publicKeyFromSeed(seed), msg, bad), false);
      assert.equal(verifyEd25519Noble(publicKeyFromSeed(seed), msg, bad), false);
    }
  });

  test("any of the top three bits of sig[63] set is refused", () => {
    const seed = rng.bytes(32);
    const msg = rng.bytes(40);
    const sig = signEd25519(seed, msg);
    for (const bit of [0x20, 0x40, 0x80]) {
      const bad = sig.slice();
      bad[63]! |= bit;
      assert.equal(isCanonicalSignature(bad), false);
      assert.equal(verifyEd25519(publicKeyFromSeed(seed), msg, bad), false);
      assert.equal(verifyEd25519Noble(publicKeyFromSeed(seed), msg, bad), false);
    }
  });

  test("garbage keys and signatures verify false without throwing, in both", () => {
    for (let i = 0; i < 300; i++) {
      const pub = rng.bytes(rng.chance(0.9) ? 32 : rng.int(0, 40));
      const sig = rng.bytes(rng.chance(0.9) ? 64 : rng.int(0, 70));
      if (sig.length === 64 && rng.chance(0.5)) sig[63]! &= 0x0f;
      const msg = rng.bytes(rng.int(0, 64));
      assert.equal(verifyEd25519(pub, msg, sig), false);
      assert.equal(verifyEd25519Noble(pub, msg, sig), false);
    }
  });

  test("seeds must be 32 bytes", () => {
    assert.throws(() => publicKeyFromSeed(new Uint8Array(31)), {
      name: "RangeError",
      message: "ed25519 seed must be 32 bytes, got 31",
    });
    assert.throws(() => signEd25519(new Uint8Array(33), new Uint8Array(1)), {
      name: "RangeError",
      message: "ed25519 seed must be 32 bytes, got 33",
    });
  });

  test("canonical S: L − 1 is the largest accepted, L the smallest refused; only 64-byte signatures", () => {
    const sig = signEd25519(rng.bytes(32), rng.bytes(16));
    assert.equal(isCanonicalSignature(withScalar(sig, L - 1n)), true);
    assert.equal(isCanonicalSignature(withScalar(sig, L)), false);
    assert.equal(isCanonicalSignature(withScalar(sig, 0n)), true);
    for (const length of [0, 63, 65]) {
      const other = new Uint8Array(length);
      other.set(sig.subarray(0, Math.min(64, length)));
      assert.equal(isCanonicalSignature(other), false, `${length} bytes`);
    }
  });

  test("the noble cross-check is strict RFC 8032: a non-canonical key encoding is refused", () => {
    // y = p + 1 encodes the neutral point without reducing y below p; with R = the neutral point and S = 0
    // the equation holds for any message, so only the strict decoding refuses it (ZIP 215 would accept).
    const p = (1n << 255n) - 19n;
    const littleEndian = (v: bigint): Uint8Array => withScalar(new Uint8Array(64), v).subarray(32);
    const key = littleEndian(p + 1n);
    const sig = new Uint8Array(64);
    sig.set(littleEndian(1n), 0);
    assert.equal(noble.verify(sig, Uint8Array.of(1), key, { zip215: true }), true, "the permissive rule accepts it");
    assert.equal(verifyEd25519Noble(key, Uint8Array.of(1), sig), false);
  });

  test("a small-order key verifies on the consensus path as in the reference, and not in strict noble", () => {
    // The neutral point (y = 1, canonical) as key, R = the neutral point, S = 0: [S]B = R + [h]A holds for
    // every message. factomd's Verify (ref10, cofactorless, no small-order check) accepts it, and so must
    // the consensus path, or a node would refuse a block the reference network accepts (docs/compat.md).
    const neutral = new Uint8Array(32);
    neutral[0] = 1;
    const sig = new Uint8Array(64);
    sig.set(neutral, 0);
    for (const msg of [Uint8Array.of(1), rng.bytes(40)]) {
      assert.equal(verifyEd25519(neutral, msg, sig), true, "consensus path (node:crypto) accepts, as factomd");
      assert.equal(verifyEd25519Noble(neutral, msg, sig), false, "strict noble refuses small-order keys");
      assert.equal(verifyEd25519Sodium(neutral, msg, sig), false, "libsodium refuses it: OpenSSL's yes stands");
    }
    const other = sig.slice();
    other[32] = 1; // S = 1: the equation no longer holds
    assert.equal(verifyEd25519(neutral, Uint8Array.of(1), other), false);
  });
});

describe("ed25519: libsodium answers first, OpenSSL's rule stands", () => {
  const rng = new Random(0x50d1);

  test("sodium-native's prebuilt addon loads here (the fast path is the one measured)", () => {
    assert.equal(libsodiumLoaded(), true);
  });

  test("libsodium says yes only where OpenSSL does; the consensus answer is always OpenSSL's", () => {
    // valid signatures, one flipped bit of the message, signature or key, and garbage: libsodium's yes
    // must imply OpenSSL's (it is stricter), and verifyEd25519 must equal OpenSSL alone on every case
    let sodiumYes = 0;
    for (let i = 0; i < 300; i++) {
      const seed = rng.bytes(32);
      const msg = rng.bytes(rng.int(0, 200));
      const pub = publicKeyFromSeed(seed);
      const sig = signEd25519(seed, msg);
      const cases: [Uint8Array, Uint8Array, Uint8Array][] = [[pub, msg, sig]];
      const s2 = sig.slice();
      s2[rng.int(0, 63)]! ^= 1 << rng.int(0, 7);
      const p2 = pub.slice();
      p2[rng.int(0, 31)]! ^= 1 << rng.int(0, 7);
      cases.push([pub, msg, s2], [p2, msg, sig], [rng.bytes(32), msg, sig]);
      if (msg.length > 0) {
        const m2 = msg.slice();
        m2[rng.int(0, m2.length - 1)]! ^= 1 << rng.int(0, 7);
        cases.push([pub, m2, sig]);
      }
      for (const [p, m, s] of cases) {
        const openSsl = verifyEd25519OpenSsl(p, m, s);
        const sodium = verifyEd25519Sodium(p, m, s);
        if (sodium === true) {
          sodiumYes++;
          assert.equal(openSsl, true, `libsodium accepted what OpenSSL refuses, case ${i}`);
        }
        assert.equal(verifyEd25519(p, m, s), openSsl, `case ${i}`);
      }
    }
    assert.ok(sodiumYes >= 300, `libsodium verified the valid signatures (${sodiumYes})`);
  });
});
