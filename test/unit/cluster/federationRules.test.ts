/**
 * The pure parts of federation: log records round-trip and reject bad bytes; server signatures bind the
 * network; directory-block signatures over the LOCAL genesis header verify with an independent
 * implementation; the reference order of 01 entries; the majority check; the authority set from admin
 * entries with activation heights.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AuthoritySet, AuthoritySnapshotError } from "../../../src/cluster/authorities.js";
import {
  checkBlockSignatures,
  majority,
  minuteZeroVmIndex,
  orderedSignatureEntries,
  signDirectoryBlock,
  verifyDirectoryBlockSignature,
} from "../../../src/cluster/dbSig.js";
import {
  type ClusterRecord,
  decodeRecord,
  encodeRecord,
  recordSubject,
  signRecord,
  verifyRecord,
} from "../../../src/cluster/records.js";
import { publicKeyFromSeed, verifyEd25519Noble } from "../../../src/crypto/ed25519.js";
import { InvariantError } from "../../../src/errors.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { encodeDirectoryBlockHeader } from "../../../src/protocol/dblock.js";
import {
  genesisBlocks,
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";

const seedOf = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const idOf = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const LOCAL_ID = networkId("LOCAL");

describe("cluster records", () => {
  const proposer = idOf(7);
  const signed: ClusterRecord[] = [
    signRecord(
      {
        kind: "endOfMinute",
        height: 12,
        minute: 9,
        timeMs: 1_700_000_000_123,
        proposer,
        signature: new Uint8Array(64),
      },
      LOCAL_ID,
      seedOf(1),
    ),
    signRecord(
      { kind: "blockStart", height: 1, timeMs: 1_700_000_000_000, proposer, signature: new Uint8Array(64) },
      LOCAL_ID,
      seedOf(1),
    ),
    signRecord(
      {
        kind: "addServer",
        role: "audit",
        identity: idOf(3),
        publicKey: publicKeyFromSeed(seedOf(3)),
        timeMs: 5,
        signature: new Uint8Array(64),
      },
      LOCAL_ID,
      seedOf(1),
    ),
    signRecord(
      { kind: "heartbeat", height: 4, minute: 3, identity: idOf(3), signature: new Uint8Array(64) },
      LOCAL_ID,
      seedOf(1),
    ),
    signRecord(
      {
        kind: "faultVote",
        height: 9,
        round: 2,
        faulted: idOf(4),
        candidate: idOf(5),
        voter: idOf(6),
        signature: new Uint8Array(64),
      },
      LOCAL_ID,
      seedOf(1),
    ),
  ];

  it("round-trip every kind byte for byte", () => {
    const all: ClusterRecord[] = [
      { kind: "writes", messages: [Uint8Array.of(1, 2, 3), new Uint8Array(0), new Uint8Array(300).fill(9)] },
      { kind: "dbSig", height: 3, identity: idOf(2), publicKey: idOf(8), signature: new Uint8Array(64).fill(1) },
      ...signed,
    ];
    for (const r of all) {
      const bytes = encodeRecord(r);
      const back = decodeRecord(bytes);
      assert.deepEqual(back, r, r.kind);
      assert.deepEqual(encodeRecord(back), bytes);
    }
    assert.equal(recordSubject("writes"), "tx");
    assert.equal(recordSubject("endOfMinute"), "eom");
    assert.equal(recordSubject("dbSig"), "dbsig");
  });

  it("reject bytes that are no record, naming the field", () => {
    assert.throws(() => decodeRecord(Uint8Array.of(99)), /kind.*unknown kind 99/);
    const eom = encodeRecord(signed[0]!);
    assert.throws(() => decodeRecord(eom.subarray(0, eom.length - 1)), /signature/);
    assert.throws(() => decodeRecord(Uint8Array.of(...eom, 0)), /unexpected byte\(s\) after the end/);
    const badMinute = eom.slice();
    badMinute[5] = 10;
    assert.throws(() => decodeRecord(badMinute), /minute: expected 0..9, got 10/);
    assert.throws(() => decodeRecord(Uint8Array.of(1, 0, 0, 0, 5, 1)), /messages\[0\]/);
    const add = encodeRecord(signed[2]!);
    add[1] = 3;
    assert.throws(() => decodeRecord(add), /role: expected 1 \(federated\) or 2 \(audit\), got 3/);
  });

  it("server signatures verify with the signer's key only, on its network only, over unchanged fields only", () => {
    const key = publicKeyFromSeed(seedOf(1));
    for (const r of signed) {
      assert.ok(r.kind !== "writes" && r.kind !== "dbSig");
      assert.equal(verifyRecord(r, LOCAL_ID, key), true, r.kind);
      assert.equal(verifyRecord(r, networkId("MAIN"), key), false, `${r.kind} on another network`);
      assert.equal(verifyRecord(r, LOCAL_ID, publicKeyFromSeed(seedOf(2))), false, `${r.kind} other key`);
    }
    const eom = signed[0]!;
    assert.ok(eom.kind === "endOfMinute");
    assert.equal(verifyRecord({ ...eom, minute: 8 }, LOCAL_ID, key), false);
  });
});

describe("directory-block signatures", () => {
  const genesis = genesisBlocks("LOCAL");
  const seed = fromHex(LOCAL_BOOTSTRAP_SEED_HEX);
  const key = fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX);

  it("sign the previous block's 113-byte header; an independent ed25519 agrees; another header fails", () => {
    const header = encodeDirectoryBlockHeader(genesis.directory);
    assert.equal(header.length, 113);
    const sig = signDirectoryBlock(seed, genesis.directory);
    assert.equal(verifyEd25519Noble(key, header, sig), true);
    assert.equal(verifyDirectoryBlockSignature(key, genesis.directory, sig), true);
    assert.equal(
      verifyDirectoryBlockSignature(key, { ...genesis.directory, timestamp: genesis.directory.timestamp + 1 }, sig),
      false,
    );
    assert.equal(verifyDirectoryBlockSignature(publicKeyFromSeed(seedOf(5)), header, sig), false);
  });

  it("minute-0 VM index follows factomd MakeMap: VM j led by fed (uint32(h·131)%n + 1 + j) % n", () => {
    // invert MakeMap directly for several heights and sizes, including a height where h·131 wraps u32
    for (const n of [1, 2, 3, 5, 7])
      for (const h of [0, 1, 2, 3, 1000, 32_786_000, 40_000_000]) {
        const base = Number((BigInt(h) * 131n) % 2n ** 32n) % n;
        for (let j = 0; j < n; j++) {
          const fed = (base + 1 + j) % n;
          assert.equal(minuteZeroVmIndex(fed, n, h), j, `n=${n} h=${h} j=${j}`);
        }
      }
    assert.throws(() => minuteZeroVmIndex(3, 3, 1), InvariantError);
  });

  it("order 01 entries by minute-0 VM index (3 feds: height 1 sorted, height 2 rotated)", () => {
    const feds = [idOf(1), idOf(2), idOf(3)];
    const sigs = [3, 1, 2].map((n) => ({
      identity: idOf(n),
      publicKey: idOf(10 + n),
      signature: new Uint8Array(64).fill(n),
    }));
    const ids = (h: number): number[] => orderedSignatureEntries(sigs, feds, h).map((e) => e.identityAdminChainId[0]!);
    assert.deepEqual(ids(1), [1, 2, 3]); // base 131 % 3 = 2: fed f at VM f
    assert.deepEqual(ids(2), [3, 1, 2]); // base 262 % 3 = 1: fed 0→VM1, 1→VM2, 2→VM0
    assert.deepEqual(ids(0), [2, 3, 1]); // base 0: fed 0→VM2, 1→VM0, 2→VM1
    assert.throws(() => orderedSignatureEntries([{ ...sigs[0]!, identity: idOf(9) }], feds, 1), InvariantError);
  });

  it("the majority check counts distinct federated signers with their registered keys", () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(majority), [1, 2, 2, 3, 3]);
    const seeds = [21, 22, 23].map(seedOf);
    const feds = seeds.map((s, i) => ({ identity: idOf(i + 1), publicKey: publicKeyFromSeed(s) }));
    const entry = (i: number, sig = signDirectoryBlock(seeds[i]!, genesis.directory)) => ({
      type: 0x01 as const,
      identityAdminChainId: feds[i]!.identity,
      publicKey: feds[i]!.publicKey,
      signature: sig,
    });
    assert.deepEqual(checkBlockSignatures([entry(0), entry(2)], genesis.directory, feds), {
      valid: 2,
      needed: 2,
      ok: true,
    });
    assert.equal(checkBlockSignatures([entry(0), entry(0)], genesis.directory, feds).ok, false, "one signer twice");
    const forged = entry(1, signDirectoryBlock(seeds[0]!, genesis.directory));
    assert.equal(checkBlockSignatures([entry(0), forged], genesis.directory, feds).ok, false, "wrong key");
    const otherHeader = { ...genesis.directory, dbHeight: 7 };
    assert.equal(checkBlockSignatures([entry(0), entry(1)], otherHeader, feds).ok, false, "other block");
  });
});

describe("authority set from admin entries", () => {
  it("starts with the bootstrap server and applies 05/06/07 at their activation height, 08 keys at once", () => {
    const boot = {
      identity: fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX),
      publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX),
    };
    const set = new AuthoritySet(boot);
    set.applyAdminBlock(0, genesisBlocks("LOCAL").admin.entries);
    assert.deepEqual(set.at(0).federated, []);
    assert.deepEqual(
      set.at(1).federated.map((a) => toHex(a.identity)),
      [LOCAL_BOOTSTRAP_IDENTITY_HEX],
    );
    assert.deepEqual(set.at(1).federated[0]!.publicKey, boot.publicKey);
    const a = idOf(0x01);
    const b = idOf(0xff);
    set.applyAdminBlock(5, [
      { type: 0x05, identityChainId: b, dbHeight: 6 },
      { type: 0x06, identityChainId: a, dbHeight: 6 },
      { type: 0x08, identityChainId: b, keyPriority: 0, publicKey: idOf(0xbb), dbHeight: 5 },
    ]);
    assert.equal(set.at(5).federated.length, 1);
    const at6 = set.at(6);
    assert.deepEqual(
      at6.federated.map((x) => x.identity[0]),
      [0x38, 0xff],
    );
    assert.deepEqual(at6.federated[1]!.publicKey, idOf(0xbb));
    assert.deepEqual(
      at6.audit.map((x) => x.identity[0]),
      [0x01],
    );
    // the snapshot (authorityFile.ts) restores the whole state: pending changes and keys included
    const copy = AuthoritySet.restore(boot, JSON.parse(JSON.stringify(set.snapshot())));
    assert.deepEqual(copy.snapshot(), set.snapshot());
    assert.throws(() => AuthoritySet.restore(boot, { ...set.snapshot(), appliedUpTo: -1 }), AuthoritySnapshotError);
    assert.throws(
      () => AuthoritySet.restore(boot, { ...set.snapshot(), keys: [{ identity: "zz", publicKey: "00" }] }),
      AuthoritySnapshotError,
    );
    // promotion of the audit server and demotion of the federated one (as an election writes them)
    for (const s of [set, copy])
      s.applyAdminBlock(8, [
        { type: 0x05, identityChainId: a, dbHeight: 9 },
        { type: 0x06, identityChainId: b, dbHeight: 9 },
      ]);
    assert.deepEqual(copy.at(9), set.at(9), "the restored set answers as the original");
    const at9 = set.at(9);
    assert.deepEqual(
      at9.federated.map((x) => x.identity[0]),
      [0x01, 0x38],
    );
    assert.deepEqual(
      at9.audit.map((x) => x.identity[0]),
      [0xff],
    );
    assert.throws(() => set.at(8), InvariantError);
  });
});
