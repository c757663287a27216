/**
 * Certified snapshots (docs/cluster.md §1.13): the certification rule (majority of the federated servers of
 * H+1 on one hash; minority, split hashes, a non-federated signer, a replayed signature, another network,
 * height or key count for nothing), and in a federation on the in-memory log with real LMDB stores: the
 * snapshot codec is deterministic (two followers that applied the same log write byte-identical snapshots,
 * and so does a node that started from a snapshot), a fresh node starts from the newest certified snapshot
 * and builds the same blocks from it on, and a tampered snapshot is refused (the next older one is used).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { AuthoritySet } from "../../../src/cluster/authorities.js";
import { type ClusterRecord, signRecord } from "../../../src/cluster/records.js";
import { certificationShortfall, certify, type SnapshotSignature } from "../../../src/cluster/snapshotCertification.js";
import { type ChainCheckpoint, HeaderChainBroken } from "../../../src/cluster/snapshotChain.js";
import { HeaderChainReader, storeHeaderSegments } from "../../../src/cluster/snapshotHeaders.js";
import { startFromSnapshot } from "../../../src/cluster/snapshotStart.js";
import {
  candidateHeights,
  decodeSnapshotParts,
  encodeAuthorityExtra,
  encodeSnapshotParts,
  fetchCertifiedSnapshot,
  SNAPSHOT_LOOKS,
  SnapshotRefused,
  verifySnapshotParts,
} from "../../../src/cluster/snapshots.js";
import {
  checkSnapshotBlocks,
  decodeSnapshotState,
  encodeSnapshotState,
  readSnapshotState,
  readSnapshotStateInTurns,
  snapshotDirectoryKeyMR,
  snapshotHash,
} from "../../../src/ledger/snapshotState.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { directoryBlockHashes } from "../../../src/protocol/dblock.js";
import { genesisBlocks } from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";
import { LedgerStore } from "../../../src/store/store.js";
import {
  BOOT,
  BOOT_KEY,
  MemoryArchive,
  MemoryFederation,
  NET,
  serverIdentity,
} from "../../support/memoryFederation.js";
import { cleanup, MemoryLog, tempDir } from "../ledger/harness.js";

const feds = [1, 2, 3].map(serverIdentity);
const federated = feds.map((f) => ({ identity: f.identity, publicKey: f.publicKey }));
const HASH_A = new Uint8Array(32).fill(0xaa);
const HASH_B = new Uint8Array(32).fill(0xbb);
const KEYMR = new Uint8Array(32).fill(0x11);

function sig(
  who: { identity: Uint8Array; seed: Uint8Array },
  hash: Uint8Array = HASH_A,
  opts: { height?: number; net?: number } = {},
): SnapshotSignature {
  const rec: Extract<ClusterRecord, { kind: "snapshotSignature" }> = {
    kind: "snapshotSignature",
    height: opts.height ?? 10,
    hash,
    keyMR: KEYMR,
    signer: who.identity,
    signature: new Uint8Array(64),
  };
  return signRecord(rec, opts.net ?? NET, who.seed);
}
const ctx = { networkId: NET, height: 10, federated };
const NO_SIG = new Uint8Array(64);
const GENESIS_KEYMR = directoryBlockHashes(genesisBlocks("LOCAL").directory).keyMR;
const BOOTSTRAP = { identity: BOOT, publicKey: BOOT_KEY };

/** The header chain from genesis to snapshot height `height`, read from `headers` as a starting node reads it. */
function chainTo(headers: MemoryArchive, height: number): Promise<ChainCheckpoint | HeaderChainBroken> {
  return new HeaderChainReader(
    { networkId: NET, genesisKeyMR: GENESIS_KEYMR, bootstrap: BOOTSTRAP, interval: 2 },
    headers,
  ).upTo(height);
}

