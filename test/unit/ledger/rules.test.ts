/**
 * Every ledger rule, each success and each rejection, over real LMDB, real keys and real signatures.
 * The whole suite runs once per Verifier implementation (STYLE §7).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { COMMIT_LIFETIME_MS, HOLD_EXPIRY_MS, TIMESTAMP_WINDOW_MS } from "../../../src/ledger/constants.js";
import { encodeAddress } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { type Commit, commitTxId, decodeChainCommit, decodeEntryCommit } from "../../../src/protocol/commit.js";
import { emptyCoinbase } from "../../../src/protocol/fblock.js";
import { decodeTransaction, type Transaction } from "../../../src/protocol/transaction.js";
import type { Verifier } from "../../../src/workers/verifier.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  ecKeyN,
  endMinutes,
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
  sand,
  type TestNode,
  tempDir,
  UNIT,
  VERIFIERS,
} from "./harness.js";
import { rejectedWithoutChange, rejectsWith } from "./support.js";

/** A copy of a commit with one signature bit flipped (re-decoded, so raw and fields agree). */
function badlySigned(c: Commit): Commit {
  const raw = c.raw.slice();
  raw[raw.length - 1]! ^= 0x01;
  return c.kind === "chain" ? decodeChainCommit(raw) : decodeEntryCommit(raw);
}

/** A copy of a transaction with the first signature's last byte changed. */
function badlySignedTx(tx: Transaction): Transaction {
  const raw = tx.raw.slice();
  raw[raw.length - 1]! ^= 0x01;
  return decodeTransaction(raw);
}

