/**
 * The clock's schedule and failure handling, exactly (clock.ts; docs/testing.md §Mutation testing), on
 * node:test's mock timers (setTimeout only) and a ManualClock as its `now`, so each due time is checked to
 * the millisecond without reading the wall clock: the first minute ends one minute after start, ticks are
 * scheduled from the previous due time (a tick 50 ms late does not delay the next), a tick later than a whole
 * minute is followed by one a full minute later (no burst), start is once and only on a producing network,
 * and a failing end of minute is logged once per run of failures. A real ledger over LMDB; the clock drives
 * it through a pass-through that only records the promise of each call, to await it.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";
import { LedgerClock, type MinuteSink } from "../../../src/ledger/clock.js";
import { cleanup, closeNode, ManualClock, MemoryLog, openNode, type TestNode, tempDir } from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** 6 s blocks: minutes of 600 ms */
const MINUTE = 600;

/** The ledger as the clock's sink, recording each call and the promise of the last one. */
class Recorder implements MinuteSink {
  calls: string[] = [];
  last: Promise<unknown> = Promise.resolve();
  constructor(private readonly n: TestNode) {}
  endMinute(timeMs: number): Promise<void> {
    this.calls.push(`endMinute ${timeMs - T0}`);
    const p = this.n.ledger.endMinute(timeMs);
    this.last = p.catch(() => undefined);
    return p;
  }
  startBlock(timeMs: number): Promise<boolean> {
    this.calls.push(`startBlock ${timeMs - T0}`);
    const p = this.n.ledger.startBlock(timeMs);
    this.last = p.catch(() => undefined);
    return p;
  }
  isProducing(): boolean {
    return this.n.ledger.isProducing();
  }
}

/** Let the clock's promise callbacks run after the last call settled (setImmediate is not mocked). */
async function settle(r: Recorder): Promise<void> {
  await r.last;
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Move the mocked timers and the clock's `now` on by `ms` together, then let a tick that fired finish. */
async function pass(r: Recorder, clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms);
  mock.timers.tick(ms);
  await settle(r);
}

