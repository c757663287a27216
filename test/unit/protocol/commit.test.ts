import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { publicKeyFromSeed, verifyEd25519Noble } from "../../../src/crypto/ed25519.js";
import { toHex, U48_MAX } from "../../../src/protocol/bytes.js";
import {
  buildChainCommit,
  buildEntryCommit,
  type ChainCommit,
  type Commit,
  commitFullHash,
  commitSignedPart,
  commitTxId,
  decodeChainCommit,
  decodeEntryCommit,
  type EntryCommit,
  encodeCommit,
  parseChainCommit,
  parseEntryCommit,
  verifyCommitSignature,
} from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, entryCreditCost, entryHash, marshalEntry, weld } from "../../../src/protocol/entry.js";
import { sha256, sha256d, sha256Hex } from "../../../src/protocol/hash.js";
import { commitToJson } from "../../../src/protocol/json/ecBlockJson.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";

const L = (1n << 252n) + 27742317777372353535851937790883648493n;

function randomEntryRaw(rng: Random, firstOfChain: boolean): Uint8Array {
  const extIds = Array.from({ length: rng.int(firstOfChain ? 1 : 0, 3) }, () => rng.bytes(rng.int(0, 30)));
  const content = rng.bytes(rng.chance(0.3) ? rng.int(0, 5000) : rng.int(0, 100));
  const chainId = firstOfChain ? chainIdFromExtIds(extIds) : rng.bytes(32);
  return marshalEntry({ version: 0, chainId, extIds, content });
}

/** Re-parse after changing byte `at` (the parser checks only structure). */
function alter(commit: Commit, at: number, xor: number): Commit {
  const raw = commit.raw.slice();
  raw[at]! ^= xor;
  return commit.kind === "entry" ? parseEntryCommit(raw) : parseChainCommit(raw);
}

