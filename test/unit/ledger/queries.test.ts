/**
 * The ledger's reads (queries.ts; docs/testing.md §Mutation testing), each answer checked against what the test
 * knows independently: the messages it submitted, hashes computed with src/protocol, and the semantics of the
 * spec (node-api.md §3 statuses, §4.1 results): node state, blocks by height and by each of their hashes,
 * entries, chain heads, transactions, commits, receipts, balances, acks and the pending lists — while a message
 * waits in the open block, while its block is being saved, and once saved — and every refusal (an unknown hash,
 * a hash of another block kind, a hash that is not 32 bytes, a height out of range). Real ledger over LMDB in a
 * temp directory.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { HOLD_EXPIRY_MS } from "../../../src/ledger/constants.js";
import { adminBlockHashes } from "../../../src/protocol/ablock.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { commitFullHash, commitTxId } from "../../../src/protocol/commit.js";
import { directoryBlockHashes } from "../../../src/protocol/dblock.js";
import { entryBlockHashes } from "../../../src/protocol/eblock.js";
import { ecBlockHashes } from "../../../src/protocol/ecblock.js";
import { entryHash, unmarshalEntry } from "../../../src/protocol/entry.js";
import { assetBlockHashes, emptyCoinbase } from "../../../src/protocol/fblock.js";
import { verifyReceipt } from "../../../src/protocol/receipt.js";
import { type Transaction, transactionFullHash, transactionId } from "../../../src/protocol/transaction.js";
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
  LOCAL_RATE,
  ManualClock,
  openNode,
  payment,
  rcdHashOf,
  sand,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** ms per minute of a directory block's timestamp (the header counts minutes since epoch) */
const MS_PER_MINUTE = 60_000;
/** a 32-byte hash nothing on this ledger has */
const UNKNOWN = new Uint8Array(32).fill(0xee);
/**
 * Hashes that are not 32 bytes find nothing, whoever asks (api.ts): one byte short, one byte long, empty, and
 * longer than LMDB takes as a key (lmdb-js refuses keys over 1,978 bytes: asked of the store, it would throw).
 */
const NOT_32_BYTES = [UNKNOWN.subarray(1), new Uint8Array(33).fill(0xee), new Uint8Array(0), new Uint8Array(4096)];

/** Uint8Array fields as hex, for comparing whole answers. */
function hexed(v: unknown): unknown {
  if (v instanceof Uint8Array) return toHex(v);
  if (Array.isArray(v)) return v.map(hexed);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hexed(x)]));
  return v;
}

/** End the open block's remaining minutes and wait until its save has committed. */
async function saveBlock(n: TestNode): Promise<number> {
  const h = n.ledger.openBlock().height;
  await endMinutes(n, 10 - n.ledger.openBlock().minute);
  await n.ledger.flush();
  assert.equal(n.ledger.heights().directoryBlockHeight, h);
  return h;
}

/** The saved directory block at `height` and its hashes, computed with src/protocol. */
function dirAt(n: TestNode, height: number) {
  const d = n.ledger.directoryBlockByHeight(height);
  assert.ok(d !== undefined, `directory block ${height} saved`);
  return { ...d, ...directoryBlockHashes(d.block) };
}

/** Where the spec says an item of directory block `height`, in the block `blockKeyMR`, is. */
function locationIn(n: TestNode, height: number, blockKeyMR: Uint8Array) {
  const d = dirAt(n, height);
  return {
    blockKeyMR: toHex(blockKeyMR),
    directoryBlockKeyMR: toHex(d.keyMR),
    directoryBlockHeight: height,
    blockTimeMs: d.block.timestamp * MS_PER_MINUTE,
  };
}