describe("clock schedule (mock timers)", () => {
  let dir: string;
  let n: TestNode;
  let clock: ManualClock;
  let log: MemoryLog;
  let rec: Recorder;
  let ticker: LedgerClock;

  beforeEach(() => {
    dir = tempDir();
    clock = new ManualClock(T0);
    n = openNode(dir, { clock, blockTimeSeconds: 6 });
    log = new MemoryLog();
    rec = new Recorder(n);
    ticker = new LedgerClock({ blockTimeSeconds: 6 }, { ledger: rec, log, now: clock.now });
    mock.timers.enable({ apis: ["setTimeout"] });
  });

  afterEach(async () => {
    await ticker.stop();
    mock.timers.reset();
    await closeNode(n);
    cleanup(dir);
  });

  test("starts the open block at its start time, ends the first minute one minute later, not before", async () => {
    clock.advance(50);
    await ticker.start();
    assert.deepEqual(rec.calls, ["startBlock 50"]);
    assert.equal(n.ledger.openBlock().startMs, T0 + 50);
    await pass(rec, clock, MINUTE - 1);
    assert.deepEqual(rec.calls, ["startBlock 50"]);
    await pass(rec, clock, 1);
    assert.deepEqual(rec.calls, ["startBlock 50", `endMinute ${50 + MINUTE}`]);
    assert.equal(n.ledger.openBlock().minute, 1);
    assert.deepEqual(log.lines, [], "nothing to log when every minute works");
  });

  test("a tick that fires late is followed by one at the next due time: minutes do not drift", async () => {
    await ticker.start();
    // the first tick fires 50 ms late (the event loop was busy): `now` has moved on further than the timer
    clock.advance(50);
    await pass(rec, clock, MINUTE);
    assert.deepEqual(rec.calls.slice(1), [`endMinute ${MINUTE + 50}`]);
    // due at 2 minutes from the start, i.e. 550 ms later, not 600
    await pass(rec, clock, MINUTE - 51);
    assert.equal(rec.calls.length, 2);
    await pass(rec, clock, 1);
    assert.deepEqual(rec.calls.slice(1), [`endMinute ${MINUTE + 50}`, `endMinute ${2 * MINUTE}`]);
    await pass(rec, clock, MINUTE);
    assert.deepEqual(rec.calls.slice(3), [`endMinute ${3 * MINUTE}`]);
    assert.equal(n.ledger.openBlock().minute, 3);
  });

  test("a tick a whole minute late (or more) is followed by one a full minute later, not by a burst", async () => {
    await ticker.start();
    // the tick fires when `now` is exactly at the next due time: that due time is past, so now + 1 minute
    clock.advance(MINUTE);
    await pass(rec, clock, MINUTE);
    assert.deepEqual(rec.calls.slice(1), [`endMinute ${2 * MINUTE}`]);
    await pass(rec, clock, 0);
    await pass(rec, clock, MINUTE - 1);
    assert.equal(rec.calls.length, 2, "no catching up");
    await pass(rec, clock, 1);
    assert.deepEqual(rec.calls.slice(2), [`endMinute ${3 * MINUTE}`]);
    // 5 minutes late
    clock.advance(5 * MINUTE);
    await pass(rec, clock, MINUTE);
    assert.deepEqual(rec.calls.slice(3), [`endMinute ${9 * MINUTE}`]);
    await pass(rec, clock, MINUTE - 1);
    assert.equal(rec.calls.length, 4, "no catching up");
    await pass(rec, clock, 1);
    assert.deepEqual(rec.calls.slice(4), [`endMinute ${10 * MINUTE}`]);
  });

  test("start is once: a second start neither restarts the block nor adds a second timer", async () => {
    await ticker.start();
    clock.advance(100);
    mock.timers.tick(100);
    await ticker.start();
    assert.deepEqual(rec.calls, ["startBlock 0"]);
    assert.equal(n.ledger.openBlock().startMs, T0);
    await pass(rec, clock, MINUTE - 100);
    await pass(rec, clock, 100);
    assert.deepEqual(rec.calls, ["startBlock 0", `endMinute ${MINUTE}`]);
  });

  test("stop ends the ticking, and a tick in progress finishes first", async () => {
    await ticker.start();
    await pass(rec, clock, MINUTE);
    await ticker.stop();
    await pass(rec, clock, 10 * MINUTE);
    assert.deepEqual(rec.calls, ["startBlock 0", `endMinute ${MINUTE}`]);
  });

  test("an end of minute that fails is logged once per run of failures, and its recovery once", async () => {
    await ticker.start();
    n.store.setReserveBytes(Number.MAX_SAFE_INTEGER);
    await pass(rec, clock, MINUTE);
    await pass(rec, clock, MINUTE);
    await pass(rec, clock, MINUTE);
    assert.equal(rec.calls.length, 4, "the clock goes on ticking while minutes fail");
    assert.equal(n.ledger.openBlock().minute, 0);
    const errors = log.lines.filter((l) => l.level === "error");
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.msg, "end of minute failed");
    assert.deepEqual(errors[0]!.fields, { error: "STORAGE_FULL" }, "a write below the free-space reserve");
    n.store.setReserveBytes(0);
    await pass(rec, clock, MINUTE);
    await pass(rec, clock, MINUTE);
    assert.equal(n.ledger.openBlock().minute, 2);
    assert.deepEqual(
      log.lines.map((l) => `${l.level} ${l.msg}`),
      ["error end of minute failed", "info end of minute works again"],
    );
    // a second run of failures is logged again
    n.store.setReserveBytes(Number.MAX_SAFE_INTEGER);
    await pass(rec, clock, MINUTE);
    assert.deepEqual(
      log.lines.map((l) => `${l.level} ${l.msg}`),
      ["error end of minute failed", "info end of minute works again", "error end of minute failed"],
    );
  });

  test("a start that cannot write is logged, the clock still starts, and the failing minutes after it are not logged again", async () => {
    n.store.setReserveBytes(Number.MAX_SAFE_INTEGER);
    await ticker.start();
    assert.deepEqual(
      log.lines.map((l) => `${l.level} ${l.msg}`),
      ["error starting the open block failed"],
    );
    assert.deepEqual(log.lines[0]!.fields, { error: "STORAGE_FULL" });
    await pass(rec, clock, MINUTE);
    assert.deepEqual(rec.calls, ["startBlock 0", `endMinute ${MINUTE}`], "ticking from the start time");
    assert.equal(log.lines.length, 1, "the run of failures began at start: logged once");
    n.store.setReserveBytes(0);
    await pass(rec, clock, MINUTE);
    assert.deepEqual(
      log.lines.map((l) => `${l.level} ${l.msg}`),
      ["error starting the open block failed", "info end of minute works again"],
    );
    assert.deepEqual(log.lines[1]!.fields, {});
  });

  test("a log sink that throws does not stop the clock", async () => {
    const throwing = new LedgerClock(
      { blockTimeSeconds: 6 },
      {
        ledger: rec,
        now: clock.now,
        log: {
          debug: () => {},
          info: () => {
            throw new Error("log disk full");
          },
          warn: () => {},
          error: () => {
            throw new Error("log disk full");
          },
        },
      },
    );
    try {
      n.store.setReserveBytes(Number.MAX_SAFE_INTEGER);
      await throwing.start(); // logs an error: the sink throws
      await pass(rec, clock, MINUTE);
      n.store.setReserveBytes(0);
      await pass(rec, clock, MINUTE); // logs "works again": the sink throws
      await pass(rec, clock, MINUTE);
      assert.deepEqual(rec.calls, [
        "startBlock 0",
        `endMinute ${MINUTE}`,
        `endMinute ${2 * MINUTE}`,
        `endMinute ${3 * MINUTE}`,
      ]);
      assert.equal(n.ledger.openBlock().minute, 2);
    } finally {
      await throwing.stop();
    }
  });
});

