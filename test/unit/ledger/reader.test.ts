/**
 * The ledger's read side (reader.ts; docs/testing.md §Mutation testing) against facts known apart from it:
 * `current-minute` in the units docs/api.md gives (nanoseconds since the epoch, seconds), with the stall rule
 * of docs/ledger.md (the open minute older than 1.5 minute lengths, on a node that produces blocks) and the
 * reference's fault and round timeouts; the saved blocks by height and by hash, each the block its
 * directory block lists (hashes computed with src/protocol); a commit with its location; the cluster reads
 * (the last directory block, a height's admin entries, the log sequence); the open block's sizes; and a
 * reader built over a store a ledger wrote (what a follower serves). Real ledger over LMDB in a temp
 * directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { bootstrapSigner, loadTip } from "../../../src/ledger/bootstrap.js";
import { HoldingQueue } from "../../../src/ledger/holdingQueue.js";
import { Ledger } from "../../../src/ledger/ledger.js";
import { ProcessList } from "../../../src/ledger/processList.js";
import { LedgerReader } from "../../../src/ledger/reader.js";
import { SavedState } from "../../../src/ledger/savedState.js";
import { newCounters } from "../../../src/ledger/state.js";
import { adminBlockHashes } from "../../../src/protocol/ablock.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { commitTxId } from "../../../src/protocol/commit.js";
import { directoryBlockHashes } from "../../../src/protocol/dblock.js";
import { ecBlockHashes } from "../../../src/protocol/ecblock.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { assetBlockHashes, assetBlockTransactions } from "../../../src/protocol/fblock.js";
import { LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { LedgerStore } from "../../../src/store/store.js";
import { InlineVerifier } from "../../../src/workers/verifier.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  finishBlock,
  firstEntry,
  LOCAL_RATE,
  ManualClock,
  MemoryLog,
  openNode,
  tempDir,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** ms → ns, the unit of current-minute's times (docs/api.md §4) */
const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;
/** 6 s blocks (the harness default): a minute is 600 ms, a stall more than 900 ms without an end of minute */
const MINUTE_MS = 600;

