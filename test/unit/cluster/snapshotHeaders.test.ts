/**
 * A starting node's reader of the header segments (snapshotHeaders.ts `HeaderChainReader`), beside
 * snapshotChain.test.ts's archive test and snapshots.test.ts's federation, written for its mutation run (docs/testing.md
 * §Mutation testing): which segment each height is read from and only once, a segment that does not decode or holds
 * too few heights named whole, a link that breaks inside a segment, a height that is no snapshot height, and what the
 * reader answers once the chain is broken. The chains: snapshotChainFixture.ts (real blocks, real signatures).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { encodeHeaderSegment, HeaderChainBroken } from "../../../src/cluster/snapshotChain.js";
import { HeaderChainReader, storeHeaderSegments } from "../../../src/cluster/snapshotHeaders.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { networkId } from "../../../src/protocol/network.js";
import { BlockKind } from "../../../src/store/keys.js";
import { LedgerStore } from "../../../src/store/store.js";
import { noOtherRecords } from "../../support/blockSetWrites.js";
import { MemoryArchive } from "../../support/memoryFederation.js";
import { cleanup, tempDir } from "../ledger/harness.js";
import { BOOTSTRAP, good, INTERVAL, NET } from "./snapshotChainFixture.js";

const OPTIONS = { networkId: NET, genesisKeyMR: good.genesisKeyMR, bootstrap: BOOTSTRAP, interval: INTERVAL };

/** An archive of header segments that counts the reads of each height. */
class CountingArchive extends MemoryArchive {
  readonly reads: number[] = [];
  override async get(height: number): Promise<Uint8Array[] | undefined> {
    this.reads.push(height);
    return super.get(height);
  }
}

/** The genuine segments 4 (heights 0…4) and 8 (5…8). */
async function archived(): Promise<CountingArchive> {
  const archive = new CountingArchive();
  await archive.put(4, encodeHeaderSegment(4, 0, good.links.slice(0, 5)));
  await archive.put(8, encodeHeaderSegment(8, 5, good.links.slice(5, 9)));
  return archive;
}

function brokenWith(r: unknown, height: number, reason: string): void {
  assert.ok(r instanceof HeaderChainBroken, String(r));
  assert.equal(r.reason, reason);
  assert.equal(r.height, height);
}

describe("header chain reader: edges", () => {
  it("reads each segment once, in order, and keeps the checkpoints it passed", async () => {
    const archive = await archived();
    const reader = new HeaderChainReader(OPTIONS, archive);
    const at8 = await reader.upTo(8);
    assert.ok(!(at8 instanceof HeaderChainBroken));
    assert.deepEqual(at8.keyMR, good.links[9]!.header.subarray(37, 69), "header 8's keyMR (header 9's PrevKeyMR)");
    assert.equal(reader.checked, 9);
    assert.deepEqual(archive.reads, [4, 8]);
    const at4 = await reader.upTo(4);
    assert.ok(!(at4 instanceof HeaderChainBroken));
    assert.deepEqual(at4.keyMR, good.links[5]!.header.subarray(37, 69));
    assert.deepEqual(archive.reads, [4, 8], "nothing read again");
    // a fresh reader asked for 4 reads segment 4 alone
    const first = await archived();
    assert.ok(!((await new HeaderChainReader(OPTIONS, first).upTo(4)) instanceof HeaderChainBroken));
    assert.deepEqual(first.reads, [4]);
  });
  it("a height that is no snapshot height: the chain read past it, then no checkpoint, and broken from there", async () => {
    const archive = await archived();
    const reader = new HeaderChainReader(OPTIONS, archive);
    brokenWith(await reader.upTo(6), 9, "no checkpoint at 6");
    assert.deepEqual(archive.reads, [4, 8]);
    assert.equal(reader.checked, 9);
    // the checkpoints before the break stay; nothing after it is read
    assert.ok(!((await reader.upTo(8)) instanceof HeaderChainBroken));
    brokenWith(await reader.upTo(12), 9, "no checkpoint at 6");
    assert.deepEqual(archive.reads, [4, 8]);
  });
  it("a segment that does not decode is named with the decoder's error", async () => {
    const archive = await archived();
    const parts = (await archive.get(8))!;
    await archive.put(8, [parts[0]!.subarray(0, parts[0]!.length - 1)]);
    const reader = new HeaderChainReader(OPTIONS, archive);
    const r = await reader.upTo(8);
    assert.ok(r instanceof HeaderChainBroken);
    assert.match(r.reason, /^header segment 8 does not decode: headerSegment\.links\[3\]\.admin: needs \d+ byte\(s\)/);
    assert.equal(r.height, 5);
    assert.ok(!((await reader.upTo(4)) instanceof HeaderChainBroken), "what was checked stays usable");
  });
  it("a segment of the right start but too few heights is refused naming both ranges", async () => {
    const archive = await archived();
    await archive.put(8, encodeHeaderSegment(8, 5, good.links.slice(5, 8)));
    brokenWith(await new HeaderChainReader(OPTIONS, archive).upTo(8), 5, "header segment 8 holds heights 5…7, not 5…8");
    const first = await archived();
    await first.put(4, encodeHeaderSegment(4, 0, good.links.slice(0, 6)));
    brokenWith(await new HeaderChainReader(OPTIONS, first).upTo(4), 0, "header segment 4 holds heights 0…5, not 0…4");
  });
  it("a link that breaks inside a segment is the answer, at its height", async () => {
    const archive = await archived();
    await archive.put(8, encodeHeaderSegment(8, 5, [good.links[5]!, good.links[7]!, good.links[7]!, good.links[8]!]));
    const reader = new HeaderChainReader(OPTIONS, archive);
    brokenWith(await reader.upTo(8), 6, "the header says height 7");
    assert.equal(reader.checked, 6);
  });
});