function withS(commit: Commit, s: bigint): Commit {
  const raw = commit.raw.slice();
  const base = raw.length - 32;
  for (let i = 0; i < 32; i++) {
    raw[base + i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return commit.kind === "entry" ? parseEntryCommit(raw) : parseChainCommit(raw);
}

function sOf(commit: Commit): bigint {
  let s = 0n;
  for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(commit.signature[32 + i]!);
  return s;
}

describe("commits (wire-format §2)", () => {
  const rng = new Random(0xc0);

  test("random entry commits: build → decode → same fields, ids and signature", () => {
    for (let i = 0; i < 200; i++) {
      const entryRaw = randomEntryRaw(rng, false);
      const seed = rng.bytes(32);
      const milliTime = rng.int(0, U48_MAX);
      const credits = rng.chance(0.5) ? undefined : rng.int(1, 10);
      const c: EntryCommit = buildEntryCommit({ entryRaw, milliTime, credits, ecSeed: seed });
      assert.equal(c.raw.length, 136);
      assert.deepEqual(decodeEntryCommit(c.raw), c, `seed ${rng.seed} case ${i}`);
      assert.deepEqual(encodeCommit(c), c.raw);
      assert.equal(c.version, 0);
      assert.equal(c.milliTime, milliTime);
      assert.deepEqual(c.entryHash, entryHash(entryRaw));
      assert.equal(c.credits, credits ?? entryCreditCost(entryRaw.length, false));
      assert.deepEqual(c.ecPublicKey, publicKeyFromSeed(seed));
      assert.deepEqual(commitSignedPart(c), c.raw.subarray(0, 40));
      assert.deepEqual(commitTxId(c), sha256(c.raw.subarray(0, 40)));
      // the write path's hex digests (issue 35): the same hashes as hex
      assert.equal(sha256Hex(c.raw.subarray(0, 40)), toHex(commitTxId(c)));
      assert.equal(sha256Hex(c.raw), toHex(sha256(c.raw)));
      assert.deepEqual(commitFullHash(c), sha256(c.raw));
      assert.ok(verifyCommitSignature(c));
      assert.ok(verifyEd25519Noble(c.ecPublicKey, c.raw.subarray(0, 40), c.signature), "noble agrees");
      const json = commitToJson(c);
      assert.deepEqual(Object.keys(json), ["version", "millitime", "entryhash", "credits", "ecpubkey", "sig"]);
      assert.equal(json.millitime, milliTime.toString(16).padStart(12, "0"));
      assert.equal(json.sig, toHex(c.signature));
    }
  });

  test("random chain commits: build → decode → ChainIDHash, Weld, credits = cost + 10", () => {
    for (let i = 0; i < 200; i++) {
      const entryRaw = randomEntryRaw(rng, true);
      const seed = rng.bytes(32);
      const milliTime = rng.int(0, U48_MAX);
      const c: ChainCommit = buildChainCommit({ entryRaw, milliTime, ecSeed: seed });
      assert.equal(c.raw.length, 200);
      assert.deepEqual(decodeChainCommit(c.raw), c);
      assert.deepEqual(encodeCommit(c), c.raw);
      const chainId = entryRaw.subarray(1, 33);
      assert.deepEqual(c.chainIdHash, sha256d(chainId));
      assert.deepEqual(c.weld, weld(entryHash(entryRaw), chainId));
      assert.equal(c.credits, entryCreditCost(entryRaw.length, true));
      assert.deepEqual(commitTxId(c), sha256(c.raw.subarray(0, 104)));
      assert.deepEqual(commitFullHash(c), sha256(c.raw));
      assert.ok(verifyCommitSignature(c));
      const json = commitToJson(c);
      assert.deepEqual(Object.keys(json), [
        "version",
        "millitime",
        "chainidhash",
        "weld",
        "entryhash",
        "credits",
        "ecpubkey",
        "sig",
      ]);
    }
  });

  test("an empty first entry is committed with 11 credits (the chain minimum)", () => {
    const entryRaw = marshalEntry({
      version: 0,
      chainId: chainIdFromExtIds([]),
      extIds: [],
      content: new Uint8Array(0),
    });
    assert.equal(buildChainCommit({ entryRaw, milliTime: 1, ecSeed: rng.bytes(32) }).credits, 11);
    assert.equal(buildEntryCommit({ entryRaw, milliTime: 1, ecSeed: rng.bytes(32) }).credits, 1);
  });

  test("any altered byte of the signed part, key or signature fails verification", () => {
    for (let i = 0; i < 100; i++) {
      const c =
        i % 2 === 0
          ? buildEntryCommit({
              entryRaw: randomEntryRaw(rng, false),
              milliTime: rng.int(0, U48_MAX),
              ecSeed: rng.bytes(32),
            })
          : buildChainCommit({
              entryRaw: randomEntryRaw(rng, true),
              milliTime: rng.int(0, U48_MAX),
              ecSeed: rng.bytes(32),
            });
      const at = rng.int(1, c.raw.length - 1); // byte 0 is the version, refused by the parser
      assert.equal(verifyCommitSignature(alter(c, at, 1 << rng.int(0, 7))), false, `byte ${at} of a ${c.kind} commit`);
    }
  });

  test("non-canonical S (S + L) and high bits of sig[63] are refused", () => {
    const c = buildEntryCommit({
      entryRaw: randomEntryRaw(rng, false),
      milliTime: 1_700_000_000_000,
      ecSeed: rng.bytes(32),
    });
    assert.ok(verifyCommitSignature(c));
    assert.equal(verifyCommitSignature(withS(c, sOf(c) + L)), false);
    for (const bit of [0x20, 0x40, 0x80]) assert.equal(verifyCommitSignature(alter(c, 135, bit)), false);
  });

  test("version, credit range and exact length are enforced by the decoders", () => {
    const e = buildEntryCommit({ entryRaw: randomEntryRaw(rng, false), milliTime: 5, ecSeed: rng.bytes(32) });
    const ch = buildChainCommit({ entryRaw: randomEntryRaw(rng, true), milliTime: 5, ecSeed: rng.bytes(32) });
    const v1 = e.raw.slice();
    v1[0] = 1;
    expectProtocolError(() => decodeEntryCommit(v1), "BAD_VERSION");
    const v2 = ch.raw.slice();
    v2[0] = 2;
    expectProtocolError(() => decodeChainCommit(v2), "BAD_VERSION");
    for (const credits of [0, 11, 255]) {
      const raw = e.raw.slice();
      raw[39] = credits;
      expectProtocolError(() => decodeEntryCommit(raw), "BAD_VALUE", `entry credits ${credits}`);
      assert.equal(parseEntryCommit(raw).credits, credits, "the structural parser keeps any credit value");
    }
    for (const credits of [0, 10, 21]) {
      const raw = ch.raw.slice();
      raw[103] = credits;
      expectProtocolError(() => decodeChainCommit(raw), "BAD_VALUE", `chain credits ${credits}`);
    }
    expectProtocolError(() => decodeEntryCommit(e.raw.subarray(0, 135)), "BAD_LENGTH");
    expectProtocolError(() => decodeEntryCommit(Uint8Array.from([...e.raw, 0])), "BAD_LENGTH", "trailing byte");
    expectProtocolError(() => decodeChainCommit(Uint8Array.from([...ch.raw, ...ch.raw])), "BAD_LENGTH");
    expectProtocolError(() => decodeChainCommit(e.raw), "BAD_LENGTH");
    expectProtocolError(() => decodeEntryCommit(ch.raw), "BAD_LENGTH");
    expectProtocolError(() => decodeEntryCommit(new Uint8Array(0)), "BAD_LENGTH");
  });

  test("builders refuse bad arguments with ProtocolError", () => {
    const entryRaw = randomEntryRaw(rng, true);
    const ecSeed = rng.bytes(32);
    expectProtocolError(() => buildEntryCommit({ entryRaw, milliTime: 1, credits: 0, ecSeed }), "BAD_VALUE");
    expectProtocolError(() => buildEntryCommit({ entryRaw, milliTime: 1, credits: 11, ecSeed }), "BAD_VALUE");
    expectProtocolError(() => buildChainCommit({ entryRaw, milliTime: 1, credits: 10, ecSeed }), "BAD_VALUE");
    expectProtocolError(() => buildChainCommit({ entryRaw, milliTime: 1, credits: 21, ecSeed }), "BAD_VALUE");
    expectProtocolError(() => buildEntryCommit({ entryRaw, milliTime: -1, ecSeed }), "BAD_VALUE");
    expectProtocolError(() => buildEntryCommit({ entryRaw, milliTime: U48_MAX + 1, ecSeed }), "BAD_VALUE");
    expectProtocolError(() => buildEntryCommit({ entryRaw, milliTime: 1, ecSeed: new Uint8Array(31) }), "BAD_LENGTH");
    expectProtocolError(
      () => buildChainCommit({ entryRaw: entryRaw.subarray(0, 20), milliTime: 1, ecSeed }),
      "TRUNCATED",
    );
  });

  test("fuzz: both decoders throw only ProtocolError; accepted inputs re-encode to themselves", () => {
    const entrySeeds = Array.from(
      { length: 8 },
      () =>
        buildEntryCommit({
          entryRaw: randomEntryRaw(rng, false),
          milliTime: rng.int(0, U48_MAX),
          ecSeed: rng.bytes(32),
        }).raw,
    );
    const chainSeeds = Array.from(
      { length: 8 },
      () =>
        buildChainCommit({ entryRaw: randomEntryRaw(rng, true), milliTime: rng.int(0, U48_MAX), ecSeed: rng.bytes(32) })
          .raw,
    );
    const onAccept = (c: Commit, bytes: Uint8Array) => {
      assert.deepEqual(encodeCommit(c), bytes);
      verifyCommitSignature(c); // must not throw
    };
    const seeds = [...entrySeeds, ...chainSeeds];
    const a = fuzzDecoder(rng, decodeEntryCommit, { seeds, maxRandomLength: 210, onAccept });
    const b = fuzzDecoder(rng, decodeChainCommit, { seeds, maxRandomLength: 210, onAccept });
    assert.ok(a > 0 && b > 0, `accepted ${a} entry and ${b} chain commits`);
  });
});
