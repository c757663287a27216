/**
 * The process list's bookkeeping, exactly (processList.ts; docs/testing.md §Mutation testing): the asset
 * block period of each minute, the EC block body built item by item (wire-format §5.4), the entry blocks
 * with their minute markers (§6.4) and Merkle roots, the lookups by txid and full hash, and the balance
 * deltas. Real commits, entries and signed transactions; the list is plain state the rules fill.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openRate, ProcessList, periodOfMinute, type RevealedEntry } from "../../../src/ledger/processList.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { type Commit, commitFullHash, commitTxId } from "../../../src/protocol/commit.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { merkleRoot } from "../../../src/protocol/merkle.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import type { PaidCommit } from "../../../src/store/records.js";
import { assetKey, chainCommit, entryCommit, entryRaw, firstEntry, payment, UNIT } from "./harness.js";

const T0 = Date.UTC(2024, 0, 1);

function marker(minute: number): Uint8Array {
  const m = new Uint8Array(32);
  m[31] = minute;
  return m;
}

/** The paid-commit record the rules keep for `commit` (or a bare one of `kind`), not yet revealed. */
function paidRecord(commit: Commit | "entry" | "chain", height = 2): PaidCommit {
  if (typeof commit === "string")
    return {
      kind: commit,
      credits: 1,
      revealed: false,
      height,
      milliTime: T0,
      txId: new Uint8Array(32).fill(9),
      chainIdHash: new Uint8Array(32),
    };
  return {
    kind: commit.kind,
    credits: commit.credits,
    revealed: false,
    height,
    milliTime: commit.milliTime,
    txId: commitTxId(commit),
    chainIdHash: commit.kind === "chain" ? commit.chainIdHash : new Uint8Array(32),
  };
}

/** Reveal `raw` into `pl`, paid by a commit of a former block (chain commit when `newChain`); the reveal as read back. */
function reveal(pl: ProcessList, raw: Uint8Array, newChain: boolean, timeMs = T0): RevealedEntry {
  pl.addReveal(raw, entryHash(raw), paidRecord(newChain ? "chain" : "entry"), timeMs);
  return pl.revealAt(pl.revealCount - 1);
}

function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

