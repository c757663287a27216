/**
 * Edges of the ledger rules that the first mutation run of src/ledger/rules.ts left open (docs/testing.md):
 * the credit range of each commit kind as the ledger checks it (a commit parsed without the decoder's
 * range check, as saved blocks and the journal hold them), and a held reveal that has expired but is not
 * yet swept (the sweep runs at the end of a minute): a commit or a resubmission meets it in between.
 * Real LMDB, real keys, real signatures.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { signEd25519 } from "../../../src/crypto/ed25519.js";
import { AckStatus } from "../../../src/ledger/api.js";
import {
  CHAIN_COMMIT_SIGNED_SIZE,
  type Commit,
  ENTRY_COMMIT_SIGNED_SIZE,
  encodeCommit,
  parseChainCommit,
  parseEntryCommit,
} from "../../../src/protocol/commit.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { processListView } from "../../../src/rpc/debug/processList.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  entryCommit,
  entryRaw,
  feeOf,
  finishBlock,
  firstEntry,
  LOCAL_RATE,
  openNode,
  payment,
  rcdHashOf,
  SAND_GENESIS_BALANCE,
  type TestNode,
  tempDir,
} from "./harness.js";
import { rejectedWithoutChange, rejectsWith } from "./support.js";

/** One hour, ms: how long a reveal waits for its commit (ledger/constants.ts HOLD_EXPIRY_MS), written out. */
const HOLD_MS = 60 * 60 * 1000;

/** `c` with `credits`, signed again by ecKey and parsed without the decoder's credit range. */
function withCredits(c: Commit, credits: number): Commit {
  const unsigned = encodeCommit({ ...c, credits });
  const signedSize = c.kind === "chain" ? CHAIN_COMMIT_SIGNED_SIZE : ENTRY_COMMIT_SIGNED_SIZE;
  const signature = signEd25519(ecKey.seed, unsigned.subarray(0, signedSize));
  const raw = encodeCommit({ ...c, credits, signature });
  return c.kind === "chain" ? parseChainCommit(raw) : parseEntryCommit(raw);
}

let seq = 0;
function newChain(): { raw: Uint8Array; chainId: Uint8Array } {
  return firstEntry(["rule edges", String(seq++)], "first entry");
}

async function fresh(ec = 200n): Promise<TestNode> {
  const n = openNode(tempDir());
  if (ec > 0n) await buyEC(n, ecKey, ec);
  return n;
}
async function done(n: TestNode): Promise<void> {
  await closeNode(n);
  cleanup(n.dir);
}

describe("commit credits, as the ledger checks them", () => {
  test("a chain commit pays 11..20 credits: 10 and 21 are INVALID naming the range, 20 is accepted", async () => {
    const n = await fresh();
    try {
      const base = chainCommit(newChain().raw, n.clock.ms);
      for (const credits of [10, 21]) {
        const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(withCredits(base, credits)), "INVALID");
        assert.equal(t.info, `chain commit credits must be 11..20, got ${credits}`);
      }
      await n.ledger.submitCommit(withCredits(base, 20));
      assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 200n - 20n);
    } finally {
      await done(n);
    }
  });

  test("an entry commit pays 1..10 credits: 0 and 11 are INVALID naming the range, 10 is accepted", async () => {
    const n = await fresh();
    try {
      const chain = newChain();
      const base = entryCommit(entryRaw(chain.chainId, ["e"], "x"), n.clock.ms);
      for (const credits of [0, 11]) {
        const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(withCredits(base, credits)), "INVALID");
        assert.equal(t.info, `entry commit credits must be 1..10, got ${credits}`);
      }
      await n.ledger.submitCommit(withCredits(base, 10));
      assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 200n - 10n);
    } finally {
      await done(n);
    }
  });
});