describe("header segments: written from a store, read at every interval", () => {
  it("a store of heights 0…9 writes segments 8 and 4, newest first, only those missing, none beyond its blocks", async () => {
    const dir = tempDir();
    const path = join(dir, "db");
    const options = { path, network: "LOCAL" as const, networkId: networkId("LOCAL") };
    const store = LedgerStore.open(options);
    try {
      // the good chain's directory and admin blocks, saved as a node saves them (real LMDB; no other record)
      good.links.forEach((l, h) => {
        const set = {
          height: h,
          openBlockStartMs: 1_700_000_000_000 + h,
          blocks: [
            { kind: BlockKind.directory, primary: sha256(good.directories[h]!), raw: good.directories[h]!, height: h },
            { kind: BlockKind.admin, primary: sha256(l.admin), raw: l.admin, height: h },
          ],
          ...noOtherRecords(),
        };
        if (h === 0) store.initialize(options, set);
        else store.saveBlockSet(set);
      });
      const archive = new MemoryArchive();
      assert.deepEqual(await storeHeaderSegments(store, archive, 8, INTERVAL), [8, 4]);
      assert.deepEqual(archive.parts.get(4), encodeHeaderSegment(4, 0, good.links.slice(0, 5)));
      assert.deepEqual(archive.parts.get(8), encodeHeaderSegment(8, 5, good.links.slice(5, 9)));
      assert.deepEqual(await storeHeaderSegments(store, archive, 8, INTERVAL), []);
      archive.parts.delete(8);
      assert.deepEqual(await storeHeaderSegments(store, archive, 8, INTERVAL), [8]);
      // heights the store does not hold (10…12): nothing written, and no older segment either
      const later = new MemoryArchive();
      assert.deepEqual(await storeHeaderSegments(store, later, 12, INTERVAL), []);
      assert.equal(later.parts.size, 0);
      assert.ok(!((await new HeaderChainReader(OPTIONS, archive).upTo(8)) instanceof HeaderChainBroken));
    } finally {
      await store.close();
      cleanup(dir);
    }
  });
  it("an interval of 1: each segment starts where the chain stands, and every height is a checkpoint", async () => {
    const archive = new MemoryArchive();
    await archive.put(1, encodeHeaderSegment(1, 0, good.links.slice(0, 2)));
    for (let h = 2; h <= 4; h++) await archive.put(h, encodeHeaderSegment(h, h, [good.links[h]!]));
    const reader = new HeaderChainReader({ ...OPTIONS, interval: 1 }, archive);
    for (let h = 1; h <= 4; h++) {
      const r = await reader.upTo(h);
      assert.ok(!(r instanceof HeaderChainBroken), `${h}: ${String(r)}`);
      assert.deepEqual(r.keyMR, good.links[h + 1]!.header.subarray(37, 69));
      assert.equal(reader.checked, h + 1);
    }
  });
  it("a segment of the right length that starts elsewhere is refused naming both ranges", async () => {
    const archive = await archived();
    await archive.put(8, encodeHeaderSegment(8, 4, good.links.slice(4, 8)));
    brokenWith(await new HeaderChainReader(OPTIONS, archive).upTo(8), 5, "header segment 8 holds heights 4…7, not 5…8");
  });
});
