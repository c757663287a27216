/**
 * The rules as they meet messages that did not come through this node's API (rules.ts; docs/testing.md
 * §Mutation testing): a cluster node applies the replicated log (`Ledger.applyFromLog`), where no writer
 * checked the message before the rules, and each message is decoded from bytes (no pre-decoded entry).
 * The rules alone must then refuse a commit or a transaction outside the ±1 h window of the log's time
 * (naming which kind), an end of minute out of order, a block start after the first minute — each with the
 * state unchanged — and must decode a reveal's entry themselves. Real ledger over LMDB, real signatures.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { TIMESTAMP_WINDOW_MS } from "../../../src/ledger/constants.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { asLedgerError } from "../../../src/ledger/rules.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { StoreError } from "../../../src/store/errors.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  firstEntry,
  ManualClock,
  openNode,
  payment,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";
import { snapshot } from "./support.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

/** A LedgerError's type, or a failure naming what was thrown instead. */
function refusal(apply: () => void): LedgerError["type"] {
  try {
    apply();
  } catch (e) {
    assert.ok(e instanceof LedgerError, `expected a LedgerError, got ${String(e)}`);
    return e.type;
  }
  assert.fail("the message was applied");
}

/** `apply` is refused with `type`, and nothing of the ledger changed. */
function refusedWithoutChange(n: TestNode, apply: () => void, type: LedgerError["type"]): void {
  const before = snapshot(n);
  assert.deepEqual(refusal(apply), type);
  assert.equal(snapshot(n), before, "a refused log message changed the ledger");
}

let unique = 0;
function newChain(): { raw: Uint8Array; chainId: Uint8Array } {
  return firstEntry(["rules from the log", String(unique++)], "first entry");
}

async function withNode(body: (n: TestNode) => Promise<void>): Promise<void> {
  const n = openNode(tempDir(), { clock: new ManualClock(T0) });
  try {
    await body(n);
  } finally {
    await closeNode(n);
    cleanup(n.dir);
  }
}

describe("rules applied to the replicated log", () => {
  test("a commit or a transaction more than 1 h from the log's time is refused, naming its kind", async () => {
    await withNode(async (n) => {
      await buyEC(n, ecKey, 100n);
      const logMs = n.clock.ms;
      const late = logMs - TIMESTAMP_WINDOW_MS - 1;
      refusedWithoutChange(
        n,
        () => n.ledger.applyFromLog({ kind: "commit", timeMs: logMs, commit: chainCommit(newChain().raw, late) }),
        {
          code: "TIMESTAMP_OUT_OF_WINDOW",
          what: "commit",
          timestampMs: late,
          nowMs: logMs,
          windowMs: TIMESTAMP_WINDOW_MS,
        },
      );
      const early = logMs + TIMESTAMP_WINDOW_MS + 1;
      const tx = payment({ milliTime: early, outputs: [{ to: assetKey(1), amount: UNIT }] });
      refusedWithoutChange(n, () => n.ledger.applyFromLog({ kind: "transaction", timeMs: logMs, tx }), {
        code: "TIMESTAMP_OUT_OF_WINDOW",
        what: "transaction",
        timestampMs: early,
        nowMs: logMs,
        windowMs: TIMESTAMP_WINDOW_MS,
      });
    });
  });

  test("an end of minute for another minute than the open one is refused, naming both (1-based)", async () => {
    await withNode(async (n) => {
      await endMinutes(n, 1);
      assert.equal(n.ledger.openBlock().minute, 1);
      refusedWithoutChange(n, () => n.ledger.applyFromLog({ kind: "endOfMinute", timeMs: n.clock.ms, minute: 3 }), {
        code: "INVALID",
        info: "end of minute 4 out of order: the open block is in minute 2",
      });
      // a repeat of the minute already ended
      refusedWithoutChange(n, () => n.ledger.applyFromLog({ kind: "endOfMinute", timeMs: n.clock.ms, minute: 0 }), {
        code: "INVALID",
        info: "end of minute 1 out of order: the open block is in minute 2",
      });
      // the open minute's end is taken
      n.ledger.applyFromLog({ kind: "endOfMinute", timeMs: n.clock.advance(600), minute: 1 });
      assert.equal(n.ledger.openBlock().minute, 2);
    });
  });

  test("a block start is taken in the first minute only", async () => {
    await withNode(async (n) => {
      const start = n.clock.advance(5_000);
      n.ledger.applyFromLog({ kind: "blockStart", timeMs: start });
      assert.equal(n.ledger.openBlock().startMs, start);
      await endMinutes(n, 1);
      const open = n.ledger.openBlock();
      refusedWithoutChange(n, () => n.ledger.applyFromLog({ kind: "blockStart", timeMs: n.clock.advance(1) }), {
        code: "INVALID",
        info: "block start after the first minute",
      });
      assert.deepEqual(n.ledger.openBlock(), open, "the block keeps its start and its minute's start");
    });
  });

  test("a reveal decoded from the log (no entry decoded beforehand) is held, paired and refused like a submitted one", async () => {
    await withNode(async (n) => {
      await buyEC(n, ecKey, 100n);
      // its commit first: paired at once
      const paid = newChain();
      await n.ledger.submitCommit(chainCommit(paid.raw, n.clock.ms));
      n.ledger.applyFromLog({ kind: "reveal", timeMs: n.clock.ms, entryRaw: paid.raw });
      assert.equal(n.ledger.entryAck(entryHash(paid.raw)).entry.status, AckStatus.TransactionACK);
      // no commit yet: held under its entry hash, then paired by the commit from the log
      const held = newChain();
      n.ledger.applyFromLog({ kind: "reveal", timeMs: n.clock.ms, entryRaw: held.raw });
      assert.deepEqual(
        n.ledger.holdingQueue().map((m) => toHex(m.hash)),
        [toHex(entryHash(held.raw))],
      );
      n.ledger.applyFromLog({ kind: "commit", timeMs: n.clock.ms, commit: chainCommit(held.raw, n.clock.ms) });
      assert.deepEqual(n.ledger.holdingQueue(), []);
      assert.equal(n.ledger.entryAck(entryHash(held.raw)).entry.status, AckStatus.TransactionACK);
      assert.equal(n.ledger.openBlockSizes().reveals, 2);
      // the same entry again: a duplicate, found by the hash the rules computed
      assert.equal(
        refusal(() => n.ledger.applyFromLog({ kind: "reveal", timeMs: n.clock.ms, entryRaw: paid.raw })).code,
        "DUPLICATE_ENTRY",
      );
      // bytes that are no entry: INVALID, nothing changed
      const before = snapshot(n);
      assert.equal(
        refusal(() => n.ledger.applyFromLog({ kind: "reveal", timeMs: n.clock.ms, entryRaw: Uint8Array.of(0, 1) }))
          .code,
        "INVALID",
      );
      assert.equal(snapshot(n), before);
    });
  });
});

describe("asLedgerError", () => {
  test("only a format problem (ProtocolError) becomes INVALID; any other error passes through as it is", () => {
    const format = new ProtocolError("BAD_LENGTH", "entry", "expected 35 bytes or more, got 2");
    assert.deepEqual((asLedgerError(format) as LedgerError).type, { code: "INVALID", info: format.message });
    // e.g. the disk: a client must see STORAGE_FULL-like failures for what they are, never as a bad request
    const disk = new StoreError({ code: "WRITES_REFUSED", path: "/tmp/x", info: "below the reserve" });
    assert.equal(asLedgerError(disk), disk);
    const bug = new TypeError("x is undefined");
    assert.equal(asLedgerError(bug), bug);
  });
});