describe("a held reveal past its hour, before the sweep", () => {
  test("at exactly 1 h a commit still releases it; 1 ms later the commit is accepted and releases nothing", async () => {
    const n = await fresh();
    try {
      const t0 = n.clock.ms;
      const onTime = newChain();
      const late = newChain();
      await n.ledger.submitReveal(onTime.raw);
      await n.ledger.submitReveal(late.raw);
      n.clock.ms = t0 + HOLD_MS;
      await n.ledger.submitCommit(chainCommit(onTime.raw, n.clock.ms));
      assert.equal(n.ledger.entryAck(entryHash(onTime.raw)).entry.status, AckStatus.TransactionACK);
      n.clock.ms = t0 + HOLD_MS + 1;
      await n.ledger.submitCommit(chainCommit(late.raw, n.clock.ms));
      assert.notEqual(n.ledger.entryAck(entryHash(late.raw)).entry.status, AckStatus.TransactionACK);
      assert.deepEqual(processListView(n.ledger.processList()).entries, [
        {
          entryhash: Buffer.from(entryHash(onTime.raw)).toString("hex"),
          chainid: Buffer.from(onTime.chainId).toString("hex"),
        },
      ]);
      // the commit paid: the late entry revealed again now is accepted at once
      await n.ledger.submitReveal(late.raw);
      assert.equal(n.ledger.entryAck(entryHash(late.raw)).entry.status, AckStatus.TransactionACK);
    } finally {
      await done(n);
    }
  });

  test("a held commit's pairing is checked only while the reveal is live: an expired mismatching reveal does not block", async () => {
    const n = await fresh();
    try {
      const t0 = n.clock.ms;
      const c = newChain();
      await n.ledger.submitReveal(c.raw);
      n.clock.ms = t0 + HOLD_MS + 1;
      // an entry commit for a chain's first entry: refused CHAIN_NOT_FOUND while the reveal is live, but it
      // has expired, so the commit alone is judged (and pays)
      await n.ledger.submitCommit(entryCommit(c.raw, n.clock.ms));
      assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 200n - 1n);
    } finally {
      await done(n);
    }
  });

  test("resubmitted after its hour it is held again from the new arrival (a new journal record)", async () => {
    const n = await fresh(0n);
    try {
      const t0 = n.clock.ms;
      const c = newChain();
      await n.ledger.submitReveal(c.raw);
      const height = n.ledger.openBlock().height;
      const records = n.store.journalRecords(height).length;
      n.clock.ms = t0 + HOLD_MS;
      await n.ledger.submitReveal(c.raw); // still live: same answer, nothing journaled
      assert.equal(n.store.journalRecords(height).length, records);
      n.clock.ms = t0 + HOLD_MS + 1;
      await n.ledger.submitReveal(c.raw);
      assert.equal(n.store.journalRecords(height).length, records + 1);
      const held = n.ledger.holdingQueue();
      assert.equal(held.length, 1);
      assert.equal(held[0]!.receivedMs, t0 + HOLD_MS + 1);
      assert.equal(n.ledger.stats().revealsHeld, 2);
    } finally {
      await done(n);
    }
  });
});