describe("snapshot certification: the rule", () => {
  it("certifies the hash a majority of the federated servers signed, with their signatures", () => {
    const c = certify([sig(feds[0]!), sig(feds[2]!)], ctx);
    assert.ok(c);
    assert.deepEqual(c.hash, HASH_A);
    assert.deepEqual(c.keyMR, KEYMR);
    assert.equal(c.signatures.length, 2);
  });
  it("a minority certifies nothing, and says how far it is", () => {
    assert.equal(certify([sig(feds[0]!)], ctx), undefined);
    assert.match(certificationShortfall([sig(feds[0]!)], ctx), /^1 valid signature\(s\) of the 3 .* majority of 2/);
  });
  it("split hashes certify nothing until a majority is on one", () => {
    const split = [sig(feds[0]!, HASH_A), sig(feds[1]!, HASH_B)];
    assert.equal(certify(split, ctx), undefined);
    const c = certify([...split, sig(feds[2]!, HASH_B)], ctx);
    assert.deepEqual(c?.hash, HASH_B);
    assert.equal(c?.signatures.length, 2);
  });
  it("a signer that is not federated counts for nothing", () => {
    const stranger = serverIdentity(9);
    assert.equal(certify([sig(feds[0]!), sig(stranger)], ctx), undefined);
  });
  it("a replayed signature (or a second hash of the same signer) counts once", () => {
    const s = sig(feds[0]!);
    assert.equal(certify([s, s, { ...s }], ctx), undefined);
    assert.equal(certify([sig(feds[0]!, HASH_A), sig(feds[0]!, HASH_B), sig(feds[1]!, HASH_B)], ctx), undefined);
  });
  it("a signature of another height or network, or by another key, counts for nothing", () => {
    assert.equal(certify([sig(feds[0]!), sig(feds[1]!, HASH_A, { height: 11 })], ctx), undefined);
    assert.equal(certify([sig(feds[0]!), sig(feds[1]!, HASH_A, { net: networkId("TEST") })], ctx), undefined);
    const forged = sig({ identity: feds[1]!.identity, seed: feds[2]!.seed });
    assert.equal(certify([sig(feds[0]!), forged], ctx), undefined);
  });
});

