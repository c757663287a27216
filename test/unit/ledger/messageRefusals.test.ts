/**
 * The journal record codec's refusals and its text view, exactly (docs/testing.md §Mutation testing,
 * `ledger/messages.ts`): a damaged journal record must be refused naming the field at fault, never decoded
 * as another message; and the debug `messages` line of each kind carries its documented fields.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { decodeMessage, describeMessage, encodeMessage, type LogMessage } from "../../../src/ledger/messages.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { commitTxId } from "../../../src/protocol/commit.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { assetKey, chainCommit, entryCommit, firstEntry, payment, UNIT } from "./harness.js";

const T = Date.UTC(2024, 0, 1, 12, 30);

/** kind ‖ u48 time ‖ payload, written by hand (the layout of messages.ts' header comment). */
function record(kind: number, timeMs: number, payload: Uint8Array | number[] = []): Uint8Array {
  const out = new Uint8Array(7 + payload.length);
  out[0] = kind;
  let t = timeMs;
  for (let i = 6; i >= 1; i--) {
    out[i] = t % 256;
    t = Math.floor(t / 256);
  }
  out.set(payload, 7);
  return out;
}

/** Asserts `fn` throws a ProtocolError with exactly this code, field and detail. */
function refuses(fn: () => unknown, code: string, field: string, detail: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ProtocolError, `a ProtocolError, got ${String(e)}`);
    assert.deepEqual({ code: e.code, field: e.field, detail: e.detail }, { code, field, detail });
    assert.equal(e.message, `${field}: ${detail}`);
    return true;
  });
}

test("a journal record is laid out as kind ‖ u48 time ‖ payload", () => {
  assert.deepEqual([...encodeMessage({ kind: "endOfMinute", timeMs: T, minute: 3 })], [...record(4, T, [3])]);
  assert.deepEqual([...encodeMessage({ kind: "blockStart", timeMs: T })], [...record(5, T)]);
  const c = firstEntry(["layout"], "x");
  assert.deepEqual([...encodeMessage({ kind: "reveal", timeMs: T, entryRaw: c.raw })], [...record(2, T, c.raw)]);
  const commit = entryCommit(c.raw, T);
  assert.deepEqual([...encodeMessage({ kind: "commit", timeMs: T, commit })], [...record(1, T, commit.raw)]);
  const tx = payment({ milliTime: T, outputs: [{ to: assetKey(1), amount: UNIT }] });
  assert.deepEqual([...encodeMessage({ kind: "transaction", timeMs: T, tx })], [...record(3, T, tx.raw)]);
});

test("a truncated record header names the field it ends in", () => {
  refuses(
    () => decodeMessage(new Uint8Array(0)),
    "TRUNCATED",
    "journal message.kind",
    "needs 1 byte(s) at offset 0, only 0 left",
  );
  refuses(
    () => decodeMessage(Uint8Array.of(4, 0)),
    "TRUNCATED",
    "journal message.time",
    "needs 2 byte(s) at offset 1, only 1 left",
  );
  refuses(
    () => decodeMessage(Uint8Array.of(4, 0, 0, 0, 0)),
    "TRUNCATED",
    "journal message.time",
    "needs 4 byte(s) at offset 3, only 2 left",
  );
});

test("an unknown kind is refused with the kind it holds", () => {
  refuses(() => decodeMessage(record(0, T)), "BAD_VALUE", "journal message.kind", "unknown kind 0");
  refuses(() => decodeMessage(record(6, T, [0])), "BAD_VALUE", "journal message.kind", "unknown kind 6");
  refuses(() => decodeMessage(record(255, T)), "BAD_VALUE", "journal message.kind", "unknown kind 255");
});

