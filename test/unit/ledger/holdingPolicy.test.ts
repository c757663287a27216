/**
 * The holding queue's bounds (ledger/holdingPolicy.ts, issue 19 item 7) on a real ledger over LMDB: reveals
 * and bytes in all (rules of the log, kept across a restart), the per-source share (an admission check), and
 * that a bound only ever refuses a new reveal — a held one is never evicted.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { HOLDING_SOURCE_SHARE, sourceLimits, sourceOf } from "../../../src/ledger/holdingPolicy.js";
import { entryHash } from "../../../src/protocol/entry.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  finishBlock,
  firstEntry,
  openNode,
  type TestNode,
  tempDir,
} from "./harness.js";
import { rejectedWithoutChange } from "./support.js";

let seq = 0;
/** A new chain's first entry of about `contentBytes` bytes of content. */
function reveal(contentBytes = 10): Uint8Array {
  return firstEntry(["holding policy", String(seq++)], "x".repeat(contentBytes)).raw;
}

async function withNode(
  opts: { holdingLimit?: number; holdingBytes?: number },
  body: (n: TestNode, dir: string) => Promise<void>,
): Promise<void> {
  const dir = tempDir();
  const n = openNode(dir, opts);
  try {
    await body(n, dir);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
}

describe("holding queue bounds", () => {
  test("bytes in all: refused with the bound named, held reveals kept; a restart counts them again", async () => {
    const dir = tempDir();
    const size = reveal(1000).length;
    let n = openNode(dir, { holdingBytes: 3 * size });
    try {
      const held = [reveal(1000), reveal(1000), reveal(1000)];
      for (const r of held) await n.ledger.submitReveal(r);
      const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(reveal(1000)), "HOLDING_QUEUE_FULL");
      assert.deepEqual(t, { code: "HOLDING_QUEUE_FULL", bound: "bytes", limit: 3 * size, held: 3 * size });
      // nothing held was evicted
      for (const r of held) assert.equal(n.ledger.entryAck(entryHash(r)).entry.status, AckStatus.NotConfirmed);
      // a reveal whose commit is there is not held, so no bound applies
      await buyEC(n, ecKey, 100n);
      const paid = reveal(1000);
      await n.ledger.submitCommit(chainCommit(paid, n.clock.ms));
      await n.ledger.submitReveal(paid);
      assert.equal(n.ledger.entryAck(entryHash(paid)).entry.status, AckStatus.TransactionACK);
      // a commit releases a held reveal: its room is free again
      await n.ledger.submitCommit(chainCommit(held[0]!, n.clock.ms));
      await n.ledger.submitReveal(reveal(1000));
      await finishBlock(n);
      // the held reveals are carried across the close and the restart, and counted again
      await closeNode(n);
      n = openNode(dir, { holdingBytes: 3 * size });
      assert.equal(n.ledger.holdingQueue().length, 3);
      const again = await rejectedWithoutChange(n, () => n.ledger.submitReveal(reveal(1000)), "HOLDING_QUEUE_FULL");
      assert.equal(again.bound, "bytes");
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("reveals in all: a flood of tiny reveals meets the count bound", async () => {
    await withNode({ holdingLimit: 3 }, async (n) => {
      for (let i = 0; i < 3; i++) await n.ledger.submitReveal(reveal(0));
      const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(reveal(0)), "HOLDING_QUEUE_FULL");
      assert.deepEqual(t, { code: "HOLDING_QUEUE_FULL", bound: "reveals", limit: 3, held: 3 });
    });
  });

  test("per source: one address gets its share, the others keep the rest; a paid reveal frees the share", async () => {
    const limit = 3 * HOLDING_SOURCE_SHARE;
    assert.equal(sourceLimits({ reveals: limit, bytes: 2 ** 30 }).reveals, 3);
    await withNode({ holdingLimit: limit }, async (n) => {
      const mine = [reveal(), reveal(), reveal()];
      for (const r of mine) await n.ledger.submitReveal(r, { from: "203.0.113.7" });
      const t = await rejectedWithoutChange(
        n,
        () => n.ledger.submitReveal(reveal(), { from: "203.0.113.7" }),
        "HOLDING_QUEUE_FULL",
      );
      assert.deepEqual(t, { code: "HOLDING_QUEUE_FULL", bound: "source reveals", limit: 3, held: 3 });
      // the same reveal again is no new room: answered as before
      await n.ledger.submitReveal(mine[0]!, { from: "203.0.113.7" });
      // another address, and a caller the API could not name, are not affected
      await n.ledger.submitReveal(reveal(), { from: "203.0.113.8" });
      await n.ledger.submitReveal(reveal());
      // one IPv6 /64 is one source
      for (const a of ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:0db8:0001:0002:0:0:0:3"])
        await n.ledger.submitReveal(reveal(), { from: a });
      const v6 = await rejectedWithoutChange(
        n,
        () => n.ledger.submitReveal(reveal(), { from: "2001:db8:1:2:abcd::1" }),
        "HOLDING_QUEUE_FULL",
      );
      assert.equal(v6.bound, "source reveals");
      await n.ledger.submitReveal(reveal(), { from: "2001:db8:1:3::1" });
      // a commit pays one of the first address's reveals: it may hold one more
      await buyEC(n, ecKey, 100n);
      await n.ledger.submitCommit(chainCommit(mine[1]!, n.clock.ms));
      await n.ledger.submitReveal(reveal(), { from: "203.0.113.7" });
    });
  });

  test("per source, bytes: 1/HOLDING_SOURCE_SHARE of the bytes bound", async () => {
    const size = reveal(5000).length;
    const bytes = 3 * size * HOLDING_SOURCE_SHARE;
    assert.equal(sourceLimits({ reveals: 10_000, bytes }).bytes, 3 * size);
    await withNode({ holdingBytes: bytes }, async (n) => {
      for (let i = 0; i < 3; i++) await n.ledger.submitReveal(reveal(5000), { from: "198.51.100.1" });
      const t = await rejectedWithoutChange(
        n,
        () => n.ledger.submitReveal(reveal(5000), { from: "198.51.100.1" }),
        "HOLDING_QUEUE_FULL",
      );
      assert.deepEqual(t, { code: "HOLDING_QUEUE_FULL", bound: "source bytes", limit: 3 * size, held: 3 * size });
      await n.ledger.submitReveal(reveal(5000), { from: "198.51.100.2" });
    });
  });

  test("sourceOf: IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64", () => {
    assert.equal(sourceOf("127.0.0.1"), "127.0.0.1");
    assert.equal(sourceOf("::ffff:10.1.2.3"), "10.1.2.3");
    assert.equal(sourceOf("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(sourceOf("2001:0DB8:0000:0000:1:2:3:4"), "2001:db8:0:0::/64");
    assert.equal(sourceOf("::1"), "0:0:0:0::/64");
    assert.notEqual(sourceOf("2001:db8:0:1::1"), sourceOf("2001:db8:0:2::1"));
  });
});