describe("snapshots in a federation (in-memory log, real LMDB)", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) cleanup(d);
  });

  it("are deterministic, start a fresh node at their height, and a tampered one is refused", async () => {
    const archive = new MemoryArchive();
    const headers = new MemoryArchive();
    const mf = new MemoryFederation({ blockTimeSeconds: 1, snapshots: { interval: 2, archive, headers } });
    try {
      const fed0 = await mf.start({ name: "fed0", role: "federated" });
      const f1 = await mf.start({ name: "f1", role: "follower" });
      dirs.push(fed0.dir, f1.dir);
      await mf.savedHeight(5);
      // the block after a snapshot's height carries its signatures; 4's are in once 5 is saved and 6 is open
      await waitFor(() => archive.parts.has(4), "snapshot 4 stored");
      assert.ok(archive.parts.has(2), "snapshot 2 stored");
      // read in turns (one record a turn here) while the next block is saved: the view of the height it began on
      const probe = new Uint8Array([9]);
      const h0 = f1.store.savedHeight();
      const inOneTurn = encodeSnapshotState(readSnapshotState(f1.store, NET, probe));
      let paused = 0;
      const inTurns = await readSnapshotStateInTurns(f1.store, NET, probe, {
        records: 1,
        pause: async () => {
          if (paused++ === 0) await waitFor(() => f1.store.savedHeight() > h0, "a save between two turns");
        },
      });
      assert.ok(paused > 4 && f1.store.savedHeight() > h0, `read in ${paused} turns across a save`);
      assert.equal(inTurns.height, h0);
      assert.deepEqual(Buffer.from(encodeSnapshotState(inTurns)), Buffer.from(inOneTurn), "the same bytes");
      await mf.stopNode(fed0); // no more blocks: every follower ends at the same height
      const f2 = await mf.start({ name: "f2", role: "follower" });
      dirs.push(f2.dir);
      await mf.settle();
      const h = f1.ledger.heights().directoryBlockHeight;
      assert.equal(f2.ledger.heights().directoryBlockHeight, h);
      // (a block is visible from its close; the store has it once its save committed)
      await Promise.all([f1.ledger.closeSaved(), f2.ledger.closeSaved()]);
      const extra = new Uint8Array([1, 2, 3]);
      const a = encodeSnapshotState(readSnapshotState(f1.store, NET, extra));
      const b = encodeSnapshotState(readSnapshotState(f2.store, NET, extra));
      assert.deepEqual(sections(a), sections(b), "two nodes' snapshots of the same height: the same sections");
      assert.deepEqual(Buffer.from(a), Buffer.from(b), "two nodes' snapshots of the same height are byte-identical");
      const decoded = decodeSnapshotState(a);
      assert.deepEqual(Buffer.from(encodeSnapshotState(decoded)), Buffer.from(a), "decode ∘ encode is the identity");
      assert.equal(checkSnapshotBlocks(decoded, snapshotDirectoryKeyMR(decoded)), undefined);
      assert.match(checkSnapshotBlocks(decoded, new Uint8Array(32)) ?? "", /not the certified/);

      // the stored snapshot 4 checks out: certificate (one federated server of one), hash, blocks
      assert.ok(headers.parts.has(2) && headers.parts.has(4), "header segments 2 and 4 stored");
      const chain4 = await chainTo(headers, 4);
      assert.ok(!(chain4 instanceof HeaderChainBroken), `the header chain reaches 4: ${String(chain4)}`);
      // another node writes the same segments byte for byte; only those the archive lacks, newest first
      const copy = new MemoryArchive();
      assert.deepEqual(await storeHeaderSegments(f1.store, copy, 4, 2), [4, 2]);
      assert.deepEqual(copy.parts.get(2), headers.parts.get(2));
      assert.deepEqual(copy.parts.get(4), headers.parts.get(4));
      assert.deepEqual(await storeHeaderSegments(f1.store, copy, 4, 2), []);
      copy.parts.delete(4);
      assert.deepEqual(await storeHeaderSegments(f1.store, copy, 4, 2), [4]);
      const stored = verifySnapshotParts(
        (await archive.get(4))!,
        { networkId: NET, height: 4, bootstrap: BOOTSTRAP },
        chain4,
      );
      assert.equal(stored.state.height, 4);
      assert.equal(stored.certificate.signatures.length, 1);
      const reencoded = encodeSnapshotParts(stored.certificate, encodeSnapshotState(stored.state));
      assert.deepEqual(decodeSnapshotParts(reencoded).bytes, decodeSnapshotParts((await archive.get(4))!).bytes);

      // a certificate without its signatures, or carrying a stranger's, certifies nothing; a genuine certificate
      // over other bytes (snapshot 2's) fails the hash check
      const expect4 = { networkId: NET, height: 4, bootstrap: { identity: BOOT, publicKey: BOOT_KEY } };
      const refusedWith = (
        parts: Uint8Array[],
        pattern: RegExp,
        chain: ChainCheckpoint | HeaderChainBroken = chain4,
      ): void =>
        assert.throws(
          () => verifySnapshotParts(parts, expect4, chain),
          (e: unknown) => e instanceof SnapshotRefused && pattern.test(e.reason),
        );
      const bytes4 = encodeSnapshotState(stored.state);
      refusedWith(encodeSnapshotParts({ ...stored.certificate, signatures: [] }, bytes4), /^0 valid signature/);
      const stranger = serverIdentity(9);
      const strangers = [sig(stranger, stored.certificate.hash, { height: 4 })];
      refusedWith(encodeSnapshotParts({ ...stored.certificate, signatures: strangers }, bytes4), /^0 valid signature/);
      const other = decodeSnapshotParts((await archive.get(2))!).bytes;
      refusedWith(encodeSnapshotParts(stored.certificate, other), /hash to .* not the certified/);

      // forged: the blocks of 4 with a made-up authority set, certified by the made-up servers' own (real) keys —
      // self-consistent, and counted against the servers the header chain from genesis names: nothing
      const madeUp = [7, 8, 9].map(serverIdentity);
      const fakeSet = new AuthoritySet(BOOTSTRAP);
      fakeSet.applyAdminBlock(
        0,
        madeUp.flatMap((m) => [
          { type: 0x05 as const, identityChainId: m.identity, dbHeight: 0 },
          { type: 0x08 as const, identityChainId: m.identity, keyPriority: 0, publicKey: m.publicKey, dbHeight: 0 },
        ]),
      );
      fakeSet.at(5);
      const forgedBytes = encodeSnapshotState({ ...stored.state, extra: encodeAuthorityExtra(fakeSet) });
      const forgedHash = snapshotHash(forgedBytes);
      const forgedSigs = madeUp.map((m) =>
        signRecord(
          {
            kind: "snapshotSignature",
            height: 4,
            hash: forgedHash,
            keyMR: stored.certificate.keyMR,
            signer: m.identity,
            signature: new Uint8Array(64),
          },
          NET,
          m.seed,
        ),
      ) as SnapshotSignature[];
      const forged = encodeSnapshotParts(
        { height: 4, hash: forgedHash, keyMR: stored.certificate.keyMR, signatures: forgedSigs },
        forgedBytes,
      );
      refusedWith(forged, /^0 valid signature\(s\) of the 1 federated .*header chain from genesis names/);
      // (what the chain from genesis replaces: certified under the set it carries, the forgery was taken)
      const carried: ChainCheckpoint = { keyMR: stored.certificate.keyMR, authorities: fakeSet };
      assert.equal(verifySnapshotParts(forged, expect4, carried).state.height, 4);
      // a chain that does not reach the height: refused with where it stops
      refusedWith(
        encodeSnapshotParts(stored.certificate, bytes4),
        /does not reach it: at height 3, no header segment 4/,
        new HeaderChainBroken(3, "no header segment 4 in the snapshot archive"),
      );
      // the chain's block of the height is another one than the certified keyMR
      const otherBlock: ChainCheckpoint = { keyMR: new Uint8Array(32).fill(7), authorities: chain4.authorities };
      refusedWith(
        encodeSnapshotParts(stored.certificate, bytes4),
        /names directory block .* chain's block 4 is 0707/,
        otherBlock,
      );
      // the federated servers agree with the chain but the set carried does not (a pending change more): refused
      const moreSet = AuthoritySet.restore(BOOTSTRAP, chain4.authorities.snapshot());
      moreSet.applyAdminBlock(4, [{ type: 0x06, identityChainId: madeUp[0]!.identity, dbHeight: 9 }]);
      refusedWith(encodeSnapshotParts(stored.certificate, bytes4), /another authority set than the header chain/, {
        keyMR: chain4.keyMR,
        authorities: moreSet,
      });

      // a fresh node starts from the newest snapshot at or below the network's height and follows the log on
      // what follows is about snapshot 4: a loaded machine can let the federation certify 6 (every 2) before fed0
      // stopped, and the newest would then be taken; the archive is cut back to 4 so the test does not hang on speed
      assert.ok(archive.parts.has(4), `snapshots stored: ${[...archive.parts.keys()].join(", ")}`);
      for (const k of [...archive.parts.keys()]) if (k > 4) archive.parts.delete(k);
      const late = await startFresh(mf, archive, dirs, headers);
      assert.equal(late.started?.height, 4);
      await mf.settle();
      assert.equal(late.node.ledger.heights().directoryBlockHeight, h);
      await late.node.ledger.closeSaved();
      assert.deepEqual(MemoryFederation.keyMRs(late.node, h).slice(4), MemoryFederation.keyMRs(f1, h).slice(4));
      assert.equal(late.node.ledger.directoryBlockByHeight(3), undefined, "heights before the snapshot: not held");
      // and its own snapshot of the tip is the others' byte for byte
      const c = encodeSnapshotState(readSnapshotState(late.node.store, NET, extra));
      assert.deepEqual(Buffer.from(c), Buffer.from(a), "a node started from a snapshot writes the same snapshot");

      // tampered: one byte of snapshot 4 changed in the archive — refused, the older snapshot 2 is used
      const parts = archive.parts.get(4)!;
      const last = parts[parts.length - 1]!;
      last[last.length - 1] = last[last.length - 1]! ^ 0x01;
      await assert.rejects(
        async () =>
          verifySnapshotParts((await archive.get(4))!, { networkId: NET, height: 4, bootstrap: BOOTSTRAP }, chain4),
        (e: unknown) => e instanceof SnapshotRefused && /hash to .* not the certified/.test(e.reason),
      );
      const fallback = await startFresh(mf, archive, dirs, headers);
      assert.equal(fallback.started?.height, 2);
      assert.ok(
        fallback.log.lines.some(
          (l) => l.msg === "certified snapshot refused; trying an older one" && l.fields?.height === 4,
        ),
      );
      await mf.settle();
      assert.deepEqual(
        MemoryFederation.keyMRs(fallback.node, h).slice(2),
        MemoryFederation.keyMRs(f1, h).slice(2),
        "from the older snapshot on, the same blocks",
      );
    } finally {
      await mf.stop();
    }
  });
});