test("a commit record must hold exactly an entry commit (136 bytes) or a chain commit (200 bytes)", () => {
  const c = firstEntry(["sizes"], "x");
  const entry = entryCommit(c.raw, T).raw;
  const chain = chainCommit(c.raw, T).raw;
  assert.equal(entry.length, 136);
  assert.equal(chain.length, 200);
  const e = decodeMessage(record(1, T, entry));
  assert.ok(e.kind === "commit" && e.commit.kind === "entry");
  const ch = decodeMessage(record(1, T, chain));
  assert.ok(ch.kind === "commit" && ch.commit.kind === "chain");
  // every other length, shorter, between and longer, is the journal record's fault, not a commit's
  for (const n of [0, 1, 135, 137, 168, 199, 201, 300]) {
    const payload = new Uint8Array(n);
    payload.set(chain.subarray(0, Math.min(n, 200)));
    refuses(() => decodeMessage(record(1, T, payload)), "BAD_LENGTH", "journal message.commit", `${n} bytes`);
  }
});

test("an end-of-minute record holds exactly one minute byte, a block start nothing", () => {
  for (const minute of [0, 5, 9])
    assert.deepEqual(decodeMessage(record(4, T, [minute])), { kind: "endOfMinute", timeMs: T, minute });
  refuses(() => decodeMessage(record(4, T)), "BAD_LENGTH", "journal message.minute", "0 bytes");
  refuses(() => decodeMessage(record(4, T, [9, 0])), "BAD_LENGTH", "journal message.minute", "2 bytes");
  assert.deepEqual(decodeMessage(record(5, T)), { kind: "blockStart", timeMs: T });
  refuses(() => decodeMessage(record(5, T, [0])), "TRAILING_BYTES", "journal message", "1 bytes");
  refuses(() => decodeMessage(record(5, T, [1, 2, 3])), "TRAILING_BYTES", "journal message", "3 bytes");
});

test("the debug messages line of each kind carries its fields exactly", () => {
  const c = firstEntry(["describe"], "y");
  const chain = chainCommit(c.raw, T);
  const entry = entryCommit(c.raw, T, undefined, 3);
  const tx = payment({ milliTime: T, outputs: [{ to: assetKey(2), amount: UNIT }] });
  const hex = (b: Uint8Array) => toHex(b);
  // sha256(sha512(entry) ‖ entry), the entry hash, computed here independently
  const eh = createHash("sha256")
    .update(Buffer.concat([createHash("sha512").update(c.raw).digest(), c.raw]))
    .digest();
  const lines: [LogMessage, object][] = [
    [
      { kind: "commit", timeMs: T, commit: chain },
      {
        height: 7,
        seq: 3,
        timems: T,
        type: "commitChain",
        txid: hex(commitTxId(chain)),
        entryhash: hex(eh),
        credits: chain.credits,
      },
    ],
    [
      { kind: "commit", timeMs: T + 1, commit: entry },
      {
        height: 7,
        seq: 3,
        timems: T + 1,
        type: "commitEntry",
        txid: hex(commitTxId(entry)),
        entryhash: hex(eh),
        credits: 3,
      },
    ],
    [
      { kind: "reveal", timeMs: T + 2, entryRaw: c.raw },
      { height: 7, seq: 3, timems: T + 2, type: "revealEntry", entryhash: hex(eh) },
    ],
    [
      { kind: "transaction", timeMs: T + 3, tx },
      { height: 7, seq: 3, timems: T + 3, type: "assetTransaction", txid: hex(transactionId(tx)) },
    ],
    // minutes are shown 1..10 (factomd's numbering), journaled 0..9
    [
      { kind: "endOfMinute", timeMs: T + 4, minute: 0 },
      { height: 7, seq: 3, timems: T + 4, type: "endOfMinute", minute: 1 },
    ],
    [
      { kind: "endOfMinute", timeMs: T + 5, minute: 9 },
      { height: 7, seq: 3, timems: T + 5, type: "endOfMinute", minute: 10 },
    ],
    [
      { kind: "blockStart", timeMs: T + 6 },
      { height: 7, seq: 3, timems: T + 6, type: "blockStart" },
    ],
  ];
  for (const [m, want] of lines) assert.equal(describeMessage(m, 7, 3), JSON.stringify(want));
});
