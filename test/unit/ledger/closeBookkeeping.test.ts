/**
 * The block close's bookkeeping, exactly (close.ts; docs/testing.md §Mutation testing): the "block saved"
 * and "block closed" lines and what they count, the close counters of the debug stats and how they add up,
 * the next height opened at the close's time, and the journal records the save removes (all of the closed
 * height's but a held reveal's). No timing budget: the measured times are only checked to add up and to lie
 * within the time the test itself saw pass. Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { encodeMessage } from "../../../src/ledger/messages.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { directoryBlockHashes } from "../../../src/protocol/dblock.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { BlockKind } from "../../../src/store/keys.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  entryCommit,
  entryRaw,
  firstEntry,
  ManualClock,
  openNode,
  payment,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

function lines(n: TestNode, msg: string) {
  return n.log.lines.filter((l) => l.msg === msg);
}

describe("block close", () => {
  test("a close saves the block, logs and counts it, opens the next height at its time, and removes its journal", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      const before = n.ledger.stats();
      await buyEC(n, ecKey, 100n);
      await n.ledger.submitTransaction(
        payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(3), amount: UNIT }] }),
      );
      const a = firstEntry(["close edges", "a"], "x");
      const b = firstEntry(["close edges", "b"], "y");
      await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
      await n.ledger.submitReveal(a.raw);
      await n.ledger.submitCommit(chainCommit(b.raw, n.clock.ms));
      await n.ledger.submitReveal(b.raw);
      const held = firstEntry(["close edges", "held"], "z").raw; // no commit: held past the close
      await n.ledger.submitReveal(held);
      const heldSeq = n.store.journalRecords(h).at(-1)!.seq;
      await endMinutes(n, 9);
      const started = performance.now();
      await n.ledger.endMinute(n.clock.advance(600));
      await n.ledger.flush();
      const elapsed = performance.now() - started;

      assert.equal(n.ledger.heights().directoryBlockHeight, h);
      assert.deepEqual(n.ledger.openBlock(), {
        height: h + 1,
        minute: 0,
        startMs: n.clock.ms,
        minuteStartMs: n.clock.ms,
      });
      const s = n.ledger.stats();
      assert.equal(s.blocksClosed, before.blocksClosed! + 1);
      // the times add up: build, then the packing for the writer thread; the longest turn is one of them
      assert.equal(s.lastCloseMs, s.lastCloseBuildMs! + s.lastCloseSaveMs!);
      assert.ok(s.lastCloseBuildMs! > 0 && s.lastCloseSaveMs! >= 0 && s.lastCloseWriteMs! >= 0);
      assert.ok(s.lastCloseBuildMs! <= s.lastCloseLongestTurnMs! && s.lastCloseLongestTurnMs! <= s.lastCloseMs!);
      assert.ok(s.lastCloseMs! <= elapsed, `${s.lastCloseMs} ms of close within the ${elapsed} ms the test saw`);
      assert.ok(s.lastCloseCpuMs! >= 0 && s.lastCloseCpuMs! < 60_000, `${s.lastCloseCpuMs} ms of CPU`);

      const keyMR = n.ledger.directoryBlockByHeight(h)!;
      assert.deepEqual(lines(n, "block closed"), [
        {
          level: "debug",
          msg: "block closed",
          fields: {
            height: h,
            keymr: toHex(directoryBlockHashes(keyMR.block).keyMR),
            entryBlocks: 2,
            closeMs: Math.round(s.lastCloseBuildMs!),
          },
        },
      ]);
      assert.deepEqual(lines(n, "block saved"), [
        {
          level: "info",
          msg: "block saved",
          fields: {
            height: h,
            entries: 2,
            commits: 2,
            transactions: 2,
            closeMs: Math.round(s.lastCloseBuildMs! + s.lastCloseSaveMs!),
            replayed: false,
          },
        },
      ]);
      // the save removed the closed height's journal but the held reveal's record
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [heldSeq],
      );
      assert.deepEqual(
        [...n.store.journalRecords(h)[0]!.bytes],
        [...encodeMessage({ kind: "reveal", timeMs: T0, entryRaw: held })],
      );
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("an empty block closes with no entry blocks, and a second close is counted again", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      const before = n.ledger.stats().blocksClosed!;
      await endMinutes(n, 20);
      await n.ledger.flush();
      assert.equal(n.ledger.stats().blocksClosed, before + 2);
      assert.deepEqual(
        lines(n, "block closed").map((l) => [l.fields?.height, l.fields?.entryBlocks]),
        [
          [h, 0],
          [h + 1, 0],
        ],
      );
      assert.deepEqual(
        lines(n, "block saved").map((l) => [
          l.fields?.height,
          l.fields?.entries,
          l.fields?.commits,
          l.fields?.transactions,
        ]),
        [
          [h, 0, 0, 0],
          [h + 1, 0, 0, 0],
        ],
      );
      assert.deepEqual(n.store.journalRecords(h), []);
      assert.deepEqual(n.store.journalRecords(h + 1), []);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a close replayed from the journal is saved at once and logged as replayed", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      let seq = 0;
      for (let m = 0; m < 10; m++)
        await n.store.appendJournal(
          h,
          seq++,
          encodeMessage({ kind: "endOfMinute", timeMs: n.clock.advance(600), minute: m }),
        );
      await n.ledger.flush();
      await closeNode(n);
      n = openNode(n.dir, { clock: new ManualClock(n.clock.ms) });
      assert.equal(n.ledger.heights().directoryBlockHeight, h);
      await n.ledger.flush();
      const s = n.ledger.stats();
      assert.deepEqual(lines(n, "block saved"), [
        {
          level: "info",
          msg: "block saved",
          fields: {
            height: h,
            entries: 0,
            commits: 0,
            transactions: 0,
            closeMs: Math.round(s.lastCloseBuildMs!),
            replayed: true,
          },
        },
      ]);
      assert.equal(s.lastCloseMs, s.lastCloseBuildMs, "saved synchronously: no packing time");
      // saved in the store itself, not only shown from memory
      assert.notEqual(n.store.blockHashAt(BlockKind.directory, h), undefined);
      assert.equal(n.store.savedHeight(), h);
      assert.deepEqual(n.store.journalRecords(h), []);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a chain's entry block in a later block links to its previous one; a held reveal's record goes when a later close pays it", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      await buyEC(n, ecKey, 100n);
      const a = firstEntry(["close edges", "chain"], "first");
      await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
      await n.ledger.submitReveal(a.raw);
      const held = firstEntry(["close edges", "held later"], "z").raw;
      await n.ledger.submitReveal(held);
      const heldSeq = n.store.journalRecords(h).at(-1)!.seq;
      await endMinutes(n, 10);
      await n.ledger.flush();
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [heldSeq],
      );
      const first = n.ledger
        .directoryBlockByHeight(h)!
        .block.entries.find((e) => toHex(e.chainId) === toHex(a.chainId))!;
      // block h + 1: the chain's next entry, and the commit that pays the held reveal
      const next = entryRaw(a.chainId, ["next"], "second");
      await n.ledger.submitCommit(entryCommit(next, n.clock.ms));
      await n.ledger.submitReveal(next);
      await n.ledger.submitCommit(chainCommit(held, n.clock.ms));
      await endMinutes(n, 10);
      await n.ledger.flush();
      const second = n.ledger
        .directoryBlockByHeight(h + 1)!
        .block.entries.find((e) => toHex(e.chainId) === toHex(a.chainId))!;
      const eb = n.ledger.entryBlockByHash(second.keyMR)!.block;
      assert.equal(toHex(eb.prevKeyMR), toHex(first.keyMR));
      assert.equal(eb.sequence, 1);
      assert.equal(toHex(n.ledger.chainHead(a.chainId).head!), toHex(second.keyMR));
      assert.equal(n.ledger.entryAck(entryHash(held)).entry.status, AckStatus.DBlockConfirmed);
      assert.deepEqual(
        n.store.journalRecords(h),
        [],
        "the held reveal's record at height h went with the close that paid it",
      );
      assert.deepEqual(n.store.journalRecords(h + 1), []);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});
