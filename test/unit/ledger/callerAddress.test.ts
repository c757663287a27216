/**
 * A reveal's caller address is read only when the holding queue's per-source share needs it
 * (ledger/holdingPolicy.ts CallerAddress): a paid reveal never reads it, a held one reads it once and is
 * counted against its source, a held reveal sent again is counted against its first caller, or against the
 * second when the first had no address, and an unknown address ("") counts against no source.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { entryHash } from "../../../src/protocol/entry.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  firstEntry,
  ManualClock,
  openNode,
  tempDir,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

/** A caller whose address is `address`, counting how often it was read. */
function caller(address: string): { address(): string; reads: number } {
  return {
    reads: 0,
    address() {
      this.reads++;
      return address;
    },
  };
}

let entries = 0;
function newChainEntry(): { raw: Uint8Array; chainId: Uint8Array } {
  return firstEntry([`callerAddress ${++entries}`], "first entry");
}

test("a paid reveal does not read its caller's address; a held one reads it once and counts against it", async () => {
  const dir = tempDir();
  const n = openNode(dir, { clock: new ManualClock(T0), holdingLimit: 10 });
  try {
    await buyEC(n, ecKey, 100n);
    const paid = newChainEntry();
    await n.ledger.submitCommit(chainCommit(paid.raw, T0));
    const paidCaller = caller("10.0.0.1");
    await n.ledger.submitReveal(paid.raw, { from: paidCaller, kind: "chain" });
    assert.equal(n.ledger.entryAck(entryHash(paid.raw)).entry.status, "TransactionACK");
    assert.equal(paidCaller.reads, 0, "a paid reveal is never held: its caller's address is not needed");

    const heldCaller = caller("10.0.0.2");
    await n.ledger.submitReveal(newChainEntry().raw, { from: heldCaller });
    assert.equal(heldCaller.reads, 1);
    assert.equal(n.ledger.holdingQueue().length, 1);
    // the share (a tenth of 10 reveals: one) is that source's: its second held reveal is refused, read again
    const again = caller("10.0.0.2");
    await assert.rejects(
      n.ledger.submitReveal(newChainEntry().raw, { from: again }),
      (e: unknown) => (e as { type?: { code?: string; bound?: string } }).type?.bound === "source reveals",
    );
    assert.equal(again.reads, 1);
    // an unknown address is no source: only the totals bound it
    const unknown = caller("");
    await n.ledger.submitReveal(newChainEntry().raw, { from: unknown });
    await n.ledger.submitReveal(newChainEntry().raw, { from: caller("") });
    assert.equal(unknown.reads, 1);
    assert.equal(n.ledger.holdingQueue().length, 3);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});

test("a held reveal sent again: counted once, against the first caller that had an address, read at most once", async () => {
  const dir = tempDir();
  const n = openNode(dir, { clock: new ManualClock(T0), holdingLimit: 10 });
  try {
    // held without a caller (an API that has none, e.g. the anchor service), then sent by a caller: the
    // queue holds it unattributed, so the caller's address is read once and the reveal counted against it
    const first = newChainEntry();
    await n.ledger.submitReveal(first.raw);
    const second = caller("10.0.0.3");
    await n.ledger.submitReveal(first.raw, { from: second });
    assert.equal(second.reads, 1);
    assert.equal(n.ledger.holdingQueue().length, 1);
    // sent a third time by another caller: already counted, its address is not read
    const third = caller("10.0.0.4");
    await n.ledger.submitReveal(first.raw, { from: third });
    assert.equal(third.reads, 0);
    // 10.0.0.3's share (one reveal) is taken by it: another held reveal from that address is refused
    await assert.rejects(
      n.ledger.submitReveal(newChainEntry().raw, { from: caller("10.0.0.3") }),
      (e: unknown) => (e as { type?: { bound?: string } }).type?.bound === "source reveals",
    );
    // while 10.0.0.4 has none held and may still send one
    await n.ledger.submitReveal(newChainEntry().raw, { from: caller("10.0.0.4") });
    assert.equal(n.ledger.holdingQueue().length, 2);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});

test("an unknown address is bound by the totals only, in bytes too", async () => {
  const dir = tempDir();
  // a source's byte share: a tenth of 200,000 bytes = 20,000, room for two entries of ~9,000 bytes
  const n = openNode(dir, { clock: new ManualClock(T0), holdingBytes: 200_000 });
  try {
    const known = caller("10.0.0.5");
    await n.ledger.submitReveal(firstEntry(["callerAddress k1"], "x".repeat(9000)).raw, { from: known });
    await n.ledger.submitReveal(firstEntry(["callerAddress k2"], "x".repeat(9000)).raw, { from: known });
    await assert.rejects(
      n.ledger.submitReveal(firstEntry(["callerAddress k3"], "x".repeat(9000)).raw, { from: known }),
      (e: unknown) => (e as { type?: { bound?: string } }).type?.bound === "source bytes",
    );
    for (const name of ["u1", "u2", "u3"])
      await n.ledger.submitReveal(firstEntry([`callerAddress ${name}`], "x".repeat(9000)).raw, { from: caller("") });
    assert.equal(n.ledger.holdingQueue().length, 5);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});