describe("snapshots after authority changes (in-memory log, real LMDB)", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) cleanup(d);
  });

  it("a snapshot after servers were added and a key rotated checks out against the header chain from genesis", async () => {
    const archive = new MemoryArchive();
    const headers = new MemoryArchive();
    const mf = new MemoryFederation({ blockTimeSeconds: 1, snapshots: { interval: 2, archive, headers } });
    try {
      const [x, y] = [serverIdentity(1), serverIdentity(2)];
      const x2 = serverIdentity(4);
      const boot = await mf.start({ name: "boot", role: "federated" });
      dirs.push(boot.dir);
      await mf.append(mf.addServer("federated", x));
      await mf.append(mf.addServer("federated", y));
      dirs.push((await mf.start({ name: "x", role: "federated", server: { ...x, nextSeed: x2.seed } })).dir);
      dirs.push((await mf.start({ name: "y", role: "federated", server: y })).dir);
      await mf.savedHeight(3);
      const H = boot.ledger.openBlock().height + 3;
      const rotate = signRecord(
        { kind: "rotateKey", identity: x.identity, newKey: x2.publicKey, activationHeight: H, signature: NO_SIG },
        NET,
        x.seed,
      ) as Extract<ClusterRecord, { kind: "rotateKey" }>;
      await boot.fed.submitOperatorRecord(rotate);
      await mf.savedHeight(H + 3);
      const newest = Math.floor((H + 2) / 2) * 2;
      await waitFor(() => archive.parts.has(newest), `snapshot ${newest} stored`);
      const late = await startFresh(mf, archive, dirs, headers);
      assert.ok(
        (late.started?.height ?? 0) >= newest,
        `started from ${late.started?.height}, after the rotation at ${H}`,
      );
      const fed = late.started!.authorities.projected(late.started!.height + 1).federated;
      assert.equal(fed.length, 3, "the bootstrap server and the two added");
      assert.deepEqual(
        fed.find((a) => toHex(a.identity) === toHex(x.identity))?.publicKey,
        x2.publicKey,
        "x's new key",
      );
      assert.ok(late.log.lines.some((l) => l.msg === "header chain checked from genesis"));
      // (blocks keep coming: compare up to a height both have saved)
      const top = boot.ledger.heights().directoryBlockHeight;
      await waitFor(() => late.node.ledger.heights().directoryBlockHeight >= top, `the new node at ${top}`);
      await late.node.ledger.closeSaved();
      const from = late.started!.height;
      assert.deepEqual(
        MemoryFederation.keyMRs(late.node, top).slice(from),
        MemoryFederation.keyMRs(boot, top).slice(from),
      );
    } finally {
      await mf.stop();
    }
  });
});