describe("what the rules record, and rules the first run of src/ledger/rules.ts found untested", () => {
  test("each accepted message is journaled once and counted", async () => {
    const n = await fresh();
    try {
      const height = n.ledger.openBlock().height;
      const journal = (): number => n.store.journalRecords(height).length;
      const before = { ...n.ledger.stats() };
      const records = journal();
      const c = newChain();
      await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
      await n.ledger.submitReveal(c.raw);
      const held = newChain();
      await n.ledger.submitReveal(held.raw);
      await n.ledger.submitTransaction(payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(3), amount: 5n }] }));
      assert.equal(journal(), records + 4);
      await n.ledger.endMinute(n.clock.advance(600));
      assert.equal(journal(), records + 5, "an end of minute is journaled too");
      const after = n.ledger.stats();
      assert.deepEqual(
        [after.commitsAccepted, after.revealsAccepted, after.revealsHeld, after.transactionsAccepted],
        [
          before.commitsAccepted! + 1,
          before.revealsAccepted! + 1,
          before.revealsHeld! + 1,
          before.transactionsAccepted! + 1,
        ],
      );
    } finally {
      await done(n);
    }
  });

  test("reveal-chain: a valid new chain waits for its commit; a revealed first entry is CHAIN_EXISTS", async () => {
    const n = await fresh();
    try {
      const c = newChain();
      await n.ledger.submitReveal(c.raw, { kind: "chain" });
      assert.equal(n.ledger.holdingQueue().length, 1);
      await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
      assert.equal(n.ledger.entryAck(entryHash(c.raw)).entry.status, AckStatus.TransactionACK);
      await rejectsWith(n.ledger.submitReveal(c.raw, { kind: "chain" }), "CHAIN_EXISTS");
    } finally {
      await done(n);
    }
  });

  test("reveal-chain with a live entry commit: the commit decides (an entry of an existing chain is accepted)", async () => {
    const n = await fresh();
    try {
      const c = newChain();
      await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
      await n.ledger.submitReveal(c.raw);
      const e = entryRaw(c.chainId, ["not", "the", "chain's", "ext ids"], "an entry");
      await n.ledger.submitCommit(entryCommit(e, n.clock.ms));
      await n.ledger.submitReveal(e, { kind: "chain" });
      assert.equal(n.ledger.entryAck(entryHash(e)).entry.status, AckStatus.TransactionACK);
    } finally {
      await done(n);
    }
  });

  test("CHAIN_ID_MISMATCH says which chain ID the ext IDs give", async () => {
    const n = await fresh();
    try {
      const wrong = new Uint8Array(32).fill(0x44);
      const raw = entryRaw(wrong, ["m"], "x");
      const derived = Buffer.from(firstEntry(["m"], "x").chainId).toString("hex");
      const info = `a chain's first entry must carry the chain ID of its external IDs, ${derived}`;
      assert.equal((await rejectsWith(n.ledger.submitReveal(raw, { kind: "chain" }), "CHAIN_ID_MISMATCH")).info, info);
      await n.ledger.submitCommit(chainCommit(raw, n.clock.ms));
      assert.equal((await rejectsWith(n.ledger.submitReveal(raw), "CHAIN_ID_MISMATCH")).info, info);
    } finally {
      await done(n);
    }
  });

  test("a chain commit pays the entry's cost plus 10: 11 credits do not pay a first entry of 3 KiB", async () => {
    const n = await fresh();
    try {
      const ext = ["big first entry", String(seq++)];
      const big = firstEntry(ext, "y".repeat(2500));
      await n.ledger.submitCommit(chainCommit(big.raw, n.clock.ms, ecKey, 11));
      const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(big.raw), "CREDITS_TOO_LOW");
      assert.deepEqual([t.need, t.paid], [13, 11]);
    } finally {
      await done(n);
    }
  });

  test("an address may spend its whole balance, not a base unit more", async () => {
    const n = await fresh(0n);
    try {
      const all = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(5), amount: 0n }] });
      const fee = feeOf(all);
      const exact = payment({
        milliTime: n.clock.ms + 1,
        outputs: [{ to: assetKey(5), amount: SAND_GENESIS_BALANCE - fee }],
      });
      assert.equal(feeOf(exact), fee);
      await n.ledger.submitTransaction(exact);
      assert.equal(n.ledger.assetBalance(rcdHashOf(assetKey(5))).ack, SAND_GENESIS_BALANCE - fee);
      const from5 = payment({ from: assetKey(5), milliTime: n.clock.ms, outputs: [{ to: assetKey(6), amount: 1n }] });
      const need = 1n + feeOf(from5);
      const over = payment({
        from: assetKey(5),
        milliTime: n.clock.ms,
        outputs: [{ to: assetKey(6), amount: SAND_GENESIS_BALANCE - fee - need + 2n }],
      });
      await rejectedWithoutChange(n, () => n.ledger.submitTransaction(over), "ASSET_BALANCE_LOW");
    } finally {
      await done(n);
    }
  });

  test("the fee is checked against inputs − outputs − EC purchases", async () => {
    const n = await fresh(0n);
    try {
      const ok = payment({ milliTime: n.clock.ms, ec: [{ to: ecKey, amount: 5n * LOCAL_RATE }] });
      const need = feeOf(ok);
      const short = payment({ milliTime: n.clock.ms, ec: [{ to: ecKey, amount: 5n * LOCAL_RATE }], fee: need - 1n });
      const t = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(short), "INSUFFICIENT_FEE");
      assert.deepEqual([t.need, t.have], [need, need - 1n]);
    } finally {
      await done(n);
    }
  });

  test("a block closes at the end of its 10th minute, not before", async () => {
    const n = await fresh(0n);
    try {
      const height = n.ledger.openBlock().height;
      for (let m = 0; m < 9; m++) await n.ledger.endMinute(n.clock.advance(600));
      assert.deepEqual([n.ledger.openBlock().height, n.ledger.openBlock().minute], [height, 9]);
      await n.ledger.endMinute(n.clock.advance(600));
      assert.deepEqual([n.ledger.openBlock().height, n.ledger.openBlock().minute], [height + 1, 0]);
    } finally {
      await done(n);
    }
  });

  test("startBlock moves the open block's start in its first minute only", async () => {
    const n = await fresh(0n);
    try {
      const at = n.clock.advance(1234);
      const height = n.ledger.openBlock().height;
      const records = n.store.journalRecords(height).length;
      assert.equal(await n.ledger.startBlock(at), true);
      assert.equal(n.store.journalRecords(height).length, records + 1, "the new start is journaled");
      assert.equal(n.ledger.openBlock().startMs, at);
      assert.equal(n.ledger.openBlock().minuteStartMs, at);
      await n.ledger.endMinute(n.clock.advance(600));
      assert.equal(await n.ledger.startBlock(n.clock.ms), false);
      assert.equal(n.ledger.openBlock().startMs, at);
      await finishBlock(n);
    } finally {
      await done(n);
    }
  });

  test("an entry into a chain of an earlier block does not mark its entry block as creating the chain", async () => {
    const n = await fresh();
    try {
      const c = newChain();
      await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
      await n.ledger.submitReveal(c.raw);
      assert.deepEqual(processListView(n.ledger.processList()).entryblocks, [
        { chainid: Buffer.from(c.chainId).toString("hex"), items: 1, newchain: true },
      ]);
      await finishBlock(n);
      const e = entryRaw(c.chainId, ["later"], "entry");
      await n.ledger.submitCommit(entryCommit(e, n.clock.ms));
      await n.ledger.submitReveal(e);
      assert.deepEqual(processListView(n.ledger.processList()).entryblocks, [
        { chainid: Buffer.from(c.chainId).toString("hex"), items: 1, newchain: false },
      ]);
    } finally {
      await done(n);
    }
  });
});