for (const v of VERIFIERS) {
  describe(`ledger rules (${v.name})`, () => {
    let verifier: Verifier;
    let dir: string;
    let n: TestNode;
    let seq = 0;

    before(() => {
      verifier = v.make();
    });
    after(async () => {
      await verifier.close();
    });

    /** Fresh node per test; returns it after buying `ec` credits for ecKey (0 = none). */
    async function fresh(ec = 100n, opts: { holdingLimit?: number } = {}): Promise<TestNode> {
      dir = tempDir();
      n = openNode(dir, { verifier, ...opts });
      if (ec > 0n) await buyEC(n, ecKey, ec);
      return n;
    }
    async function done(): Promise<void> {
      await closeNode(n);
      cleanup(dir);
    }
    /** A distinct first entry per call. */
    function newChain(): { raw: Uint8Array; chainId: Uint8Array } {
      return firstEntry(["rules", v.name, String(seq++)], "first entry");
    }

    describe("commits", () => {
      test("accepted commit: TransactionACK, balance debited, saved balance unchanged until the block", async () => {
        await fresh(100n);
        try {
          const c = newChain();
          const commit = chainCommit(c.raw, n.clock.ms);
          const res = await n.ledger.submitCommit(commit);
          assert.equal(commit.credits, 11);
          assert.deepEqual(n.ledger.ecBalance(ecKey.publicKey), { saved: 0n, ack: 89n, seen: true });
          const ack = n.ledger.commitAck(res.txId);
          assert.equal(ack.status, AckStatus.TransactionACK);
          assert.equal(ack.transactionTimeMs, commit.milliTime);
          await finishBlock(n);
          assert.deepEqual(n.ledger.ecBalance(ecKey.publicKey), { saved: 89n, ack: 89n, seen: true });
          assert.equal(n.ledger.commitAck(res.txId).status, AckStatus.DBlockConfirmed);
        } finally {
          await done();
        }
      });

      test("bad signature → BAD_SIGNATURE, nothing changes", async () => {
        await fresh();
        try {
          const c = chainCommit(newChain().raw, n.clock.ms);
          await rejectedWithoutChange(n, () => n.ledger.submitCommit(badlySigned(c)), "BAD_SIGNATURE");
        } finally {
          await done();
        }
      });

      test("timestamp outside ±1 h → TIMESTAMP_OUT_OF_WINDOW; at the edge → accepted", async () => {
        await fresh();
        try {
          const raw = newChain().raw;
          const t = await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(chainCommit(raw, n.clock.ms - TIMESTAMP_WINDOW_MS - 1)),
            "TIMESTAMP_OUT_OF_WINDOW",
          );
          assert.equal(t.windowMs, TIMESTAMP_WINDOW_MS);
          await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(chainCommit(raw, n.clock.ms + TIMESTAMP_WINDOW_MS + 1)),
            "TIMESTAMP_OUT_OF_WINDOW",
          );
          await n.ledger.submitCommit(chainCommit(raw, n.clock.ms + TIMESTAMP_WINDOW_MS));
        } finally {
          await done();
        }
      });

      test("EC balance too low → EC_BALANCE_LOW with need and have", async () => {
        await fresh(0n);
        try {
          const t = await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(chainCommit(newChain().raw, n.clock.ms)),
            "EC_BALANCE_LOW",
          );
          assert.deepEqual([t.need, t.have, t.ecPublicKey], [11, 0, encodeAddress("EC", ecKey.publicKey)]);
          await buyEC(n, ecKey, 10n);
          await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(chainCommit(newChain().raw, n.clock.ms)),
            "EC_BALANCE_LOW",
          );
          await buyEC(n, ecKey, 1n);
          await n.ledger.submitCommit(chainCommit(newChain().raw, n.clock.ms));
          assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 0n);
        } finally {
          await done();
        }
      });

      test("repeated commit: equal or lower → REPEATED_COMMIT; greater replaces and both are charged", async () => {
        await fresh(100n);
        try {
          const raw = newChain().raw;
          const first = chainCommit(raw, n.clock.ms, ecKey, 12);
          await n.ledger.submitCommit(first);
          const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(first), "REPEATED_COMMIT");
          assert.equal(t.entryHash, toHex(first.entryHash));
          assert.equal(t.info, "A commit with equal or greater payment already exists");
          n.clock.advance(1);
          await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(chainCommit(raw, n.clock.ms, ecKey, 11)),
            "REPEATED_COMMIT",
          );
          await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(chainCommit(raw, n.clock.ms, ecKey, 12)),
            "REPEATED_COMMIT",
          );
          const greater = chainCommit(raw, n.clock.ms, ecKey, 13);
          await n.ledger.submitCommit(greater);
          assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 100n - 12n - 13n);
          // the entry's commit is now the greater one
          const { commit } = n.ledger.entryAck(greater.entryHash);
          assert.equal(toHex(commit.txId!), toHex(commitTxId(greater)));
        } finally {
          await done();
        }
      });

      test("a commit whose entry was revealed stays repeated inside the replay window, across blocks", async () => {
        await fresh(100n);
        try {
          const raw = newChain().raw;
          const c = chainCommit(raw, n.clock.ms);
          await n.ledger.submitCommit(c);
          await n.ledger.submitReveal(raw);
          await finishBlock(n);
          await rejectedWithoutChange(n, () => n.ledger.submitCommit(c), "REPEATED_COMMIT");
          // after the paid commit's lifetime the same entry hash may be paid again (a new timestamp)
          n.clock.advance(COMMIT_LIFETIME_MS + 1);
          const again = chainCommit(raw, n.clock.ms);
          await n.ledger.submitCommit(again);
          // but revealing it cannot create the chain twice
          await rejectsWith(n.ledger.submitReveal(raw), "CHAIN_EXISTS");
        } finally {
          await done();
        }
      });
    });

    describe("reveals", () => {
      test("reveal after commit: TransactionACK, in the entry block of its chain after the close", async () => {
        await fresh();
        try {
          const c = newChain();
          const commit = chainCommit(c.raw, n.clock.ms);
          const { txId } = await n.ledger.submitCommit(commit);
          const r = await n.ledger.submitReveal(c.raw);
          assert.equal(toHex(r.chainId), toHex(c.chainId));
          const ack = n.ledger.entryAck(r.entryHash);
          assert.equal(ack.entry.status, AckStatus.TransactionACK);
          assert.equal(ack.commit.status, AckStatus.TransactionACK);
          assert.equal(toHex(ack.commit.txId!), toHex(txId));
          assert.deepEqual(n.ledger.chainHead(c.chainId), { head: undefined, inProcessList: true });
          assert.ok(n.ledger.entry(r.entryHash), "a revealed entry is readable before its block");
          assert.equal(n.ledger.receipt(r.entryHash), undefined);
          await finishBlock(n);
          const after = n.ledger.entryAck(r.entryHash);
          assert.equal(after.entry.status, AckStatus.DBlockConfirmed);
          assert.equal(after.commit.status, AckStatus.DBlockConfirmed);
          const head = n.ledger.chainHead(c.chainId);
          assert.equal(head.inProcessList, false);
          const eb = n.ledger.entryBlockByHash(head.head!)!.block;
          assert.equal(toHex(eb.items[0]!), toHex(r.entryHash));
          assert.ok(n.ledger.entry(r.entryHash)!.location, "confirmed entry has a location");
          assert.ok(n.ledger.receipt(r.entryHash));
        } finally {
          await done();
        }
      });

      test("reveal before commit waits in the holding queue (NotConfirmed), released by the commit", async () => {
        await fresh();
        try {
          const c = newChain();
          const r = await n.ledger.submitReveal(c.raw);
          assert.equal(n.ledger.entryAck(r.entryHash).entry.status, AckStatus.NotConfirmed);
          const held = n.ledger.holdingQueue();
          assert.equal(held.length, 1);
          assert.equal(held[0]!.expiresMs - held[0]!.receivedMs, HOLD_EXPIRY_MS);
          assert.deepEqual(
            n.ledger.pendingEntries().map((p) => [toHex(p.entryHash), p.status]),
            [[toHex(r.entryHash), AckStatus.NotConfirmed]],
          );
          // resubmitting the held reveal is answered the same and journals nothing new
          const journal = n.store.journalRecords(n.ledger.openBlock().height).length;
          await n.ledger.submitReveal(c.raw);
          assert.equal(n.store.journalRecords(n.ledger.openBlock().height).length, journal);
          await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
          assert.equal(n.ledger.holdingQueue().length, 0);
          assert.equal(n.ledger.entryAck(r.entryHash).entry.status, AckStatus.TransactionACK);
          await finishBlock(n);
          assert.equal(n.ledger.entryAck(r.entryHash).entry.status, AckStatus.DBlockConfirmed);
        } finally {
          await done();
        }
      });

      test("a held reveal survives a block close and expires after HOLD_EXPIRY_MS", async () => {
        await fresh();
        try {
          const c = newChain();
          const r = await n.ledger.submitReveal(c.raw);
          await finishBlock(n);
          assert.equal(n.ledger.entryAck(r.entryHash).entry.status, AckStatus.NotConfirmed);
          n.clock.advance(HOLD_EXPIRY_MS);
          await endMinutes(n, 1, 1); // swept only strictly after the expiry
          assert.equal(n.ledger.holdingQueue().length, 0);
          assert.equal(n.ledger.entryAck(r.entryHash).entry.status, AckStatus.Unknown);
          // a commit now pays, but there is no reveal to release
          await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
          assert.equal(n.ledger.entryAck(r.entryHash).entry.status, AckStatus.Unknown);
          assert.equal(n.ledger.stats().revealsExpired, 1);
        } finally {
          await done();
        }
      });

      test("chain reveal whose chain ID is not derived from its ext IDs → CHAIN_ID_MISMATCH (paid) / CHAIN_NOT_FOUND (unpaid)", async () => {
        await fresh();
        try {
          const wrongChain = new Uint8Array(32).fill(0x42);
          const raw = entryRaw(wrongChain, ["a"], "b");
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(raw), "CHAIN_NOT_FOUND");
          await n.ledger.submitCommit(chainCommit(raw, n.clock.ms));
          const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(raw), "CHAIN_ID_MISMATCH");
          assert.equal(t.chainId, toHex(wrongChain));
        } finally {
          await done();
        }
      });

      test("reveal-chain (kind hint) before its commit: mismatching chain ID and existing chain are refused at once", async () => {
        await fresh();
        try {
          const raw = entryRaw(new Uint8Array(32).fill(0x43), ["a"], "b");
          const t = await rejectedWithoutChange(
            n,
            () => n.ledger.submitReveal(raw, { kind: "chain" }),
            "CHAIN_ID_MISMATCH",
          );
          assert.equal(t.chainId, toHex(new Uint8Array(32).fill(0x43)));
          const c = newChain();
          await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
          await n.ledger.submitReveal(c.raw, { kind: "chain" });
          const again = entryRaw(c.chainId, ["rules", v.name, String(seq - 1)], "another first entry");
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(again, { kind: "chain" }), "CHAIN_EXISTS");
          // without the hint it could still be an entry of that chain: it waits for a commit
          await n.ledger.submitReveal(again);
          assert.equal(n.ledger.holdingQueue().length, 1);
        } finally {
          await done();
        }
      });

      test("chain commit with a held mismatching reveal → the commit is refused with the pairing error", async () => {
        await fresh();
        try {
          const c = newChain();
          await n.ledger.submitReveal(c.raw);
          await finishBlock(n); // chain not created; reveal still held
          // an entry commit cannot create a chain: refused, nothing charged
          await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(entryCommit(c.raw, n.clock.ms)),
            "CHAIN_NOT_FOUND",
          );
        } finally {
          await done();
        }
      });

      test("second chain with the same chain ID → CHAIN_EXISTS (same block and after the close)", async () => {
        await fresh(100n);
        try {
          const ext = ["dup", v.name];
          const one = firstEntry(ext, "one");
          const two = firstEntry(ext, "two");
          await n.ledger.submitCommit(chainCommit(one.raw, n.clock.ms));
          await n.ledger.submitReveal(one.raw);
          await n.ledger.submitCommit(chainCommit(two.raw, n.clock.ms));
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(two.raw), "CHAIN_EXISTS");
          await finishBlock(n);
          await rejectsWith(n.ledger.submitReveal(two.raw), "CHAIN_EXISTS");
        } finally {
          await done();
        }
      });

      test("entry into a chain that does not exist → CHAIN_NOT_FOUND; into one created earlier in the block → accepted", async () => {
        await fresh(100n);
        try {
          const c = newChain();
          const e = entryRaw(c.chainId, ["e"], "entry");
          await n.ledger.submitCommit(entryCommit(e, n.clock.ms));
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(e), "CHAIN_NOT_FOUND");
          await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
          await n.ledger.submitReveal(c.raw);
          await n.ledger.submitReveal(e);
          await finishBlock(n);
          const eb = n.ledger.entryBlockByHash(n.ledger.chainHead(c.chainId).head!)!.block;
          const entries = eb.items.filter((i) => i.subarray(0, 31).some((b) => b !== 0));
          assert.equal(entries.length, 2);
        } finally {
          await done();
        }
      });

      test("commit credits below the entry's cost → CREDITS_TOO_LOW (at reveal, and at commit when the reveal is held)", async () => {
        await fresh(100n);
        try {
          const c = newChain();
          await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
          await n.ledger.submitReveal(c.raw);
          const big = entryRaw(c.chainId, [], "x".repeat(3000)); // KSize 3
          await n.ledger.submitCommit(entryCommit(big, n.clock.ms, ecKey, 2));
          const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(big), "CREDITS_TOO_LOW");
          assert.deepEqual([t.need, t.paid], [3, 2]);
          // a greater commit replaces the too-small one
          n.clock.advance(1);
          await n.ledger.submitCommit(entryCommit(big, n.clock.ms, ecKey, 3));
          await n.ledger.submitReveal(big);

          const big2 = entryRaw(c.chainId, [], "y".repeat(3000));
          await n.ledger.submitReveal(big2); // held
          await rejectedWithoutChange(
            n,
            () => n.ledger.submitCommit(entryCommit(big2, n.clock.ms, ecKey, 2)),
            "CREDITS_TOO_LOW",
          );
        } finally {
          await done();
        }
      });

      test("revealing an entry twice for one commit → DUPLICATE_ENTRY", async () => {
        await fresh();
        try {
          const c = newChain();
          await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
          await n.ledger.submitReveal(c.raw);
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(c.raw), "DUPLICATE_ENTRY");
          await finishBlock(n);
          await rejectsWith(n.ledger.submitReveal(c.raw), "DUPLICATE_ENTRY");
        } finally {
          await done();
        }
      });

      test("full holding queue → HOLDING_QUEUE_FULL", async () => {
        await fresh(0n, { holdingLimit: 2 });
        try {
          await n.ledger.submitReveal(newChain().raw);
          await n.ledger.submitReveal(newChain().raw);
          const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(newChain().raw), "HOLDING_QUEUE_FULL");
          assert.equal(t.limit, 2);
          assert.equal(t.bound, "reveals");
        } finally {
          await done();
        }
      });

      test("bytes that are not an entry → INVALID", async () => {
        await fresh(0n);
        try {
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(Uint8Array.of(1, 2, 3)), "INVALID");
          const bad = newChain().raw.slice();
          bad[0] = 1; // version must be 0
          await rejectedWithoutChange(n, () => n.ledger.submitReveal(bad), "INVALID");
        } finally {
          await done();
        }
      });
    });

    describe("asset transactions", () => {
      test("accepted: balances move at once (ack), saved at the close, EC outputs credit floor(amount/rate)", async () => {
        await fresh(0n);
        try {
          const to = assetKey(7);
          const ec = ecKeyN(8);
          const tx = payment({
            milliTime: n.clock.ms,
            outputs: [{ to, amount: 5n * UNIT }],
            ec: [{ to: ec, amount: 2_500n }],
          });
          const fee = feeOf(tx);
          const { txId } = await n.ledger.submitTransaction(tx);
          assert.equal(n.ledger.assetBalance(rcdHashOf(to)).ack, 5n * UNIT);
          assert.equal(n.ledger.assetBalance(rcdHashOf(to)).saved, 0n);
          assert.equal(n.ledger.assetBalance(rcdHashOf(sand)).ack, SAND_GENESIS_BALANCE - 5n * UNIT - 2_500n - fee);
          assert.equal(n.ledger.ecBalance(ec.publicKey).ack, 2_500n / LOCAL_RATE);
          assert.equal(n.ledger.transactionAck(txId).status, AckStatus.TransactionACK);
          const pending = n.ledger.pendingTransactions(rcdHashOf(to));
          assert.equal(pending.length, 1);
          assert.equal(pending[0]!.feeBaseUnits, fee);
          await finishBlock(n);
          assert.deepEqual(n.ledger.assetBalance(rcdHashOf(to)), { saved: 5n * UNIT, ack: 5n * UNIT, seen: true });
          assert.deepEqual(n.ledger.ecBalance(ec.publicKey), { saved: 2n, ack: 2n, seen: true });
          const ack = n.ledger.transactionAck(txId);
          assert.equal(ack.status, AckStatus.DBlockConfirmed);
          assert.equal(ack.transactionTimeMs, tx.milliTimestamp);
          assert.equal(n.ledger.transaction(txId)!.location!.directoryBlockHeight, 1);
        } finally {
          await done();
        }
      });

      test("bad signature → BAD_SIGNATURE", async () => {
        await fresh(0n);
        try {
          const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: UNIT }] });
          await rejectedWithoutChange(n, () => n.ledger.submitTransaction(badlySignedTx(tx)), "BAD_SIGNATURE");
        } finally {
          await done();
        }
      });

      test("timestamp outside ±1 h → TIMESTAMP_OUT_OF_WINDOW", async () => {
        await fresh(0n);
        try {
          for (const d of [-TIMESTAMP_WINDOW_MS - 1, TIMESTAMP_WINDOW_MS + 1]) {
            const tx = payment({ milliTime: n.clock.ms + d, outputs: [{ to: assetKey(1), amount: UNIT }] });
            await rejectedWithoutChange(n, () => n.ledger.submitTransaction(tx), "TIMESTAMP_OUT_OF_WINDOW");
          }
        } finally {
          await done();
        }
      });

      test("fee below the minimum at the current rate → INSUFFICIENT_FEE", async () => {
        await fresh(0n);
        try {
          const exact = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: UNIT }] });
          const need = feeOf(exact);
          const short = payment({
            milliTime: n.clock.ms,
            outputs: [{ to: assetKey(1), amount: UNIT }],
            fee: need - 1n,
          });
          const t = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(short), "INSUFFICIENT_FEE");
          assert.deepEqual([t.need, t.have], [need, need - 1n]);
          await n.ledger.submitTransaction(exact);
        } finally {
          await done();
        }
      });

      test("balance counts in-flight spends → ASSET_BALANCE_LOW", async () => {
        await fresh(0n);
        try {
          const first = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: 15_000n * UNIT }] });
          await n.ledger.submitTransaction(first);
          const second = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(2), amount: 6_000n * UNIT }] });
          const t = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(second), "ASSET_BALANCE_LOW");
          assert.equal(t.address, sand.publicAddress);
          assert.equal(t.have, SAND_GENESIS_BALANCE - 15_000n * UNIT - feeOf(first));
          // an unfunded address
          const broke = payment({
            from: assetKey(9),
            milliTime: n.clock.ms,
            outputs: [{ to: assetKey(2), amount: 1n }],
          });
          await rejectedWithoutChange(n, () => n.ledger.submitTransaction(broke), "ASSET_BALANCE_LOW");
        } finally {
          await done();
        }
      });

      test("same transaction twice → DUPLICATE_TRANSACTION (pending and saved)", async () => {
        await fresh(0n);
        try {
          const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: UNIT }] });
          await n.ledger.submitTransaction(tx);
          await rejectedWithoutChange(n, () => n.ledger.submitTransaction(tx), "DUPLICATE_TRANSACTION");
          await finishBlock(n);
          await rejectsWith(n.ledger.submitTransaction(tx), "DUPLICATE_TRANSACTION");
        } finally {
          await done();
        }
      });

      test("structurally invalid (no inputs, input address not the RCD's) → INVALID", async () => {
        await fresh(0n);
        try {
          const noInputs = emptyCoinbase(n.clock.ms);
          await rejectedWithoutChange(n, () => n.ledger.submitTransaction(noInputs), "INVALID");
          const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: UNIT }] });
          const tampered = tx.raw.slice();
          // input address starts after version(1) + ts(6) + counts(3) + amount varint
          const varintLen = tampered.slice(10).findIndex((b) => (b & 0x80) === 0) + 1;
          tampered[10 + varintLen]! ^= 0xff;
          await rejectedWithoutChange(n, () => n.ledger.submitTransaction(decodeTransaction(tampered)), "INVALID");
        } finally {
          await done();
        }
      });
    });
  });
}

describe("networks without block production", () => {
  test("MAIN serves its genesis and refuses writes with NOT_PRODUCING", async () => {
    const dir = tempDir();
    const n = openNode(dir, { network: "MAIN" });
    try {
      assert.equal(n.ledger.heights().directoryBlockHeight, 0);
      assert.ok(n.ledger.directoryBlockByHeight(0));
      await rejectsWith(
        n.ledger.submitTransaction(payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: 1n }] })),
        "NOT_PRODUCING",
      );
      await rejectsWith(n.ledger.endMinute(), "NOT_PRODUCING");
      assert.deepEqual(n.ledger.federatedServers(), []);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });
});
