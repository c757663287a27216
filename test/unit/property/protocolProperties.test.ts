/**
 * Encoders and decoders as invariants (fast-check, issue 20): for random valid objects of every block and
 * message type, decode(encode(x)) = x and encode(decode(bytes)) = bytes; every strict prefix and the bytes
 * with one more byte appended are refused with a ProtocolError (the entry, whose content runs to the end, is
 * refused up to the end of its ext IDs and decodes with a shorter content after); the fields sit at the
 * offsets of wire-format §1.1, §5.1, §5.2, §5.4 and §5.5; the keyMRs and hashes are the formulas of §0.7 and
 * §5; signatures are real and verify. Merkle trees: every leaf's branch verifies against the root, a branch
 * does not verify another leaf, and a changed leaf changes the root.
 *
 * Deterministic: a fixed seed (override with LEDGERD_FC_SEED; fast-check prints the seed and the shrunk
 * counterexample of a failure). 40 cases per property.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { type AdminBlock, decodeAdminBlock, encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { decodeAddress, encodeAddress } from "../../../src/protocol/address.js";
import { ByteReader, concat, encodeVarint, fromHex, toHex, U64_MAX, varintSize } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import {
  buildChainCommit,
  buildEntryCommit,
  decodeChainCommit,
  decodeEntryCommit,
  encodeCommit,
  verifyCommitSignature,
} from "../../../src/protocol/commit.js";
import {
  buildDirectoryBlock,
  DIRECTORY_BLOCK_HEADER_SIZE,
  decodeDirectoryBlock,
  directoryBlockHashes,
  encodeDirectoryBlock,
} from "../../../src/protocol/dblock.js";
import {
  buildEntryBlock,
  decodeEntryBlock,
  ENTRY_BLOCK_HEADER_SIZE,
  encodeEntryBlock,
  entryBlockHashes,
  minuteMarker,
} from "../../../src/protocol/eblock.js";
import {
  buildECBlock,
  decodeECBlock,
  type ECBlockItem,
  ecBlockHashes,
  encodeECBlock,
} from "../../../src/protocol/ecblock.js";
import { type Entry, entryHash, marshalEntry, unmarshalEntry } from "../../../src/protocol/entry.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import {
  assetBlockHashes,
  buildAssetBlock,
  decodeAssetBlock,
  emptyCoinbase,
  encodeAssetBlock,
  PERIOD_MARKER_HASH,
} from "../../../src/protocol/fblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { merkleBranch, merkleRoot, merkleTreeStore, verifyMerkleBranch } from "../../../src/protocol/merkle.js";
import {
  buildTransaction,
  decodeTransaction,
  type Transaction,
  transactionFullHash,
  verifyTransactionSignatures,
} from "../../../src/protocol/transaction.js";
import { everyAdminEntry } from "../../reliability/corpus.js";

const SEED = Number(process.env.LEDGERD_FC_SEED ?? 20_261_125);
const RUNS = { seed: SEED, numRuns: 40 };

const bytes = (n: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength: n, maxLength: n });
const hash32 = bytes(32);
const u32 = fc.nat({ max: 0xffffffff });
const u48 = fc.integer({ min: 0, max: 2 ** 48 - 1 });

/** A ProtocolError from `decode(b)`, or a failure naming what was accepted. */
function refused(decode: (b: Uint8Array) => unknown, b: Uint8Array, what: string): void {
  try {
    decode(b);
  } catch (e) {
    if (e instanceof ProtocolError) return;
    throw new Error(`${what}: not a ProtocolError: ${String(e)}`);
  }
  assert.fail(`${what}: accepted`);
}

/** Every strict prefix of `raw` and `raw` plus one byte are refused. */
function refusesCutsAndTrailing(decode: (b: Uint8Array) => unknown, raw: Uint8Array): void {
  for (let k = 0; k < raw.length; k++) refused(decode, raw.subarray(0, k), `prefix of ${k} of ${raw.length} bytes`);
  refused(decode, concat(raw, Uint8Array.of(0)), "one trailing byte");
}

const u32At = (b: Uint8Array, o: number): number => new DataView(b.buffer, b.byteOffset).getUint32(o);

// ── keys, entries, commits and transactions built with real signatures ──

const SEEDS = [1, 2, 3, 4].map((i) => sha256(Uint8Array.of(i, 0x5e)));

/** fc.record's objects have no prototype; the decoders' do (deepStrictEqual compares prototypes). */
const plain = <T extends object>(o: T): T => ({ ...o });

const entryArb: fc.Arbitrary<Entry> = fc
  .record({
    version: fc.constant(0),
    chainId: hash32,
    extIds: fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 4 }),
    content: fc.uint8Array({ maxLength: 300 }),
  })
  .map(plain);