/** Fee a transaction pays: inputs − outputs − EC outputs, base units. */
function paidFee(tx: Transaction): bigint {
  const sum = (ios: { amount: bigint }[]) => ios.reduce((a, io) => a + io.amount, 0n);
  return sum(tx.inputs) - sum(tx.outputs) - sum(tx.ecOutputs);
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

test("heights, the entry credit rate, and every block by height and by each of its hashes", () =>
  withNode(async (n) => {
    // genesis only: directory height 0, the leaders work on 1 (node-api §4.1.3), LOCAL's rate
    assert.deepEqual(n.ledger.heights(), {
      directoryBlockHeight: 0,
      leaderHeight: 1,
      entryBlockHeight: 0,
      entryHeight: 0,
    });
    assert.equal(n.ledger.entryCreditRate(), LOCAL_RATE);
    const blockStartMs = n.ledger.openBlock().startMs;
    await saveBlock(n);
    await saveBlock(n);
    assert.deepEqual(n.ledger.heights(), {
      directoryBlockHeight: 2,
      leaderHeight: 3,
      entryBlockHeight: 2,
      entryHeight: 2,
    });
    // the head is the block saved last, linked back to the one before
    const head = n.ledger.directoryBlockHead();
    assert.equal(head.block.dbHeight, 2);
    assert.equal(toHex(head.block.prevKeyMR), toHex(dirAt(n, 1).keyMR));
    assert.equal(toHex(head.raw), toHex(dirAt(n, 2).raw));
    // block 1's timestamp is the minute its block started in
    assert.equal(dirAt(n, 1).block.timestamp, Math.floor(blockStartMs / MS_PER_MINUTE));

    // heights read in an order that would expose an answer kept for another height or kind
    for (const height of [2, 0, 1, 2, 0]) {
      const d = dirAt(n, height);
      assert.equal(d.block.dbHeight, height);
      for (const hash of [d.keyMR, d.fullHash])
        assert.equal(toHex(n.ledger.directoryBlockByHash(hash)!.raw), toHex(d.raw), `dblock ${height} by its hash`);
      // the directory block lists the admin, EC and asset blocks first (node-api §2.3), by their primary hash
      const [adminRef, ecRef, assetRef] = d.block.entries.map((e) => e.keyMR);
      const admin = n.ledger.adminBlockByHeight(height)!;
      assert.equal(toHex(adminBlockHashes(admin.block).lookupHash), toHex(adminRef!));
      assert.equal(toHex(n.ledger.adminBlockByHash(adminRef!)!.raw), toHex(admin.raw));
      assert.equal(admin.block.dbHeight, height);
      const ec = n.ledger.ecBlockByHeight(height)!;
      const ecHashes = ecBlockHashes(ec.block);
      assert.equal(toHex(ecHashes.headerHash), toHex(ecRef!));
      assert.equal(ec.block.dbHeight, height);
      for (const hash of [ecHashes.headerHash, ecHashes.fullHash])
        assert.equal(toHex(n.ledger.ecBlockByHash(hash)!.raw), toHex(ec.raw), `EC block ${height} by its hash`);
      const asset = n.ledger.assetBlockByHeight(height)!;
      assert.equal(toHex(assetBlockHashes(asset.block).keyMR), toHex(assetRef!));
      assert.equal(toHex(n.ledger.assetBlockByHash(assetRef!)!.raw), toHex(asset.raw));
      assert.equal(asset.block.dbHeight, height);

      // a hash of a block of another kind finds nothing
      assert.equal(n.ledger.directoryBlockByHash(adminRef!), undefined);
      assert.equal(n.ledger.directoryBlockByHash(ecRef!), undefined);
      assert.equal(n.ledger.adminBlockByHash(d.keyMR), undefined);
      assert.equal(n.ledger.adminBlockByHash(assetRef!), undefined);
      assert.equal(n.ledger.ecBlockByHash(assetRef!), undefined);
      assert.equal(n.ledger.ecBlockByHash(d.keyMR), undefined);
      assert.equal(n.ledger.assetBlockByHash(ecRef!), undefined);
      assert.equal(n.ledger.assetBlockByHash(adminRef!), undefined);
      assert.equal(n.ledger.entryBlockByHash(d.keyMR), undefined);
      assert.equal(n.ledger.entryBlockByHash(ecRef!), undefined);
    }

    // a saved block read again is the same decoded object (rpc/viewCache.ts keeps its JSON views per object)
    assert.equal(n.ledger.directoryBlockByHeight(1)!.block, n.ledger.directoryBlockByHash(dirAt(n, 1).keyMR)!.block);
    const ec1 = n.ledger.ecBlockByHeight(1)!;
    assert.equal(n.ledger.ecBlockByHash(ecBlockHashes(ec1.block).headerHash)!.block, ec1.block);

    // heights not saved (yet), and hashes unknown or not 32 bytes, find nothing
    for (const height of [3, 4, -1, 1.5, 2 ** 32]) {
      assert.equal(n.ledger.directoryBlockByHeight(height), undefined, `dblock at ${height}`);
      assert.equal(n.ledger.adminBlockByHeight(height), undefined);
      assert.equal(n.ledger.ecBlockByHeight(height), undefined);
      assert.equal(n.ledger.assetBlockByHeight(height), undefined);
    }
    for (const hash of [UNKNOWN, ...NOT_32_BYTES]) {
      assert.equal(n.ledger.directoryBlockByHash(hash), undefined, `dblock by a hash of ${hash.length} bytes`);
      assert.equal(n.ledger.adminBlockByHash(hash), undefined);
      assert.equal(n.ledger.ecBlockByHash(hash), undefined);
      assert.equal(n.ledger.assetBlockByHash(hash), undefined);
      assert.equal(n.ledger.entryBlockByHash(hash), undefined);
    }
  }));

test("an entry, its chain's head, its receipt and its acks: acknowledged, then saved", () =>
  withNode(async (n) => {
    await buyEC(n, ecKey, 100n);
    await saveBlock(n);
    const a = firstEntry(["queries", "a"], "first");
    const hashA = entryHash(a.raw);
    const cc = chainCommit(a.raw, n.clock.ms);
    await n.ledger.submitCommit(cc);
    n.clock.advance(250);
    const revealMs = n.clock.ms;
    await n.ledger.submitReveal(a.raw);

    // acknowledged, in the open block: found without a location, its chain in the process list only
    assert.deepEqual(hexed(n.ledger.entry(hashA)), hexed({ entry: unmarshalEntry(a.raw), raw: a.raw }));
    assert.deepEqual(n.ledger.chainHead(a.chainId), { head: undefined, inProcessList: true });
    assert.equal(n.ledger.receipt(hashA), undefined, "no receipt before the entry is in a saved block");
    const pendingAck = n.ledger.entryAck(hashA);
    assert.deepEqual(hexed(pendingAck.entry), {
      status: AckStatus.TransactionACK,
      blockTimeMs: revealMs,
      entryHash: toHex(hashA),
      chainId: toHex(a.chainId),
    });
    assert.equal(pendingAck.commit.status, AckStatus.TransactionACK);
    assert.equal(toHex(pendingAck.commit.txId!), toHex(commitTxId(cc)));
    assert.equal(pendingAck.commit.transactionTimeMs, cc.milliTime);

    const h = await saveBlock(n);
    const dir = dirAt(n, h);
    const ebRef = dir.block.entries.find((e) => toHex(e.chainId) === toHex(a.chainId))!.keyMR;
    const eb = n.ledger.entryBlockByHash(ebRef)!;
    assert.equal(toHex(entryBlockHashes(eb.block).keyMR), toHex(ebRef));
    assert.deepEqual(
      eb.block.items.filter((i) => i.length === 32 && toHex(i) === toHex(hashA)).length,
      1,
      "the entry is in its chain's entry block",
    );
    assert.equal(n.ledger.entryBlockByHash(ebRef)!.block, eb.block, "a saved entry block is decoded once");
    const where = locationIn(n, h, ebRef);

    // saved: located, committed for good; the chain's head is its entry block
    const saved = n.ledger.entry(hashA)!;
    assert.equal(saved.committed, true);
    assert.equal(toHex(saved.raw), toHex(a.raw));
    assert.deepEqual(hexed(saved.entry), hexed(unmarshalEntry(a.raw)));
    assert.deepEqual(hexed(saved.location), where);
    assert.deepEqual(hexed(saved.location), where, "the location read again");
    assert.deepEqual(hexed(n.ledger.chainHead(a.chainId)), { head: toHex(ebRef), inProcessList: false });
    const receipt = n.ledger.receipt(hashA)!;
    assert.ok(verifyReceipt(receipt));
    assert.equal(toHex(receipt.entryHash), toHex(hashA));
    assert.equal(toHex(receipt.entryBlockKeyMR), toHex(ebRef));
    assert.equal(toHex(receipt.directoryBlockKeyMR), toHex(dir.keyMR));
    assert.equal(receipt.directoryBlockHeight, h);
    const savedAck = n.ledger.entryAck(hashA);
    assert.deepEqual(hexed(savedAck.entry), {
      status: AckStatus.DBlockConfirmed,
      blockTimeMs: where.blockTimeMs,
      entryHash: toHex(hashA),
      chainId: toHex(a.chainId),
    });
    assert.equal(savedAck.commit.status, AckStatus.DBlockConfirmed);
    assert.equal(savedAck.commit.blockTimeMs, where.blockTimeMs);
    assert.equal(toHex(savedAck.commit.txId!), toHex(commitTxId(cc)));

    // a second entry of the chain, paid by an entry commit: the chain's head stays until its block is saved
    const b = entryRaw(a.chainId, ["b"], "second");
    const hashB = entryHash(b);
    const ec = entryCommit(b, n.clock.ms, ecKey, 3);
    await n.ledger.submitCommit(ec);
    await n.ledger.submitReveal(b);
    assert.deepEqual(hexed(n.ledger.chainHead(a.chainId)), { head: toHex(ebRef), inProcessList: true });
    for (const key of [commitTxId(ec), commitFullHash(ec)]) {
      const found = n.ledger.commit(key)!;
      assert.deepEqual(Object.keys(found), ["commit"], "an acknowledged commit has no location");
      assert.equal(toHex(found.commit.raw), toHex(ec.raw));
    }
    const { commit: acked, ...ackedRest } = n.ledger.commitAck(commitTxId(ec));
    assert.equal(toHex(acked!.raw), toHex(ec.raw));
    assert.deepEqual(hexed(ackedRest), {
      status: AckStatus.TransactionACK,
      transactionTimeMs: ec.milliTime,
      txId: toHex(commitTxId(ec)),
    });
    const h2 = await saveBlock(n);
    const ebRef2 = dirAt(n, h2).block.entries.find((e) => toHex(e.chainId) === toHex(a.chainId))!.keyMR;
    assert.deepEqual(hexed(n.ledger.chainHead(a.chainId)), { head: toHex(ebRef2), inProcessList: false });
    assert.equal(toHex(n.ledger.entryBlockByHash(ebRef2)!.block.prevKeyMR), toHex(ebRef));
    // the saved commits, by txid and by full hash, located in their EC block
    const ecRef2 = ecBlockHashes(n.ledger.ecBlockByHeight(h2)!.block).headerHash;
    for (const key of [commitTxId(ec), commitFullHash(ec)]) {
      const found = n.ledger.commit(key)!;
      assert.equal(toHex(found.commit.raw), toHex(ec.raw));
      assert.deepEqual(hexed(found.location), locationIn(n, h2, ecRef2));
    }
    const ecRef1 = ecBlockHashes(n.ledger.ecBlockByHeight(h)!.block).headerHash;
    assert.deepEqual(hexed(n.ledger.commit(commitTxId(cc))!.location), locationIn(n, h, ecRef1));
    const { commit: confirmed, ...confirmedRest } = n.ledger.commitAck(commitFullHash(ec));
    assert.equal(toHex(confirmed!.raw), toHex(ec.raw));
    assert.deepEqual(hexed(confirmedRest), {
      status: AckStatus.DBlockConfirmed,
      transactionTimeMs: ec.milliTime,
      blockTimeMs: locationIn(n, h2, ecRef2).blockTimeMs,
      txId: toHex(commitTxId(ec)),
    });
    assert.equal(toHex(n.ledger.entryAck(hashB).commit.txId!), toHex(commitTxId(ec)));
    assert.equal(n.ledger.entryAck(hashB).entry.status, AckStatus.DBlockConfirmed);

    // refusals: an unknown hash, and hashes that are not 32 bytes
    for (const hash of [UNKNOWN, ...NOT_32_BYTES]) {
      const what = `a hash of ${hash.length} bytes`;
      assert.equal(n.ledger.entry(hash), undefined, what);
      assert.equal(n.ledger.receipt(hash), undefined, what);
      assert.equal(n.ledger.commit(hash), undefined, what);
      assert.equal(n.ledger.transaction(hash), undefined, what);
      assert.deepEqual(n.ledger.chainHead(hash), { head: undefined, inProcessList: false }, what);
      assert.deepEqual(n.ledger.commitAck(hash), { status: AckStatus.Unknown }, what);
      assert.deepEqual(
        n.ledger.entryAck(hash),
        { commit: { status: AckStatus.Unknown }, entry: { status: AckStatus.Unknown, entryHash: hash } },
        what,
      );
      assert.deepEqual(n.ledger.transactionAck(hash), { status: AckStatus.Unknown, txId: hash }, what);
    }
  }));

test("transactions, balances and the pending transactions: acknowledged, then saved", () =>
  withNode(async (n) => {
    const to = assetKey(4);
    const never = rcdHashOf(assetKey(9));
    assert.deepEqual(n.ledger.assetBalance(never), { saved: 0n, ack: 0n, seen: false });
    assert.deepEqual(n.ledger.ecBalance(ecKey.publicKey), { saved: 0n, ack: 0n, seen: false });
    const startMs = n.ledger.openBlock().startMs;
    const buy = await buyEC(n, ecKey, 7n);
    n.clock.advance(100);
    const pay = payment({ milliTime: n.clock.ms, outputs: [{ to, amount: 3n * UNIT }] });
    await n.ledger.submitTransaction(pay);

    // acknowledged: found by txid and by full hash, without a location
    for (const tx of [buy, pay])
      for (const key of [transactionId(tx), transactionFullHash(tx)]) {
        const found = n.ledger.transaction(key)!;
        assert.deepEqual(Object.keys(found), ["tx"]);
        assert.equal(toHex(found.tx.raw), toHex(tx.raw));
      }
    assert.deepEqual(hexed(n.ledger.transactionAck(transactionId(pay))), {
      status: AckStatus.TransactionACK,
      transactionTimeMs: pay.milliTimestamp,
      txId: toHex(transactionId(pay)),
    });
    // balances: the acknowledged change on top of the saved value; an address seen only in the open block
    assert.deepEqual(n.ledger.assetBalance(rcdHashOf(to)), { saved: 0n, ack: 3n * UNIT, seen: true });
    assert.deepEqual(n.ledger.ecBalance(ecKey.publicKey), { saved: 0n, ack: 7n, seen: true });
    const sandSaved = n.ledger.assetBalance(rcdHashOf(sand)).saved;
    const spent = 7n * LOCAL_RATE + paidFee(buy) + 3n * UNIT + paidFee(pay);
    assert.deepEqual(n.ledger.assetBalance(rcdHashOf(sand)), { saved: sandSaved, ack: sandSaved - spent, seen: true });

    // pending (node-api §2.9): the open block's coinbase first, then the transactions in order, with their fees
    const coinbase = emptyCoinbase(startMs);
    const row = (tx: Transaction, fee: bigint) => ({
      transaction: toHex(tx.raw),
      txId: toHex(transactionId(tx)),
      status: AckStatus.TransactionACK,
      feeBaseUnits: fee,
    });
    const rows = (list: ReturnType<TestNode["ledger"]["pendingTransactions"]>) =>
      list.map((p) => ({
        ...(hexed(p) as object),
        transaction: toHex(p.transaction.raw),
        feeBaseUnits: p.feeBaseUnits,
      }));
    assert.deepEqual(rows(n.ledger.pendingTransactions()), [
      row(coinbase, 0n),
      row(buy, paidFee(buy)),
      row(pay, paidFee(pay)),
    ]);
    // by address: the transactions that spend from it or pay to it (asset or EC output), without the coinbase
    assert.deepEqual(rows(n.ledger.pendingTransactions(rcdHashOf(sand))), [
      row(buy, paidFee(buy)),
      row(pay, paidFee(pay)),
    ]);
    assert.deepEqual(rows(n.ledger.pendingTransactions(rcdHashOf(to))), [row(pay, paidFee(pay))]);
    assert.deepEqual(rows(n.ledger.pendingTransactions(ecKey.publicKey)), [row(buy, paidFee(buy))]);
    assert.deepEqual(n.ledger.pendingTransactions(never), []);

    const h = await saveBlock(n);
    const assetRef = assetBlockHashes(n.ledger.assetBlockByHeight(h)!.block).keyMR;
    const where = locationIn(n, h, assetRef);
    for (const tx of [buy, pay]) {
      const found = n.ledger.transaction(transactionId(tx))!;
      assert.equal(toHex(found.tx.raw), toHex(tx.raw));
      assert.deepEqual(hexed(found.location), where);
      assert.deepEqual(hexed(n.ledger.transactionAck(transactionId(tx))), {
        status: AckStatus.DBlockConfirmed,
        transactionTimeMs: tx.milliTimestamp,
        blockTimeMs: where.blockTimeMs,
        txId: toHex(transactionId(tx)),
      });
    }
    // the saved block's coinbase is a transaction of it too
    assert.deepEqual(hexed(n.ledger.transaction(transactionId(coinbase))?.location), where);
    assert.deepEqual(n.ledger.assetBalance(rcdHashOf(to)), { saved: 3n * UNIT, ack: 3n * UNIT, seen: true });
    assert.deepEqual(n.ledger.ecBalance(ecKey.publicKey), { saved: 7n, ack: 7n, seen: true });
    assert.deepEqual(n.ledger.assetBalance(never), { saved: 0n, ack: 0n, seen: false });
    // nothing pending but the new open block's coinbase
    assert.deepEqual(rows(n.ledger.pendingTransactions()), [row(emptyCoinbase(n.ledger.openBlock().startMs), 0n)]);
    assert.deepEqual(n.ledger.pendingTransactions(rcdHashOf(to)), []);
  }));

test("pending entries: paid but not revealed, revealed, revealed on an earlier block's commit, held", () =>
  withNode(async (n) => {
    await buyEC(n, ecKey, 200n);
    // committed in the block before, revealed in the open block
    const early = firstEntry(["pending", "early"], "e");
    await n.ledger.submitCommit(chainCommit(early.raw, n.clock.ms));
    await saveBlock(n);
    assert.deepEqual(n.ledger.pendingEntries(), []);

    const paidOnly = firstEntry(["pending", "paid only"], "p");
    await n.ledger.submitCommit(chainCommit(paidOnly.raw, n.clock.ms));
    const both = firstEntry(["pending", "both"], "b");
    await n.ledger.submitCommit(chainCommit(both.raw, n.clock.ms));
    await n.ledger.submitReveal(both.raw);
    await n.ledger.submitReveal(early.raw);
    const held = firstEntry(["pending", "held"], "h");
    n.clock.advance(50);
    const heldMs = n.clock.ms;
    await n.ledger.submitReveal(held.raw);

    // the open block's commits (chain ID once revealed), then its reveals paid earlier, then the held reveals
    assert.deepEqual(hexed(n.ledger.pendingEntries()), [
      { entryHash: toHex(entryHash(paidOnly.raw)), chainId: undefined, status: AckStatus.TransactionACK },
      { entryHash: toHex(entryHash(both.raw)), chainId: toHex(both.chainId), status: AckStatus.TransactionACK },
      { entryHash: toHex(entryHash(early.raw)), chainId: toHex(early.chainId), status: AckStatus.TransactionACK },
      { entryHash: toHex(entryHash(held.raw)), chainId: toHex(held.chainId), status: AckStatus.NotConfirmed },
    ]);
    // the held reveal: found on this node only (§3 NotConfirmed), no commit
    assert.deepEqual(hexed(n.ledger.entryAck(entryHash(held.raw))), {
      commit: { status: AckStatus.Unknown },
      entry: {
        status: AckStatus.NotConfirmed,
        blockTimeMs: heldMs,
        entryHash: toHex(entryHash(held.raw)),
        chainId: toHex(held.chainId),
      },
    });
    // paid, not revealed: the commit is acknowledged, the entry unknown
    const paidAck = n.ledger.entryAck(entryHash(paidOnly.raw));
    assert.equal(paidAck.commit.status, AckStatus.TransactionACK);
    assert.deepEqual(hexed(paidAck.entry), { status: AckStatus.Unknown, entryHash: toHex(entryHash(paidOnly.raw)) });
    // the reveal whose commit is saved: the entry acknowledged, its commit confirmed
    const earlyAck = n.ledger.entryAck(entryHash(early.raw));
    assert.equal(earlyAck.entry.status, AckStatus.TransactionACK);
    assert.equal(earlyAck.commit.status, AckStatus.DBlockConfirmed);

    await saveBlock(n);
    // saved: no longer pending; the held reveal still waits for its commit
    assert.deepEqual(hexed(n.ledger.pendingEntries()), [
      { entryHash: toHex(entryHash(held.raw)), chainId: toHex(held.chainId), status: AckStatus.NotConfirmed },
    ]);
  }));

test("a commit in the open block lists its entry once, as acknowledged, beside an expired held reveal of it", () =>
  withNode(async (n) => {
    await buyEC(n, ecKey, 50n);
    const e = firstEntry(["pending", "expired held"], "x");
    await n.ledger.submitReveal(e.raw);
    // the held reveal expires (swept only at the next end of minute); a commit now does not take it
    n.clock.advance(HOLD_EXPIRY_MS + 1);
    const cc = chainCommit(e.raw, n.clock.ms);
    await n.ledger.submitCommit(cc);
    assert.deepEqual(hexed(n.ledger.pendingEntries()), [
      { entryHash: toHex(entryHash(e.raw)), chainId: undefined, status: AckStatus.TransactionACK },
    ]);
  }));

test("a greater commit after the entry is saved counts over the one that paid its reveal", () =>
  withNode(async (n) => {
    await buyEC(n, ecKey, 50n);
    const a = firstEntry(["queries", "recommit"], "chain");
    await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
    await n.ledger.submitReveal(a.raw);
    const b = entryRaw(a.chainId, ["b"], "entry");
    const first = entryCommit(b, n.clock.ms, ecKey, 1);
    await n.ledger.submitCommit(first);
    await n.ledger.submitReveal(b);
    await saveBlock(n);
    // node-api §3 rule 4: a commit paying more is accepted and replaces the old one
    n.clock.advance(100);
    const greater = entryCommit(b, n.clock.ms, ecKey, 2);
    await n.ledger.submitCommit(greater);
    const ack = n.ledger.entryAck(entryHash(b));
    assert.equal(ack.entry.status, AckStatus.DBlockConfirmed, "the entry stays saved");
    assert.equal(ack.commit.status, AckStatus.TransactionACK, "its newest commit is the acknowledged one");
    assert.equal(toHex(ack.commit.txId!), toHex(commitTxId(greater)));
  }));

test("while a block is being saved: its items are found, not yet committed, and its decoded blocks not kept", () =>
  withNode(async (n) => {
    await buyEC(n, ecKey, 50n);
    await saveBlock(n);
    const h = n.ledger.openBlock().height;
    const a = firstEntry(["queries", "closing"], "c");
    await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
    await n.ledger.submitReveal(a.raw);
    await endMinutes(n, 9);
    await n.ledger.flush();
    const closing = n.ledger.endMinute(n.clock.advance(600));
    while (n.ledger.heights().directoryBlockHeight < h) await new Promise((r) => setImmediate(r));
    // shown, not yet in the store
    const during = n.ledger.entry(entryHash(a.raw))!;
    assert.equal(during.committed, false, "an entry of a block being saved is not committed yet");
    assert.equal(during.location?.directoryBlockHeight, h);
    const dirDuring = n.ledger.directoryBlockByHeight(h)!;
    const ebRef = dirDuring.block.entries.find((e) => toHex(e.chainId) === toHex(a.chainId))!.keyMR;
    const ebDuring = n.ledger.entryBlockByHash(ebRef)!;
    const ecDuring = n.ledger.ecBlockByHeight(h)!;
    await closing;
    await n.ledger.flush();
    assert.equal(n.ledger.entry(entryHash(a.raw))!.committed, true);
    // the same bytes once saved, but a block decoded during its save is not the one kept for later reads
    // (its save may yet fail): rpc's views (viewCache.ts) are kept per decoded block
    const dirAfter = n.ledger.directoryBlockByHeight(h)!;
    const ebAfter = n.ledger.entryBlockByHash(ebRef)!;
    const ecAfter = n.ledger.ecBlockByHeight(h)!;
    assert.equal(toHex(dirAfter.raw), toHex(dirDuring.raw));
    assert.equal(toHex(ebAfter.raw), toHex(ebDuring.raw));
    assert.equal(toHex(ecAfter.raw), toHex(ecDuring.raw));
    assert.notEqual(dirAfter.block, dirDuring.block);
    assert.notEqual(ebAfter.block, ebDuring.block);
    assert.notEqual(ecAfter.block, ecDuring.block);
    assert.equal(n.ledger.directoryBlockByHeight(h)!.block, dirAfter.block);
    assert.equal(n.ledger.entryBlockByHash(ebRef)!.block, ebAfter.block);
    assert.equal(n.ledger.ecBlockByHeight(h)!.block, ecAfter.block);
  }));
