/**
 * The closing overlay (savedState.ts; docs/testing.md §Mutation testing): from the moment a block is shown until
 * its LMDB transaction commits, every read of saved state — blocks by height and by each of their hashes,
 * entries, commits, transactions (the coinbase too) with their locations, acks, chain heads, balances — is
 * answered from the block being saved, exactly as the store answers once the save has committed. The reads
 * (and those of an earlier block, read from the store meanwhile) are taken as soon as the end of minute 10 is
 * durable (before that readers see the open block), then again
 * after the save; both sets of answers must be equal, and the store must not have held the block the first
 * time. Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { toHex } from "../../../src/protocol/bytes.js";
import { commitFullHash, commitTxId } from "../../../src/protocol/commit.js";
import { directoryBlockHashes } from "../../../src/protocol/dblock.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { BlockKind } from "../../../src/store/keys.js";
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
  ManualClock,
  openNode,
  payment,
  rcdHashOf,
  sand,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";
import { rejectsWith } from "./support.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

test("a closed block is read from the block being saved exactly as from the store once saved", async () => {
  const n: TestNode = openNode(tempDir(), { clock: new ManualClock(T0) });
  try {
    // an earlier saved block: while the next one is being saved, its items are read from the store
    const earlyBuy = await buyEC(n, ecKey, 50n);
    const early = firstEntry(["saved state", "early"], "e");
    const earlyCommit = chainCommit(early.raw, n.clock.ms);
    await n.ledger.submitCommit(earlyCommit);
    await n.ledger.submitReveal(early.raw);
    await endMinutes(n, 10);
    await n.ledger.flush();
    const h = n.ledger.openBlock().height;
    const buy = await buyEC(n, ecKey, 100n);
    const pay = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(4), amount: UNIT }] });
    await n.ledger.submitTransaction(pay);
    const a = firstEntry(["saved state", "a"], "x");
    const cc = chainCommit(a.raw, n.clock.ms);
    await n.ledger.submitCommit(cc);
    await n.ledger.submitReveal(a.raw);
    const second = entryRaw(a.chainId, ["second"], "y");
    const ec = entryCommit(second, n.clock.ms);
    await n.ledger.submitCommit(ec);
    await n.ledger.submitReveal(second);
    // paid and not revealed: its entry's ack names this commit, read from the block being saved during the save
    const unrevealed = entryRaw(a.chainId, ["unrevealed"], "z");
    const uc = entryCommit(unrevealed, n.clock.ms);
    await n.ledger.submitCommit(uc);
    const other = firstEntry(["saved state", "other"], "o"); // a chain of an earlier block: read from the store
    await endMinutes(n, 9);
    await n.ledger.flush();

    const reads = () => {
      const dir = n.ledger.directoryBlockByHeight(h);
      const admin = n.ledger.adminBlockByHeight(h);
      const ecb = n.ledger.ecBlockByHeight(h);
      const asset = n.ledger.assetBlockByHeight(h);
      const coinbase = asset === undefined ? undefined : transactionId(asset.block.periods[0]![0]!);
      const dirHashes = dir === undefined ? undefined : directoryBlockHashes(dir.block);
      const ebKeyMR = dir?.block.entries.find((e) => toHex(e.chainId) === toHex(a.chainId))?.keyMR;
      return {
        dir,
        byKeyMR: dirHashes && n.ledger.directoryBlockByHash(dirHashes.keyMR),
        byFullHash: dirHashes && n.ledger.directoryBlockByHash(dirHashes.fullHash),
        genesis: n.ledger.directoryBlockByHeight(0),
        admin,
        ecb,
        asset,
        entryBlock: ebKeyMR && n.ledger.entryBlockByHash(ebKeyMR),
        entries: [a.raw, second].map((r) => n.ledger.entry(entryHash(r))),
        entryAcks: [a.raw, second, unrevealed].map((r) => n.ledger.entryAck(entryHash(r))),
        commits: [cc, ec].flatMap((c) => [n.ledger.commit(commitTxId(c)), n.ledger.commit(commitFullHash(c))]),
        commitAcks: [cc, ec].map((c) => n.ledger.commitAck(commitTxId(c))),
        transactions: [buy, pay].map((t) => n.ledger.transaction(transactionId(t))),
        transactionAcks: [buy, pay].map((t) => n.ledger.transactionAck(transactionId(t))),
        coinbase: coinbase && n.ledger.transaction(coinbase),
        chainHead: n.ledger.chainHead(a.chainId),
        earlier: {
          dir: n.ledger.directoryBlockByHeight(h - 1),
          entry: n.ledger.entry(entryHash(early.raw)),
          entryAck: n.ledger.entryAck(entryHash(early.raw)),
          commit: n.ledger.commit(commitTxId(earlyCommit)),
          commitAck: n.ledger.commitAck(commitTxId(earlyCommit)),
          transaction: n.ledger.transaction(transactionId(earlyBuy)),
          transactionAck: n.ledger.transactionAck(transactionId(earlyBuy)),
          chainHead: n.ledger.chainHead(early.chainId),
        },
        otherChain: n.ledger.chainHead(other.chainId),
        balances: [
          n.ledger.ecBalance(ecKey.publicKey),
          n.ledger.assetBalance(rcdHashOf(sand)),
          n.ledger.assetBalance(rcdHashOf(assetKey(4))),
          n.ledger.assetBalance(rcdHashOf(assetKey(5))),
        ],
      };
    };

    assert.equal(n.ledger.openBlock().minute, 9);
    const closing = n.ledger.endMinute(n.clock.advance(600));
    // applied at once: the next height is open, and the closed block is not in the store yet
    assert.equal(n.ledger.openBlock().height, h + 1);
    assert.equal(n.store.blockHashAt(BlockKind.directory, h), undefined);
    // readers see it once its end of minute 10 is durable (close.ts PreClose), in the turn that flush
    // resolves — the save is handed to the writer thread then, and its answer comes in a later turn
    assert.equal(n.ledger.directoryBlockByHeight(h), undefined);
    while (n.ledger.heights().directoryBlockHeight < h) await new Promise((r) => setImmediate(r));
    assert.equal(n.store.blockHashAt(BlockKind.directory, h), undefined);
    const during = reads();
    // a reveal with no commit yet, of a chain the block being saved creates: held for its commit (the chain
    // exists for the rules from that block on), not refused as of an unknown chain
    const heldRaw = entryRaw(a.chainId, ["held"], "during the save");
    const held = n.ledger.submitReveal(heldRaw); // its rules run in this turn, while the block is being saved
    // a commit paid in the block being saved is repeated while it is saved (its store has no record of it yet)
    const repeated = n.ledger.submitCommit(uc);
    assert.equal(n.store.blockHashAt(BlockKind.directory, h), undefined, "still being saved");
    await rejectsWith(repeated, "REPEATED_COMMIT");
    await closing;
    await held; // CHAIN_NOT_FOUND had the closing block's new chain not counted
    assert.ok(
      n.ledger.holdingQueue().some((m) => m.kind === "reveal" && toHex(m.hash) === toHex(entryHash(heldRaw))),
      "the reveal waits for its commit",
    );
    await n.ledger.flush();
    assert.notEqual(n.store.blockHashAt(BlockKind.directory, h), undefined);
    const after = reads();
    // the unrevealed entry's ack names its commit, during the save as after it
    for (const r of [during, after]) assert.equal(toHex(r.entryAcks[2]!.commit.txId!), toHex(commitTxId(uc)));
    assert.ok(during.dir !== undefined && during.coinbase !== undefined && during.entryBlock !== undefined);
    for (const item of [...during.entries, ...during.commits, ...during.transactions, during.coinbase])
      assert.equal(item?.location?.directoryBlockHeight, h, "located in the closed block");
    for (const item of [during.earlier.entry, during.earlier.commit, during.earlier.transaction])
      assert.equal(item?.location?.directoryBlockHeight, h - 1, "located in the earlier block");
    // what differs by design: an entry of the block being saved is not `committed` until its save is (rpc keeps
    // the answers of committed entries only, answerCache.ts)
    assert.deepEqual(
      during.entries.map((e) => e?.committed),
      [false, false],
    );
    assert.deepEqual(
      after.entries.map((e) => e?.committed),
      [true, true],
    );
    for (const e of [...during.entries, ...after.entries]) delete e?.committed;
    assert.deepEqual(during, after);
  } finally {
    await closeNode(n);
    cleanup(n.dir);
  }
});

test("while a block is saved, the rules spend what it paid: an address funded in it pays on, its entry credits buy", async () => {
  const n: TestNode = openNode(tempDir(), { clock: new ManualClock(T0) });
  try {
    await endMinutes(n, 10);
    await n.ledger.flush();
    const h = n.ledger.openBlock().height;
    const funded = assetKey(7);
    await n.ledger.submitTransaction(payment({ milliTime: n.clock.ms, outputs: [{ to: funded, amount: UNIT }] }));
    await buyEC(n, ecKey, 20n);
    await endMinutes(n, 9);
    await n.ledger.flush();
    const closing = n.ledger.endMinute(n.clock.advance(600));
    while (n.ledger.heights().directoryBlockHeight < h) await new Promise((r) => setImmediate(r));
    assert.equal(n.store.blockHashAt(BlockKind.directory, h), undefined, "not in the store yet");
    assert.equal(n.store.assetBalance(rcdHashOf(funded)), undefined, "the store has no balance for it yet");
    // the rules read the address's balance from the block being saved (savedState.ts, without a hex of the key)
    const spend = n.ledger.submitTransaction(
      payment({ from: funded, milliTime: n.clock.ms, outputs: [{ to: assetKey(8), amount: UNIT / 2n }] }),
    );
    // and the entry credits bought in it pay for a commit
    const entry = firstEntry(["saved state", "paid by the block being saved"], "p");
    const commit = n.ledger.submitCommit(chainCommit(entry.raw, n.clock.ms));
    assert.equal(n.store.blockHashAt(BlockKind.directory, h), undefined, "still being saved");
    await spend;
    await commit;
    await closing;
    assert.equal(n.ledger.assetBalance(rcdHashOf(assetKey(8))).ack, UNIT / 2n);
  } finally {
    await closeNode(n);
    cleanup(n.dir);
  }
});
