/**
 * Chain heads as readers see them (queries.ts `chainHead` remembers saved heads for the tip they were read under):
 * a chain's head moves to the entry block of the block that extends it in the very turn that block becomes
 * visible (its end of minute 10 durable, before its save commits) — not a turn earlier, not a turn later —; a
 * chain the block does not hold keeps its head; the open block's first entry of a chain shows at once; and a
 * restarted node reads the same heads from the store. Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { bytesEqual, toHex } from "../../../src/protocol/bytes.js";
import {
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
  type TestNode,
  tempDir,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

/**
 * A chain head as hex ("" for none) and the process-list flag: what a `chain-head` answer says. Read twice, with and
 * without the chain ID's hex (the RPC passes the hex it keeps): both must say the same.
 */
function headOf(n: TestNode, chainId: Uint8Array): string {
  const text = (r: { head: Uint8Array | undefined; inProcessList: boolean }) =>
    `${r.head === undefined ? "" : toHex(r.head)} ${r.inProcessList}`;
  const plain = text(n.ledger.chainHead(chainId));
  assert.equal(text(n.ledger.chainHead(chainId, toHex(chainId))), plain, "the same answer with the hex passed");
  return plain;
}

/** The keyMR of `chainId`'s entry block in the visible directory block at `height`. */
function entryBlockAt(n: TestNode, height: number, chainId: Uint8Array): string {
  const e = n.ledger.directoryBlockByHeight(height)?.block.entries.find((x) => bytesEqual(x.chainId, chainId));
  assert.ok(e !== undefined, `chain ${toHex(chainId)} has an entry block at height ${height}`);
  return toHex(e.keyMR);
}

/**
 * End the open block (its minutes 1–9, then minute 10) and read `chains` on every event-loop turn until the
 * closed block is visible: each turn before that must answer `before`; the first turn it is visible is returned
 * with that turn's answers. The close is awaited (its save committed) before returning.
 */
async function closeAndWatch(
  n: TestNode,
  chains: Uint8Array[],
  before: string[],
): Promise<{ height: number; first: string[] }> {
  const height = n.ledger.openBlock().height;
  await endMinutes(n, 9);
  await n.ledger.flush();
  const read = () => chains.map((c) => headOf(n, c));
  const closing = n.ledger.endMinute(n.clock.advance(600));
  let turns = 0;
  while (n.ledger.heights().directoryBlockHeight < height) {
    assert.deepEqual(read(), before, `turn ${turns}: the block closing is not visible yet`);
    turns++;
    await new Promise((r) => setImmediate(r));
  }
  const first = read();
  await closing;
  await n.ledger.flush();
  return { height, first };
}

test("a chain's head moves in the turn the block that extends it becomes visible, and only then", async () => {
  const dir = tempDir();
  let n = openNode(dir, { clock: new ManualClock(T0) });
  try {
    await buyEC(n, ecKey, 100n);
    const a = firstEntry(["chain heads", "a"], "a0");
    const b = firstEntry(["chain heads", "b"], "b0");
    // read before the chain exists anywhere: an unknown chain (and that answer must not stick)
    assert.equal(headOf(n, a.chainId), " false");
    await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
    await n.ledger.submitReveal(a.raw);
    assert.equal(headOf(n, a.chainId), " true", "the open block's first entry of a chain shows at once");
    await n.ledger.submitCommit(chainCommit(b.raw, n.clock.ms));
    await n.ledger.submitReveal(b.raw);

    // block 1 holds both chains' first entries
    const one = await closeAndWatch(n, [a.chainId, b.chainId], [" true", " true"]);
    const a1 = entryBlockAt(n, one.height, a.chainId);
    const b1 = entryBlockAt(n, one.height, b.chainId);
    assert.deepEqual(one.first, [`${a1} false`, `${b1} false`], "both heads in the turn block 1 is visible");

    // block 2 extends chain a only; b's head must stay b1 throughout
    const second = entryRaw(a.chainId, ["second"], "a1");
    await n.ledger.submitCommit(entryCommit(second, n.clock.ms));
    await n.ledger.submitReveal(second);
    assert.equal(headOf(n, a.chainId), `${a1} true`, "an entry in the open block: the saved head stays");
    const two = await closeAndWatch(n, [a.chainId, b.chainId], [`${a1} true`, `${b1} false`]);
    const a2 = entryBlockAt(n, two.height, a.chainId);
    assert.notEqual(a2, a1);
    assert.deepEqual(two.first, [`${a2} false`, `${b1} false`], "a's head moved in the turn block 2 is visible");
    assert.deepEqual([headOf(n, a.chainId), headOf(n, b.chainId)], two.first, "and stays once block 2 is saved");

    // an empty block changes no head
    const three = await closeAndWatch(n, [a.chainId, b.chainId], two.first);
    assert.deepEqual(three.first, two.first);

    // a restarted node reads the same heads from the store
    await closeNode(n);
    n = openNode(dir, { clock: new ManualClock(n.clock.ms) });
    assert.deepEqual([headOf(n, a.chainId), headOf(n, b.chainId)], two.first);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});

test("a chain ID that is not 32 bytes finds no chain", async () => {
  const dir = tempDir();
  const n = openNode(dir, { clock: new ManualClock(T0) });
  try {
    assert.deepEqual(n.ledger.chainHead(new Uint8Array(31)), { head: undefined, inProcessList: false });
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});
