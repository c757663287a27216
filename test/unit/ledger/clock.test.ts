/**
 * The clock on real timers: it appends end-of-minute messages every blockTimeSeconds / 10 and so
 * produces blocks; a block opened at start gets the start time; stop() waits for a tick in progress.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { LedgerClock } from "../../../src/ledger/clock.js";
import { waitUntil } from "../../support/waitFor.js";
import { cleanup, closeNode, ManualClock, MemoryLog, openNode, tempDir } from "./harness.js";

/** Wall-clock source for the ledger and the clock. */
function wall(): ManualClock {
  const c = new ManualClock(Date.now());
  Object.defineProperty(c, "ms", { get: () => Date.now(), set: () => {} });
  return c;
}

describe("clock", () => {
  test("produces blocks on real timers at blockTimeSeconds / 10 per minute", async () => {
    const dir = tempDir();
    const clock = wall();
    const n = openNode(dir, { clock, blockTimeSeconds: 0.5 });
    const ticker = new LedgerClock({ blockTimeSeconds: 0.5 }, { ledger: n.ledger, log: new MemoryLog() });
    try {
      const started = Date.now();
      await ticker.start();
      const startMs = n.ledger.openBlock().startMs;
      assert.ok(started <= startMs && startMs <= Date.now(), "the open block starts when the clock starts");
      await waitUntil("3 blocks", () => n.ledger.heights().directoryBlockHeight >= 3, 30_000, 20);
      await ticker.stop();
      const elapsed = Date.now() - started;
      const h = n.ledger.heights().directoryBlockHeight;
      // not early: 3 blocks of 500 ms cannot take less than 1.5 s (less the first minute's rounding)
      assert.ok(elapsed >= 1400, `3 blocks of 500 ms cannot take ${elapsed} ms`);
      // each block starts where the previous one ended; timestamps never decrease
      let last = 0;
      for (let i = 1; i <= h; i++) {
        const ts = n.ledger.directoryBlockByHeight(i)!.block.timestamp;
        assert.ok(ts >= last);
        last = ts;
      }
      const m = n.ledger.currentMinute();
      assert.equal(m.directoryBlockInSeconds, 0.5);
      assert.ok(
        m.currentBlockStartTimeNs <= m.currentMinuteStartTimeNs && m.currentMinuteStartTimeNs <= m.currentTimeNs,
      );
      // stopped: no more minutes
      const minute = n.ledger.openBlock();
      await sleep(200);
      assert.deepEqual(n.ledger.openBlock(), minute);
    } finally {
      await ticker.stop();
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("does nothing on a network it cannot produce for", async () => {
    const dir = tempDir();
    const n = openNode(dir, { network: "TEST", blockTimeSeconds: 0.5 });
    const ticker = new LedgerClock({ blockTimeSeconds: 0.5 }, { ledger: n.ledger, log: new MemoryLog() });
    try {
      await ticker.start();
      await sleep(150);
      assert.deepEqual(n.ledger.openBlock().minute, 0);
      assert.equal(n.ledger.heights().directoryBlockHeight, 0);
    } finally {
      await ticker.stop();
      await closeNode(n);
      cleanup(dir);
    }
  });
});
