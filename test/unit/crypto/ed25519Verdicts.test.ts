import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
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

/** Group order L; S must be below it (RFC 8032 §5.1.7, factomd VerifyCanonical). */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

/** A real key and signature: the seed is the SHA-256 of a label. */
function signed(label: string): { pub: Uint8Array; msg: Uint8Array; sig: Uint8Array } {
  const seed = new Uint8Array(createHash("sha256").update(label).digest());
  const msg = new TextEncoder().encode(`message of ${label}`);
  return { pub: publicKeyFromSeed(seed), msg, sig: signEd25519(seed, msg) };
}

/** `sig` with S (bytes 32..63, little-endian) replaced by `s`. */
function withScalar(sig: Uint8Array, s: bigint): Uint8Array {
  const out = sig.slice();
  for (let i = 32; i < 64; i++) {
    out[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return out;
}

describe("ed25519 edges: the canonical-S rule byte by byte", () => {
  const { pub, msg, sig } = signed("canonical");

  test("S above L in a high byte is refused though a lower byte is below L's", () => {
    // byte 30 of S is 1 where L's is 0 (S > L by about 2^240); byte 15 is 0 where L's is 0x14
    const s = L + (1n << 240n) - (0x14n << 120n);
    assert.ok(s > L);
    const forged = withScalar(sig, s);
    assert.equal(isCanonicalSignature(forged), false);
    assert.equal(verifyEd25519(pub, msg, forged), false);
    assert.equal(verifyEd25519Noble(pub, msg, forged), false);
  });

  test("S below L in a high byte is accepted though a lower byte is above L's", () => {
    // byte 31 is L's (0x10), byte 15 one below L's (0x13), every byte under it 0xff
    const s = L - (1n << 120n) + ((1n << 120n) - 1n) - (L & ((1n << 120n) - 1n));
    assert.ok(s < L);
    assert.equal(isCanonicalSignature(withScalar(sig, s)), true);
  });

  test("S equal to L but for its lowest byte, one above: refused; one below: accepted", () => {
    assert.equal(isCanonicalSignature(withScalar(sig, L + 1n)), false);
    assert.equal(isCanonicalSignature(withScalar(sig, L - 1n)), true);
    assert.equal(verifyEd25519(pub, msg, withScalar(sig, L + 1n)), false);
  });

  test("the real signature is canonical and verifies on every path", () => {
    assert.equal(isCanonicalSignature(sig), true);
    assert.equal(verifyEd25519(pub, msg, sig), true);
    assert.equal(verifyEd25519OpenSsl(pub, msg, sig), true);
    assert.equal(verifyEd25519Noble(pub, msg, sig), true);
  });
});

describe("ed25519 edges: libsodium's own verdict never throws", () => {
  const { pub, msg, sig } = signed("sodium");

  test("a key or a signature of the wrong length is false, not an exception", () => {
    if (!libsodiumLoaded()) {
      assert.equal(verifyEd25519Sodium(pub, msg, sig), undefined);
      return;
    }
    assert.equal(verifyEd25519Sodium(pub, msg, sig), true);
    assert.equal(verifyEd25519Sodium(pub.subarray(0, 31), msg, sig), false);
    assert.equal(verifyEd25519Sodium(pub, msg, sig.subarray(0, 63)), false);
    assert.equal(verifyEd25519Sodium(new Uint8Array(0), msg, new Uint8Array(0)), false);
  });
});

describe("ed25519 edges: where libsodium cannot load, OpenSSL alone answers", () => {
  // A platform without sodium-native's prebuild, reproduced in a child node: its module resolution refuses
  // the name "sodium-native" (as when the package or its addon is missing) before our module loads.
  const hideSodium = `
    const Module = require("node:module");
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (request === "sodium-native") throw Object.assign(new Error("no prebuild here"), { code: "MODULE_NOT_FOUND" });
      return resolve.call(this, request, ...rest);
    };
    const [url, pub, msg, sig] = process.argv.slice(1);
    const hex = (h) => new Uint8Array(Buffer.from(h, "hex"));
    import(url).then((ed) => {
      const forged = hex(msg + "00");
      process.stdout.write(JSON.stringify({
        loaded: ed.libsodiumLoaded(),
        sodium: ed.verifyEd25519Sodium(hex(pub), hex(msg), hex(sig)) ?? "undefined",
        good: ed.verifyEd25519(hex(pub), hex(msg), hex(sig)),
        forged: ed.verifyEd25519(hex(pub), forged, hex(sig)),
      }));
    });`;

  test("libsodiumLoaded is false, libsodium's verdict is undefined, and verification is unchanged", () => {
    const { pub, msg, sig } = signed("no sodium");
    const url = new URL("../../../src/crypto/ed25519.js", import.meta.url).href;
    const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
    const child = spawnSync(process.execPath, ["-e", hideSodium, url, hex(pub), hex(msg), hex(sig)], {
      encoding: "utf8",
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { loaded: false, sodium: "undefined", good: true, forged: false });
  });
});