describe("clock options and networks", () => {
  test("blockTimeSeconds must be a number above 0", () => {
    const dir = tempDir();
    const n = openNode(dir);
    try {
      for (const bad of [0, -1, Number.NaN])
        assert.throws(
          () => new LedgerClock({ blockTimeSeconds: bad }, { ledger: n.ledger, log: new MemoryLog() }),
          (e: unknown) => e instanceof RangeError && e.message === `blockTimeSeconds must be > 0, got ${bad}`,
        );
      assert.ok(new LedgerClock({ blockTimeSeconds: 0.001 }, { ledger: n.ledger, log: new MemoryLog() }));
    } finally {
      void closeNode(n).then(() => cleanup(dir));
    }
  });

  test("on a network it does not produce for (TEST) it neither starts a block nor ticks", async () => {
    const dir = tempDir();
    const clock = new ManualClock(T0);
    const n = openNode(dir, { network: "TEST", clock });
    const rec = new Recorder(n);
    const ticker = new LedgerClock({ blockTimeSeconds: 6 }, { ledger: rec, log: new MemoryLog(), now: clock.now });
    mock.timers.enable({ apis: ["setTimeout"] });
    try {
      await ticker.start();
      await pass(rec, clock, 10 * MINUTE);
      assert.deepEqual(rec.calls, []);
    } finally {
      await ticker.stop();
      mock.timers.reset();
      await closeNode(n);
      cleanup(dir);
    }
  });
});

describe("clock stop (real timers)", () => {
  /** Timers this process has pending (node's list of active resources). */
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

  test("stop leaves no timer behind: neither the next tick's nor one scheduled by a tick in progress", async () => {
    const dir = tempDir();
    const clock = new ManualClock(T0);
    const n = openNode(dir, { clock });
    try {
      await n.ledger.flush();
      // the store's start-up timers run out within milliseconds: wait for none to be pending (≤ 10 s)
      const deadline = Date.now() + 10_000;
      while (timers() > 0 && Date.now() < deadline) await new Promise<void>((resolve) => setTimeout(resolve, 10));
      const baseline = timers();
      assert.equal(baseline, 0);
      // 10-minute blocks: the next tick is a minute away
      const slow = new LedgerClock(
        { blockTimeSeconds: 600 },
        { ledger: n.ledger, log: new MemoryLog(), now: clock.now },
      );
      await slow.start();
      assert.equal(timers(), baseline + 1, "the next tick's timer");
      await slow.stop();
      assert.equal(timers(), baseline, "cleared by stop");
      // stopped while a tick is in progress: the tick does not schedule another
      let ticker: LedgerClock | undefined;
      let stopped: Promise<void> | undefined;
      const rec = new Recorder(n);
      const stopping: MinuteSink = {
        startBlock: (t) => rec.startBlock(t),
        isProducing: () => rec.isProducing(),
        endMinute: (t) => {
          const p = rec.endMinute(t);
          stopped ??= ticker!.stop();
          return p;
        },
      };
      ticker = new LedgerClock(
        { blockTimeSeconds: 0.01 },
        { ledger: stopping, log: new MemoryLog(), now: () => Date.now() },
      );
      await ticker.start();
      while (stopped === undefined) await new Promise<void>((resolve) => setImmediate(resolve));
      await stopped;
      await settle(rec);
      await new Promise<void>((resolve) => setImmediate(resolve));
      assert.equal(rec.calls.filter((c) => c.startsWith("endMinute")).length, 1);
      assert.equal(timers(), baseline, "no tick scheduled after stop");
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });
});