const txArb: fc.Arbitrary<Transaction> = fc
  .record({
    milliTimestamp: u48,
    inputs: fc.array(fc.record({ seed: fc.constantFrom(...SEEDS), amount: fc.bigInt(0n, 2n ** 60n) }), {
      minLength: 1,
      maxLength: 3,
    }),
    outputs: fc.array(fc.record({ address: hash32, amount: fc.bigInt(0n, 2n ** 60n) }), { maxLength: 3 }),
    ecOutputs: fc.array(fc.record({ address: hash32, amount: fc.bigInt(0n, 2n ** 60n) }), { maxLength: 2 }),
  })
  .map((args) => buildTransaction(args));

describe("protocol properties (fast-check)", () => {
  test("varint: every u64 round-trips in varintSize bytes, minimally", () => {
    fc.assert(
      fc.property(fc.bigInt(0n, U64_MAX), (v) => {
        const enc = encodeVarint(v);
        assert.equal(enc.length, varintSize(v));
        assert.notEqual(enc[0], 0x80, "no leading empty group");
        const r = new ByteReader(enc, "t");
        assert.equal(r.varint("v"), v);
        assert.equal(r.remaining, 0);
        for (let k = 0; k < enc.length; k++)
          refused((b) => new ByteReader(b, "t").varint("v"), enc.subarray(0, k), "cut");
      }),
      { ...RUNS, numRuns: 200 },
    );
  });

  test("hex and addresses round-trip; a changed address character is refused", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => assert.deepEqual(fromHex(toHex(b)), b)),
      RUNS,
    );
    fc.assert(
      fc.property(
        hash32,
        fc.constantFrom("FA", "EC", "Fs", "Es") as fc.Arbitrary<"FA" | "EC" | "Fs" | "Es">,
        fc.nat(),
        (key, kind, at) => {
          const text = encodeAddress(kind, key);
          assert.deepEqual(decodeAddress(text, kind).key, key);
          const i = at % text.length;
          const changed = text.slice(0, i) + (text[i] === "2" ? "3" : "2") + text.slice(i + 1);
          assert.throws(() => decodeAddress(changed, kind), ProtocolError);
        },
      ),
      RUNS,
    );
  });

  test("entries: round trip, wire-format §1.1 layout, cuts refused up to the end of the ext IDs", () => {
    fc.assert(
      fc.property(entryArb, (e) => {
        const raw = marshalEntry(e);
        assert.deepEqual(unmarshalEntry(raw), e);
        assert.equal(raw[0], 0);
        assert.deepEqual(raw.subarray(1, 33), e.chainId);
        const section = e.extIds.reduce((n, id) => n + 2 + id.length, 0);
        assert.equal((raw[33]! << 8) | raw[34]!, section);
        assert.deepEqual(raw.subarray(35 + section), e.content);
        for (let k = 0; k < 35 + section; k++) refused(unmarshalEntry, raw.subarray(0, k), `cut at ${k}`);
        for (let k = 35 + section; k <= raw.length; k++)
          assert.deepEqual(unmarshalEntry(raw.subarray(0, k)).content, e.content.subarray(0, k - 35 - section));
      }),
      RUNS,
    );
  });

  test("commits: round trip, cuts and trailing bytes refused, real signatures verify", () => {
    fc.assert(
      fc.property(entryArb, u48, fc.constantFrom(...SEEDS), fc.boolean(), (e, milliTime, ecSeed, chain) => {
        const entryRaw = marshalEntry(e);
        const commit = chain
          ? buildChainCommit({ entryRaw, milliTime, ecSeed })
          : buildEntryCommit({ entryRaw, milliTime, ecSeed });
        const decode = chain ? decodeChainCommit : decodeEntryCommit;
        assert.deepEqual(decode(commit.raw), commit);
        assert.deepEqual(encodeCommit(commit), commit.raw);
        assert.deepEqual(commit.entryHash, entryHash(entryRaw));
        assert.equal(verifyCommitSignature(commit), true);
        refusesCutsAndTrailing(decode, commit.raw);
      }),
      RUNS,
    );
  });

  test("transactions: round trip, cuts and trailing bytes refused, every input's signature verifies", () => {
    fc.assert(
      fc.property(txArb, fc.nat(), (tx, at) => {
        assert.deepEqual(decodeTransaction(tx.raw), tx);
        assert.equal(verifyTransactionSignatures(tx), true);
        refusesCutsAndTrailing(decodeTransaction, tx.raw);
        // one bit of one signature flipped: the signatures no longer verify
        const sigs = tx.signatures.flat();
        const sig = sigs[at % sigs.length]!;
        const raw = tx.raw.slice();
        const offset = Buffer.from(raw).indexOf(Buffer.from(sig));
        raw[offset + (at % 64)]! ^= 0x01;
        assert.equal(verifyTransactionSignatures(decodeTransaction(raw)), false);
      }),
      RUNS,
    );
  });

  test("entry blocks: round trip, §5.1 layout, keyMR = sha256(sha256(header) ‖ bodyMR)", () => {
    const item = fc.oneof(hash32, fc.integer({ min: 1, max: 10 }).map(minuteMarker));
    fc.assert(
      fc.property(
        hash32,
        hash32,
        hash32,
        u32,
        u32,
        fc.array(item, { maxLength: 20 }),
        (chainId, pk, pf, seq, h, items) => {
          const b = buildEntryBlock({ chainId, prevKeyMR: pk, prevFullHash: pf, sequence: seq, dbHeight: h, items });
          const raw = encodeEntryBlock(b);
          assert.deepEqual(decodeEntryBlock(raw), b);
          assert.equal(raw.length, ENTRY_BLOCK_HEADER_SIZE + 32 * items.length);
          assert.deepEqual(raw.subarray(0, 32), chainId);
          assert.deepEqual(raw.subarray(32, 64), merkleRoot(items));
          assert.deepEqual([u32At(raw, 128), u32At(raw, 132), u32At(raw, 136)], [seq, h, items.length]);
          const hashes = entryBlockHashes(b);
          assert.deepEqual(hashes.keyMR, sha256(concat(sha256(raw.subarray(0, 140)), b.bodyMR)));
          assert.deepEqual(hashes.fullHash, sha256(raw));
          refusesCutsAndTrailing(decodeEntryBlock, raw);
        },
      ),
      RUNS,
    );
  });

  test("directory blocks: round trip, §5.2 layout, entries after the first three sorted, keyMR", () => {
    const entry = fc.record({ chainId: hash32, keyMR: hash32 }).map(plain);
    fc.assert(
      fc.property(
        fc.record({
          version: fc.nat(255),
          networkId: u32,
          prevKeyMR: hash32,
          prevFullHash: hash32,
          timestamp: u32,
          dbHeight: u32,
        }),
        fc.array(entry, { maxLength: 8 }),
        (fields, rest) => {
          const first = [ADMIN_CHAIN_ID, EC_CHAIN_ID, ASSET_CHAIN_ID].map((chainId, i) => ({
            chainId,
            keyMR: sha256(Uint8Array.of(i)),
          }));
          const b = buildDirectoryBlock({ ...fields, entries: [...first, ...rest] });
          const raw = encodeDirectoryBlock(b);
          assert.deepEqual(decodeDirectoryBlock(raw), b);
          const ids = b.entries.slice(3).map((e) => toHex(e.chainId));
          assert.deepEqual(ids, [...ids].sort());
          assert.equal(u32At(raw, 109), b.entries.length);
          assert.deepEqual(b.bodyMR, merkleRoot(b.entries.map((e) => sha256(concat(e.chainId, e.keyMR)))));
          assert.deepEqual(
            directoryBlockHashes(b).keyMR,
            sha256(concat(sha256(raw.subarray(0, DIRECTORY_BLOCK_HEADER_SIZE)), b.bodyMR)),
          );
          refusesCutsAndTrailing(decodeDirectoryBlock, raw);
        },
      ),
      RUNS,
    );
  });

  test("EC blocks: round trip with every item type, §5.4 header, headerHash and bodyHash", () => {
    const ecSeed = SEEDS[0]!;
    const entryRaw = marshalEntry({
      version: 0,
      chainId: new Uint8Array(32).fill(9),
      extIds: [],
      content: Uint8Array.of(1),
    });
    const commits = [0, 1, 2].map((i) => ({
      chain: buildChainCommit({ entryRaw, milliTime: 1_700_000_000_000 + i, ecSeed }),
      entry: buildEntryCommit({ entryRaw, milliTime: 1_700_000_000_000 + i, ecSeed }),
    }));
    const item: fc.Arbitrary<ECBlockItem> = fc.oneof(
      fc.nat(255).map((number) => ({ type: "serverIndex", number }) as const),
      fc.integer({ min: 1, max: 10 }).map((number) => ({ type: "minute", number }) as const),
      fc.nat(2).map((i) => ({ type: "chainCommit", commit: commits[i]!.chain }) as const),
      fc.nat(2).map((i) => ({ type: "entryCommit", commit: commits[i]!.entry }) as const),
      fc
        .record({ ecPublicKey: hash32, txId: hash32, index: fc.bigInt(0n, U64_MAX), numEC: fc.bigInt(0n, U64_MAX) })
        .map((f) => ({ type: "balanceIncrease", ...f }) as const),
    );
    fc.assert(
      fc.property(
        hash32,
        hash32,
        u32,
        fc.uint8Array({ maxLength: 5 }),
        fc.array(item, { maxLength: 12 }),
        (ph, pf, h, exp, items) => {
          const b = buildECBlock({ prevHeaderHash: ph, prevFullHash: pf, dbHeight: h, headerExpansion: exp, items });
          const raw = encodeECBlock(b);
          assert.deepEqual(decodeECBlock(raw), b);
          const headerSize = 32 * 4 + 4 + 1 + exp.length + 16;
          assert.deepEqual(raw.subarray(0, 32), EC_CHAIN_ID);
          assert.deepEqual(b.bodyHash, sha256(raw.subarray(headerSize)));
          assert.equal(u32At(raw, headerSize - 4), raw.length - headerSize, "BodySize (low word)");
          assert.equal(u32At(raw, headerSize - 12), items.length, "ObjectCount (low word)");
          const hashes = ecBlockHashes(b);
          assert.deepEqual(hashes.headerHash, sha256(raw.subarray(0, headerSize)));
          assert.deepEqual(hashes.fullHash, sha256(raw));
          refusesCutsAndTrailing(decodeECBlock, raw);
        },
      ),
      RUNS,
    );
  });

  test("asset blocks: round trip, §5.5 body order, bodyMR, keyMR and ledgerKeyMR", () => {
    fc.assert(
      fc.property(
        fc.record({ prevKeyMR: hash32, prevLedgerKeyMR: hash32, exchangeRate: fc.bigInt(0n, U64_MAX), dbHeight: u32 }),
        fc.uint8Array({ maxLength: 5 }),
        u48,
        fc.array(fc.tuple(txArb, fc.nat(9)), { maxLength: 3 }),
        (fields, exp, coinbaseMs, placed) => {
          const periods: Transaction[][] = Array.from({ length: 10 }, () => []);
          periods[0]!.push(emptyCoinbase(coinbaseMs));
          for (const [tx, k] of placed) periods[k]!.push(tx);
          const b = buildAssetBlock({ ...fields, headerExpansion: exp, periods });
          const raw = encodeAssetBlock(b);
          assert.deepEqual(decodeAssetBlock(raw), b);
          const headerSize = 32 * 4 + 8 + 4 + 1 + exp.length + 8;
          assert.deepEqual(raw.subarray(0, 32), ASSET_CHAIN_ID);
          // body: each period's transactions then a 00 marker
          assert.deepEqual(
            raw.subarray(headerSize),
            concat(...periods.flatMap((p) => [...p.map((t) => t.raw), Uint8Array.of(0)])),
          );
          const leaves = periods.flatMap((p) => [...p.map(transactionFullHash), PERIOD_MARKER_HASH]);
          assert.deepEqual(b.bodyMR, merkleRoot(leaves));
          const headerHash = sha256(raw.subarray(0, headerSize));
          const hashes = assetBlockHashes(b);
          assert.deepEqual(hashes.keyMR, sha256(concat(headerHash, b.bodyMR)));
          assert.deepEqual(hashes.ledgerKeyMR, sha256(concat(hashes.ledgerMR, headerHash)));
          refusesCutsAndTrailing(decodeAssetBlock, raw);
        },
      ),
      { ...RUNS, numRuns: 20 },
    );
  });

  test("admin blocks: any order and subset of every entry type round-trips; cuts and trailing refused", () => {
    const all = everyAdminEntry();
    fc.assert(
      fc.property(
        hash32,
        u32,
        fc.uint8Array({ maxLength: 5 }),
        fc.shuffledSubarray(all.entries),
        (prev, h, exp, entries) => {
          const b: AdminBlock = { prevBackRefHash: prev, dbHeight: h, headerExpansion: exp, entries };
          const raw = encodeAdminBlock(b);
          assert.deepEqual(encodeAdminBlock(decodeAdminBlock(raw)), raw);
          assert.deepEqual(raw.subarray(0, 32), ADMIN_CHAIN_ID);
          refusesCutsAndTrailing(decodeAdminBlock, raw);
        },
      ),
      RUNS,
    );
  });

  test("Merkle trees: every branch verifies, not for another leaf; a changed leaf changes the root", () => {
    fc.assert(
      fc.property(fc.array(hash32, { minLength: 1, maxLength: 33 }), fc.nat(), (leaves, at) => {
        const root = merkleRoot(leaves);
        assert.deepEqual(merkleTreeStore(leaves).at(-1), root);
        const i = at % leaves.length;
        const branch = merkleBranch(leaves, i);
        assert.equal(branch.length, Math.ceil(Math.log2(leaves.length)));
        assert.equal(verifyMerkleBranch(leaves[i]!, branch, root), true);
        const stranger = sha256(concat(...leaves));
        if (branch.length > 0) assert.equal(verifyMerkleBranch(stranger, branch, root), false);
        const changed = leaves.map((l, k) => (k === i ? stranger : l));
        assert.notDeepEqual(merkleRoot(changed), root);
      }),
      { ...RUNS, numRuns: 100 },
    );
  });
});