describe("process list", () => {
  test("a transaction of minute m lands in period max(0, m − 1): minutes 0 and 1 share period 0", () => {
    assert.deepEqual(
      Array.from({ length: 10 }, (_, m) => periodOfMinute(m)),
      [0, 0, 1, 2, 3, 4, 5, 6, 7, 8],
    );
    const pl = new ProcessList(5, T0);
    assert.equal(pl.periods.length, 10);
    const txs = [0, 1, 2, 3].map((i) =>
      payment({ milliTime: T0 + i, outputs: [{ to: assetKey(i + 1), amount: UNIT }] }),
    );
    const accepted = txs.map((tx) => ({
      tx,
      txId: transactionId(tx),
      fullHash: new Uint8Array(32).fill(1 + txs.indexOf(tx)),
      timeMs: T0,
    }));
    pl.addTransaction(accepted[0]!); // minute 0
    pl.endMinute(T0 + 600);
    pl.addTransaction(accepted[1]!); // minute 1
    pl.endMinute(T0 + 1200);
    pl.addTransaction(accepted[2]!); // minute 2
    pl.addTransaction(accepted[3]!); // minute 2
    assert.deepEqual(
      pl.periods.map((p) => p.length),
      [2, 2, 0, 0, 0, 0, 0, 0, 0, 0],
    );
    assert.equal(pl.periods[0]![0], accepted[0]);
    assert.equal(pl.periods[0]![1], accepted[1]);
    assert.deepEqual(pl.transactions, accepted);
    for (const a of accepted) {
      assert.equal(pl.transactionsByHash.get(toHex(a.txId)), a);
      assert.equal(pl.transactionsByHash.get(toHex(a.fullHash)), a);
    }
    assert.equal(pl.transactionsByHash.size, 8);
  });

  test("starts at minute 0 of its height, sequence 0, the minute starting with the block", () => {
    const pl = new ProcessList(7, T0 + 42);
    assert.equal(pl.height, 7);
    assert.equal(pl.startMs, T0 + 42);
    assert.equal(pl.minute, 0);
    assert.equal(pl.minuteStartMs, T0 + 42);
    assert.equal(pl.nextSeq, 0);
    assert.equal(pl.ecBody.length, 0);
    assert.equal(pl.ecItemCount, 0);
    assert.equal(pl.entryBlocks.size, 0);
    assert.equal(pl.commitCount, 0);
    assert.equal(pl.revealCount, 0);
    assert.equal(pl.paidCommitCount, 0);
    assert.equal(pl.arenaBytes, 0);
    assert.deepEqual(pl.journalSeqs, []);
  });

  test("the EC block body grows item by item: ECID 02/03 ‖ the commit, ECID 01 ‖ the minute (1..10)", () => {
    const pl = new ProcessList(1, T0);
    const a = firstEntry(["pl", "a"], "x");
    const cc = chainCommit(a.raw, T0);
    const ec = entryCommit(entryRaw(a.chainId, ["b"], "y"), T0);
    pl.addCommit(cc, commitTxId(cc), commitFullHash(cc), T0 + 1, paidRecord(cc));
    const p1 = pl.commitAt(0);
    assert.deepEqual(p1, {
      commit: cc,
      txId: commitTxId(cc),
      fullHash: commitFullHash(cc),
      timeMs: T0 + 1,
      ecIndex: 0,
    });
    // kept as a copy of its bytes in the arena, not the caller's objects
    assert.notEqual(p1.commit, cc);
    assert.notEqual(p1.commit.raw.buffer, cc.raw.buffer);
    assert.equal(p1.txId.buffer, p1.commit.raw.buffer, "the txid lies in the arena's chunk too");
    assert.equal(p1.txId.byteOffset, p1.commit.raw.byteOffset + cc.raw.length, "right after the commit");
    assert.equal(pl.paidCommitCount, 1);
    const rec = pl.paidCommitAt(0);
    assert.deepEqual(rec, { entryHash: cc.entryHash, record: paidRecord(cc, 2) });
    assert.deepEqual(pl.paidCommit(cc.entryHash), paidRecord(cc, 2));
    assert.equal(rec.record.txId.buffer, p1.txId.buffer, "the record's txid is in the arena");
    // its reveal marks the record revealed, and keeps the txid of the commit that paid
    pl.addReveal(a.raw, entryHash(a.raw), rec.record, T0 + 2);
    const r1 = pl.revealAt(0);
    assert.deepEqual(r1.entryHash, p1.commit.entryHash);
    assert.deepEqual(r1.commitTxId, p1.txId);
    assert.equal(pl.paidCommitCount, 1, "one record per entry hash");
    assert.deepEqual(pl.paidCommitAt(0), {
      entryHash: p1.commit.entryHash,
      record: { ...paidRecord(cc, 2), revealed: true },
    });
    pl.endMinute(T0 + 600);
    pl.addCommit(ec, commitTxId(ec), commitFullHash(ec), T0 + 601, paidRecord(ec));
    const p2 = pl.commitAt(1);
    assert.equal(p2.ecIndex, 2, "after the chain commit and the minute item");
    pl.endMinute(T0 + 1200);
    assert.equal(pl.ecItemCount, 4, "chain commit, minute, entry commit, minute");
    assert.deepEqual([...pl.ecBody.finish()], [...concat([2], cc.raw, [1, 1], [3], ec.raw, [1, 2])]);
    assert.equal(pl.commitCount, 2);
    assert.deepEqual(pl.commitKeysAt(1), { txId: p2.txId, fullHash: p2.fullHash, ecIndex: 2 });
    for (const [i, p] of [p1, p2].entries()) {
      assert.equal(pl.commitIndexOf(p.txId), i);
      assert.equal(pl.commitIndexOf(p.fullHash), i);
      assert.deepEqual(pl.commitByHash(p.txId), p);
      assert.deepEqual(pl.commitByHash(p.fullHash), p);
    }
    assert.equal(pl.commitIndexOf(cc.entryHash), -1, "an entry hash is not a commit's key");
    assert.equal(pl.commitByHash(new Uint8Array(32)), undefined);
    // the body goes on past its first allocation (4,096 bytes) unchanged
    for (let i = 0; i < 7; i++) pl.endMinute(T0 + 1800 + i);
    for (let i = 0; i < 40; i++)
      pl.addCommit(ec, commitTxId(ec), new Uint8Array(32).fill(i), T0 + 7000, paidRecord(ec));
    const body = pl.ecBody.finish();
    assert.equal(body.length, 342 + 7 * 2 + 40 * 137);
    assert.deepEqual([...body.subarray(body.length - 137)], [...concat([3], ec.raw)]);
    assert.deepEqual([...body.subarray(342, 356)], [1, 3, 1, 4, 1, 5, 1, 6, 1, 7, 1, 8, 1, 9]);
  });

  test("minutes advance one at a time, each end taking its time as the next minute's start", () => {
    const pl = new ProcessList(1, T0);
    for (let m = 0; m < 10; m++) {
      assert.equal(pl.minute, m);
      pl.endMinute(T0 + 600 * (m + 1) + 3);
      assert.equal(pl.minuteStartMs, T0 + 600 * (m + 1) + 3);
      assert.equal(pl.ecItemCount, m + 1);
      assert.deepEqual([...pl.ecBody.finish().subarray(-2)], [1, m + 1], "ECID 01 ‖ the minute");
    }
    assert.equal(pl.minute, 10);
    assert.equal(pl.startMs, T0, "the block start does not move");
  });

  test("entry blocks: one per chain, in arrival order, a minute marker after each minute with entries", () => {
    const pl = new ProcessList(2, T0);
    const a = firstEntry(["pl chain a"], "a0");
    const b = firstEntry(["pl chain b"], "b0");
    const a0 = reveal(pl, a.raw, true);
    pl.endMinute(T0 + 600); // marker 1 into chain a
    const b0 = reveal(pl, b.raw, true);
    const a1 = reveal(pl, entryRaw(a.chainId, ["a1"], "a1"), false);
    pl.endMinute(T0 + 1200); // marker 2 into a and b
    pl.endMinute(T0 + 1800); // no entries in minute 3: no marker 3 (the last item is a marker)
    const a2Raw = entryRaw(a.chainId, ["a2"], "a2");
    const a2 = reveal(pl, a2Raw, false, T0 + 1900);
    // the record: copies in the arena, the chain ID a view of the entry's bytes
    assert.deepEqual(a2, {
      entryHash: entryHash(a2Raw),
      raw: a2Raw,
      chainId: a.chainId,
      commitTxId: new Uint8Array(32).fill(9),
      timeMs: T0 + 1900,
      block: pl.entryBlocks.get(toHex(a.chainId)),
    });
    assert.notEqual(a2.raw.buffer, a2Raw.buffer);
    assert.equal(a2.chainId.buffer, a2.raw.buffer);
    assert.equal(a2.chainId.byteOffset, a2.raw.byteOffset + 1);
    assert.deepEqual(pl.paidCommit(a2.entryHash), { ...paidRecord("entry"), revealed: true });
    pl.endMinute(T0 + 2400); // marker 4 into a only
    const ea = pl.entryBlocks.get(toHex(a.chainId))!;
    const eb = pl.entryBlocks.get(toHex(b.chainId))!;
    assert.deepEqual([...pl.entryBlocks.keys()], [toHex(a.chainId), toHex(b.chainId)]);
    assert.deepEqual(
      ea.items().map(toHex),
      [a0.entryHash, marker(1), a1.entryHash, marker(2), a2.entryHash, marker(4)].map(toHex),
    );
    assert.deepEqual(eb.items().map(toHex), [b0.entryHash, marker(2)].map(toHex));
    assert.equal(ea.itemCount, 6);
    assert.equal(toHex(ea.itemBytes()), ea.items().map(toHex).join(""), "the items, one after another");
    assert.equal(toHex(ea.merkle.root()), toHex(merkleRoot(ea.items())));
    assert.equal(toHex(eb.merkle.root()), toHex(merkleRoot(eb.items())));
    assert.equal(ea.newChain, true);
    assert.equal(eb.newChain, true);
    assert.equal(toHex(ea.chainId), toHex(a.chainId));
    assert.deepEqual([...pl.newChains].sort(), [toHex(a.chainId), toHex(b.chainId)].sort());
    assert.equal(a0.block, ea);
    assert.equal(a1.block, ea);
    assert.equal(b0.block, eb);
    assert.deepEqual(
      Array.from({ length: pl.revealCount }, (_, i) => pl.revealAt(i)),
      [a0, b0, a1, a2],
    );
    for (const r of [a0, b0, a1, a2]) {
      assert.deepEqual(pl.revealByHash(r.entryHash), r);
      assert.equal(pl.hasReveal(r.entryHash), true);
    }
    assert.equal(pl.hasReveal(marker(1)), false);
    assert.equal(pl.revealByHash(marker(1)), undefined);
  });

  test("an entry block of an existing chain is not a new chain; the latest reveal of an entry hash is kept", () => {
    const pl = new ProcessList(2, T0);
    const a = firstEntry(["pl existing"], "e0");
    const e1 = reveal(pl, entryRaw(a.chainId, ["e1"], "e1"), false);
    const eb = pl.entryBlocks.get(toHex(a.chainId))!;
    assert.equal(eb.newChain, false);
    assert.equal(pl.newChains.size, 0);
    // the same entry again (paid again): a second item, and the lookup gives the later reveal
    const again = reveal(pl, e1.raw, false, T0 + 5);
    assert.deepEqual(eb.items().map(toHex), [e1.entryHash, e1.entryHash].map(toHex));
    assert.deepEqual(pl.revealByHash(e1.entryHash), again);
    assert.equal(pl.revealByHash(e1.entryHash)?.timeMs, T0 + 5);
    assert.equal(pl.revealCount, 2);
    assert.equal(pl.paidCommitCount, 1);
  });

  test("a greater commit of an entry hash replaces its record; both commits stay found by their keys", () => {
    const pl = new ProcessList(3, T0);
    const a = firstEntry(["pl recommit"], "r0");
    const raw = entryRaw(a.chainId, ["r1"], "r1");
    const low = entryCommit(raw, T0, undefined, 1);
    const high = entryCommit(raw, T0 + 1, undefined, 2);
    pl.addCommit(low, commitTxId(low), commitFullHash(low), T0 + 1, paidRecord(low));
    pl.addCommit(high, commitTxId(high), commitFullHash(high), T0 + 2, paidRecord(high));
    assert.equal(pl.commitCount, 2);
    assert.equal(pl.paidCommitCount, 1);
    assert.deepEqual(pl.paidCommit(entryHash(raw)), paidRecord(high));
    assert.equal(pl.commitIndexOf(commitTxId(low)), 0);
    assert.equal(pl.commitIndexOf(commitFullHash(high)), 1);
    assert.equal(pl.hasReveal(entryHash(raw)), false, "committed, not revealed");
    assert.equal(pl.revealByHash(entryHash(raw)), undefined);
    // revealed: paid by the greater one; the reveal keeps its txid
    pl.addReveal(raw, entryHash(raw), pl.paidCommit(entryHash(raw))!, T0 + 3);
    assert.deepEqual(pl.revealAt(0).commitTxId, commitTxId(high));
    assert.deepEqual(pl.paidCommit(entryHash(raw)), { ...paidRecord(high), revealed: true });
    // committed once more (paying for a second reveal): a new record, the reveal still found with its txid
    const third = entryCommit(raw, T0 + 2, undefined, 3);
    pl.addCommit(third, commitTxId(third), commitFullHash(third), T0 + 4, paidRecord(third));
    assert.deepEqual(pl.paidCommit(entryHash(raw)), paidRecord(third));
    assert.equal(pl.hasReveal(entryHash(raw)), true);
    assert.deepEqual(pl.revealByHash(entryHash(raw))?.commitTxId, commitTxId(high));
    // a reveal paid by a commit of a former block gets a record of its own, after this block's
    const other = entryRaw(a.chainId, ["r2"], "r2");
    reveal(pl, other, false);
    assert.equal(pl.paidCommitCount, 2);
    assert.deepEqual(pl.paidCommitAt(1), {
      entryHash: entryHash(other),
      record: { ...paidRecord("entry"), revealed: true },
    });
    // every record's entry hash and timestamp, in slot order, as the close hands them to the saved-commit filter
    const paid: string[] = [];
    pl.forEachPaid((bytes, at, milliTime) => {
      paid.push(`${toHex(bytes.subarray(at, at + 32))} ${milliTime}`);
    });
    assert.deepEqual(paid, [
      `${toHex(entryHash(raw))} ${third.milliTime}`,
      `${toHex(entryHash(other))} ${paidRecord("entry").milliTime}`,
    ]);
    assert.ok(pl.arenaBytes > 2 * 136 + raw.length + other.length, "the bytes are counted");
  });

  test("an entry block's items grow past their first allocation, in order, with their Merkle root", () => {
    const pl = new ProcessList(2, T0);
    const a = firstEntry(["pl many"], "m0");
    const revealed = Array.from({ length: 40 }, (_, i) => reveal(pl, entryRaw(a.chainId, [`m${i}`], `${i}`), i === 0));
    pl.endMinute(T0 + 600);
    const eb = pl.entryBlocks.get(toHex(a.chainId))!;
    assert.equal(eb.itemCount, 41);
    const expected = [...revealed.map((r) => r.entryHash), marker(1)];
    assert.deepEqual(eb.items().map(toHex), expected.map(toHex));
    assert.equal(toHex(eb.itemBytes()), expected.map(toHex).join(""));
    assert.equal(toHex(eb.merkle.root()), toHex(merkleRoot(expected)));
    assert.equal(eb.endsWithMarker(), true);
  });

  test("the rate the open block pays: its own when set, else the tip's", () => {
    const pl = new ProcessList(2, T0);
    assert.equal(openRate(pl, { exchangeRate: 1000n }), 1000n);
    pl.exchangeRate = 2500n;
    assert.equal(openRate(pl, { exchangeRate: 1000n }), 2500n);
  });

  test("balance changes add up per address", () => {
    const pl = new ProcessList(1, T0);
    const x = new Uint8Array(32).fill(1);
    const y = new Uint8Array(32).fill(2);
    pl.changeAsset(x, 5n);
    pl.changeAsset(y, -3n);
    pl.changeAsset(x, -7n);
    pl.changeEC(x, 10n);
    pl.changeEC(x, 4n, toHex(x), 50n);
    pl.changeEC(x, 1n, toHex(x), 60n);
    pl.changeEC(y, -1n);
    assert.deepEqual(
      [...pl.assetDelta.entries()],
      [
        [toHex(x), { address: x, delta: -2n }],
        [toHex(y), { address: y, delta: -3n }],
      ],
    );
    assert.deepEqual(
      [...pl.ecDelta.entries()],
      [
        // the saved balance the rules read first is kept for the block (rules.ts savedEC)
        [toHex(x), { publicKey: x, delta: 15n, saved: 50n }],
        [toHex(y), { publicKey: y, delta: -1n, saved: undefined }],
      ],
    );
  });
});