async function startFresh(mf: MemoryFederation, archive: MemoryArchive, dirs: string[], headers: MemoryArchive) {
  const dir = tempDir("ledgerd-snapstart-");
  dirs.push(dir);
  const log = new MemoryLog();
  const options = { path: `${dir}/local/db`, network: "LOCAL" as const, networkId: NET };
  const store = LedgerStore.open(options);
  const started = await startFromSnapshot(
    {
      interval: 2,
      networkId: NET,
      bootstrap: { identity: BOOT, publicKey: BOOT_KEY },
      authorityFile: `${dir}/authorities.json`,
      genesisKeyMR: GENESIS_KEYMR,
    },
    {
      store: { isFresh: () => store.isFresh(), initialize: (w) => store.initialize(options, w) },
      archive: { snapshots: archive, headers },
      lastEndOfMinute: () => mf.log.lastOfKind("eom"),
      logger: log,
    },
  );
  await store.close();
  const node = await mf.start({ name: `late-${dirs.length}`, role: "follower" }, dir);
  return { started, node, log };
}

async function waitFor(cond: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A snapshot's parts in hex, section by section (a mismatch then names the section). */
function sections(bytes: Uint8Array): Record<string, unknown> {
  const s = decodeSnapshotState(bytes);
  const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
  return {
    head: [s.networkId, s.height, s.openBlockStartMs, s.logSequence],
    blocks: s.blocks.map((b) => `${b.kind}/${b.height}/${hex(b.raw)}`),
    entries: s.entries.map((e) => hex(e.hash)),
    tables: Object.fromEntries(Object.entries(s.tables).map(([k, v]) => [k, v.map(([x, y]) => `${hex(x)}=${hex(y)}`)])),
  };
}

describe("which snapshots a starting node tries", () => {
  it("looks at 64 heights at most, passes over missing ones, and tries 4 snapshots at most, newest first", async () => {
    assert.deepEqual(candidateHeights(9, 2), [8, 6, 4, 2]);
    assert.deepEqual(candidateHeights(9, 0), []);
    assert.equal(candidateHeights(1000, 2).length, SNAPSHOT_LOOKS);
    const snapshots = new MemoryArchive();
    // stored at 2…10 (parts that do not decode: each is refused), none at 12…20
    for (const h of [2, 4, 6, 8, 10]) await snapshots.put(h, [new Uint8Array([1, 0, 0, 0, h, 0, 0, 0, 1])]);
    const log = new MemoryLog();
    const got = await fetchCertifiedSnapshot(
      { snapshots, headers: new MemoryArchive() },
      candidateHeights(21, 2),
      { networkId: NET, bootstrap: BOOTSTRAP },
      { genesisKeyMR: GENESIS_KEYMR, interval: 2 },
      log,
    );
    assert.equal(got, undefined);
    const refused = log.lines
      .filter((l) => l.msg === "certified snapshot refused; trying an older one")
      .map((l) => l.fields?.height);
    assert.deepEqual(refused, [10, 8, 6, 4]);
  });
});