describe("current-minute", () => {
  test("heights, minute and times of the open block, in ns; seconds per block; the reference timeouts", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    try {
      assert.equal(n.ledger.isProducing(), true, "LOCAL is a network a standalone node produces blocks for");
      await endMinutes(n, 3, MINUTE_MS);
      const minuteStart = n.clock.ms;
      n.clock.advance(250);
      assert.deepEqual(n.ledger.currentMinute(), {
        leaderHeight: 1,
        directoryBlockHeight: 0,
        minute: 3,
        // the genesis block set opens height 1 at the time the store was created
        currentBlockStartTimeNs: ns(T0),
        currentMinuteStartTimeNs: ns(minuteStart),
        currentTimeNs: ns(minuteStart + 250),
        directoryBlockInSeconds: 6,
        stallDetected: false,
        // the reference node's defaults (docs/configuration.md -faulttimeout, -roundtimeout)
        faultTimeoutSeconds: 120,
        roundTimeoutSeconds: 30,
      });
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("a stall is a minute older than 1.5 minute lengths; the next end of minute clears it", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    try {
      await endMinutes(n, 2, MINUTE_MS);
      n.clock.advance(1.5 * MINUTE_MS);
      assert.equal(n.ledger.currentMinute().stallDetected, false, "exactly 1.5 minute lengths is no stall yet");
      n.clock.advance(1);
      assert.equal(n.ledger.currentMinute().stallDetected, true, "1 ms more is");
      await n.ledger.endMinute(n.clock.ms);
      assert.equal(n.ledger.currentMinute().stallDetected, false, "a new minute has just started");
      assert.equal(n.ledger.currentMinute().minute, 3);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("a node that produces no blocks (standalone MAIN) never reports a stall", async () => {
    const dir = tempDir();
    const n = openNode(dir, { network: "MAIN", clock: new ManualClock(T0) });
    try {
      assert.equal(n.ledger.isProducing(), false);
      n.clock.advance(3_600_000);
      const m = n.ledger.currentMinute();
      assert.equal(m.stallDetected, false, "its minutes end only when the network's servers end them");
      assert.equal(m.currentTimeNs, ns(T0 + 3_600_000));
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("the minute stays 0..9: while a close's end of minute 10 is made durable the closing block shows minute 9", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    try {
      await endMinutes(n, 9, MINUTE_MS);
      const closing = n.ledger.endMinute(n.clock.advance(MINUTE_MS));
      const during = n.ledger.currentMinute();
      assert.deepEqual([during.leaderHeight, during.directoryBlockHeight, during.minute], [1, 0, 9]);
      await closing;
      const after = n.ledger.currentMinute();
      assert.deepEqual([after.leaderHeight, after.directoryBlockHeight, after.minute], [2, 1, 0]);
      assert.equal(after.currentBlockStartTimeNs, ns(n.clock.ms), "the next block starts at the end of minute 10");
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("a cluster node's fault and round timeouts are reported as configured", async () => {
    const dir = tempDir();
    const store = LedgerStore.open({ path: join(dir, "db"), network: "LOCAL", networkId: networkId("LOCAL") });
    const ledger = Ledger.open(
      { network: "LOCAL", blockTimeSeconds: 12, faultTimeoutSeconds: 45, roundTimeoutSeconds: 7 },
      { store, verifier: new InlineVerifier(), log: new MemoryLog(), now: () => T0 },
    );
    try {
      const m = ledger.currentMinute();
      assert.deepEqual([m.directoryBlockInSeconds, m.faultTimeoutSeconds, m.roundTimeoutSeconds], [12, 45, 7]);
    } finally {
      await ledger.close();
      await store.close();
      cleanup(dir);
    }
  });
});

describe("saved blocks and the cluster reads", () => {
  test("each block by height and by hash is the one its directory block lists; a commit has its location", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    try {
      const tx = await buyEC(n, ecKey, 50n);
      const first = firstEntry(["reader edges"], "a chain");
      const commit = chainCommit(first.raw, n.clock.ms);
      const txId = commitTxId(commit);
      await n.ledger.submitCommit(commit);
      const pending = n.ledger.commit(txId);
      assert.ok(pending !== undefined, "an acknowledged commit is found before its block is saved");
      assert.equal(toHex(pending.commit.entryHash), toHex(entryHash(first.raw)));
      assert.equal(pending.location, undefined, "and has no location yet");
      await n.ledger.submitReveal(first.raw);
      await finishBlock(n, MINUTE_MS);
      await finishBlock(n, MINUTE_MS);
      await n.ledger.flush();

      // the head is height 2, and links to height 1 by height 1's keyMR
      const head = n.ledger.directoryBlockHead();
      assert.equal(head.block.dbHeight, 2);
      const d1 = n.ledger.directoryBlockByHeight(1)!;
      const d1Hashes = directoryBlockHashes(d1.block);
      assert.equal(toHex(head.block.prevKeyMR), toHex(d1Hashes.keyMR));
      assert.equal(toHex(head.block.prevFullHash), toHex(d1Hashes.fullHash));
      const headHashes = directoryBlockHashes(head.block);
      for (const h of [headHashes.keyMR, headHashes.fullHash])
        assert.equal(toHex(n.ledger.directoryBlockByHash(h)?.raw ?? new Uint8Array()), toHex(head.raw));

      // directory block 1 lists its admin, EC and asset blocks by their hashes
      const listed = (chainId: Uint8Array): Uint8Array =>
        d1.block.entries.find((e) => toHex(e.chainId) === toHex(chainId))!.keyMR;
      const admin = n.ledger.adminBlockByHash(listed(ADMIN_CHAIN_ID));
      assert.ok(admin !== undefined);
      assert.equal(toHex(adminBlockHashes(admin.block).lookupHash), toHex(listed(ADMIN_CHAIN_ID)));
      assert.equal(admin.block.dbHeight, 1);
      assert.equal(toHex(n.ledger.adminBlockByHeight(1)?.raw ?? new Uint8Array()), toHex(admin.raw));

      const ec = n.ledger.ecBlockByHash(listed(EC_CHAIN_ID));
      assert.ok(ec !== undefined);
      const ecHashes = ecBlockHashes(ec.block);
      assert.equal(toHex(ecHashes.headerHash), toHex(listed(EC_CHAIN_ID)));
      assert.equal(ec.block.dbHeight, 1);
      assert.equal(toHex(n.ledger.ecBlockByHeight(1)?.raw ?? new Uint8Array()), toHex(ec.raw));
      assert.ok(
        ec.block.items.some((i) => i.type === "chainCommit" && toHex(commitTxId(i.commit)) === toHex(txId)),
        "the EC block of height 1 holds the chain commit",
      );

      const asset = n.ledger.assetBlockByHash(listed(ASSET_CHAIN_ID));
      assert.ok(asset !== undefined);
      assert.equal(toHex(assetBlockHashes(asset.block).keyMR), toHex(listed(ASSET_CHAIN_ID)));
      assert.equal(asset.block.dbHeight, 1);
      assert.equal(toHex(n.ledger.assetBlockByHeight(1)?.raw ?? new Uint8Array()), toHex(asset.raw));
      assert.ok(
        assetBlockTransactions(asset.block).some((t) => toHex(transactionId(t)) === toHex(transactionId(tx))),
        "the asset block of height 1 holds the purchase",
      );

      // the rate: LOCAL genesis's, carried by every asset block since
      assert.equal(n.ledger.entryCreditRate(), LOCAL_RATE);
      assert.equal(asset.block.exchangeRate, LOCAL_RATE);

      // the commit, once saved, is located in the EC block and the directory block of height 1
      const saved = n.ledger.commit(txId);
      assert.deepEqual(
        saved?.location === undefined
          ? undefined
          : [
              toHex(saved.location.blockKeyMR),
              toHex(saved.location.directoryBlockKeyMR),
              saved.location.directoryBlockHeight,
            ],
        [toHex(ecHashes.headerHash), toHex(d1Hashes.keyMR), 1],
      );

      // nothing is found for a hash no block has, nor above the saved height
      const none = new Uint8Array(32).fill(0xee);
      assert.deepEqual(
        [
          n.ledger.directoryBlockByHash(none),
          n.ledger.adminBlockByHash(none),
          n.ledger.ecBlockByHash(none),
          n.ledger.assetBlockByHash(none),
          n.ledger.commit(none),
          n.ledger.directoryBlockByHeight(3),
          n.ledger.adminBlockByHeight(3),
          n.ledger.ecBlockByHeight(3),
          n.ledger.assetBlockByHeight(3),
        ],
        [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined],
      );

      // the cluster reads: the last saved directory block (what the servers sign for the open height), a
      // height's admin entries (LOCAL: the bootstrap key's signature of the previous directory block), and
      // the log sequence a single node never records
      assert.equal(n.ledger.openBlock().height, 3);
      assert.equal(toHex(directoryBlockHashes(n.ledger.lastDirectoryBlock()).keyMR), toHex(headHashes.keyMR));
      const entries = n.ledger.adminEntries(1);
      assert.deepEqual(
        entries.map((e) => [e.type, "publicKey" in e ? toHex(e.publicKey) : undefined]),
        [[0x01, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX]],
      );
      assert.deepEqual(n.ledger.adminEntries(3), [], "no admin block is saved at the open height");
      assert.equal(n.ledger.savedLogSequence(), 0);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("the open block's sizes: its commits, reveals and transactions, and the reveals held", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    try {
      assert.deepEqual(n.ledger.openBlockSizes(), { commits: 0, reveals: 0, transactions: 0, held: 0 });
      await buyEC(n, ecKey, 50n);
      const first = firstEntry(["reader edges", "sizes"], "a chain");
      await n.ledger.submitCommit(chainCommit(first.raw, n.clock.ms));
      await n.ledger.submitReveal(first.raw);
      await n.ledger.submitReveal(firstEntry(["reader edges", "no commit yet"], "held").raw);
      assert.deepEqual(n.ledger.openBlockSizes(), { commits: 1, reveals: 1, transactions: 1, held: 1 });
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });
});

test("a reader over a store a ledger wrote (a follower) serves its blocks and opens the next height", async () => {
  const dir = tempDir();
  const n = openNode(dir, { clock: new ManualClock(T0) });
  let closedAt: number;
  let headKeyMR: string;
  try {
    await buyEC(n, ecKey, 50n);
    await finishBlock(n, MINUTE_MS);
    closedAt = n.clock.ms;
    headKeyMR = toHex(directoryBlockHashes(n.ledger.directoryBlockHead().block).keyMR);
  } finally {
    await closeNode(n);
  }
  const store = LedgerStore.open({ path: n.store.path, network: "LOCAL", networkId: networkId("LOCAL", "test") });
  try {
    const height = store.savedHeight();
    const reader = new LedgerReader({
      view: {
        tip: loadTip(store, height),
        pl: new ProcessList(height + 1, store.openBlockStartMs()),
        holding: new HoldingQueue({ limits: { reveals: 10, bytes: 100_000 } }),
        saved: new SavedState(store),
        counters: newCounters(),
      },
      store,
      options: { network: "LOCAL", blockTimeSeconds: 6 },
      now: () => closedAt + 3_600_000,
      producing: false,
      signer: bootstrapSigner(),
    });
    assert.deepEqual(reader.openBlock(), { height: 2, minute: 0, startMs: closedAt, minuteStartMs: closedAt });
    assert.equal(toHex(directoryBlockHashes(reader.directoryBlockHead().block).keyMR), headKeyMR);
    assert.equal(reader.isProducing(), false);
    assert.equal(reader.currentMinute().stallDetected, false, "a follower produces no minutes: no stall of its own");
    assert.deepEqual(reader.federatedServers(), []);
  } finally {
    await store.close();
    cleanup(dir);
  }
});
