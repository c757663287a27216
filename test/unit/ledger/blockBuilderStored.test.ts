/**
 * What the block builder stores (blockBuilder.ts; docs/testing.md §Mutation testing), read back from a real
 * ledger over LMDB and checked against the wire format (/work/shared/reference/wire-format.md §5, §6): the
 * genesis block set (its transactions' locations, the balances its asset block pays, the heads of the system
 * chains), and of a closed block the directory block's index hashes, the single node's directory block
 * signature in the admin block, the transactions' places in the asset block, a chain's entry blocks linked
 * and numbered across heights, and the log sequence a cluster node's close saves with its block.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { publicKeyFromSeed, signEd25519, verifyEd25519 } from "../../../src/crypto/ed25519.js";
import { type AdminEntry, isDirectoryBlockSignature } from "../../../src/protocol/ablock.js";
import { decodeAddress } from "../../../src/protocol/address.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, DIRECTORY_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { assetBlockHashes, assetBlockTransactions } from "../../../src/protocol/fblock.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../../src/protocol/genesis.js";
import { sha256, sha512half } from "../../../src/protocol/hash.js";
import { type Transaction, transactionFullHash, transactionId } from "../../../src/protocol/transaction.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  entryCommit,
  entryRaw,
  finishBlock,
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

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** Directory block header, bytes (wire-format §5.2): what a directory block signature signs. */
const DIRECTORY_HEADER_SIZE = 113;
/** EC block header with an empty expansion area, bytes (wire-format §5.4). */
const EC_HEADER_SIZE = 149;
/** Entry block header, bytes (wire-format §5.1). */
const ENTRY_BLOCK_HEADER_SIZE = 140;

const hex = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : toHex(b));

/** The four system blocks of `height` as the node serves them, raw and decoded. */
function systemBlocks(n: TestNode, height: number) {
  const l = n.ledger;
  return {
    directory: l.directoryBlockByHeight(height)!,
    admin: l.adminBlockByHeight(height)!,
    ec: l.ecBlockByHeight(height)!,
    asset: l.assetBlockByHeight(height)!,
  };
}

/**
 * The system chains' heads at `height`: each names the block of its chain at that height by the hash the
 * directory block indexes it with, and its secondary hash (wire-format §5.0); the chain-head read answers
 * the first.
 */
function assertSystemChainHeads(n: TestNode, height: number): void {
  const b = systemBlocks(n, height);
  const [admin, ec, asset] = b.directory.block.entries;
  assert.deepEqual(
    [admin, ec, asset].map((e) => hex(e!.chainId)),
    [hex(ADMIN_CHAIN_ID), hex(EC_CHAIN_ID), hex(ASSET_CHAIN_ID)],
    "the directory block starts with the admin, EC and asset chains (wire-format §5.2)",
  );
  // the index hashes of §5.0, computed here from the raw blocks
  assert.equal(hex(admin!.keyMR), hex(sha256(b.admin.raw)), "admin: LookupHash = sha256(whole block)");
  assert.equal(hex(ec!.keyMR), hex(sha256(b.ec.raw.subarray(0, EC_HEADER_SIZE))), "EC: HeaderHash = sha256(header)");
  assert.equal(hex(asset!.keyMR), hex(assetBlockHashes(b.asset.block).keyMR));
  const directoryKeyMR = sha256(
    Buffer.concat([sha256(b.directory.raw.subarray(0, DIRECTORY_HEADER_SIZE)), b.directory.block.bodyMR]),
  );
  const expected = [
    { chainId: DIRECTORY_CHAIN_ID, keyMR: directoryKeyMR, fullHash: sha256(b.directory.raw) },
    { chainId: ADMIN_CHAIN_ID, keyMR: admin!.keyMR, fullHash: sha512half(b.admin.raw) },
    { chainId: EC_CHAIN_ID, keyMR: ec!.keyMR, fullHash: sha256(b.ec.raw) },
    { chainId: ASSET_CHAIN_ID, keyMR: asset!.keyMR, fullHash: assetBlockHashes(b.asset.block).ledgerKeyMR },
  ];
  for (const e of expected) {
    const head = n.store.chainHead(e.chainId);
    assert.deepEqual(
      { keyMR: hex(head?.keyMR), fullHash: hex(head?.fullHash), height: head?.height },
      { keyMR: hex(e.keyMR), fullHash: hex(e.fullHash), height },
      `head of system chain ${hex(e.chainId)} at height ${height}`,
    );
    assert.equal(hex(n.ledger.chainHead(e.chainId).head), hex(e.keyMR), `chain-head of ${hex(e.chainId)}`);
  }
}

/** Each transaction of the asset block at `height` is found by its id and its full hash, at its own place. */
function assertTransactionLocations(n: TestNode, height: number): Transaction[] {
  const asset = n.ledger.assetBlockByHeight(height)!;
  const keyMR = assetBlockHashes(asset.block).keyMR;
  const txs = assetBlockTransactions(asset.block);
  txs.forEach((tx, index) => {
    for (const key of [transactionId(tx), transactionFullHash(tx)]) {
      const loc = n.store.transactionLocation(key);
      assert.deepEqual(
        loc && { ...loc, assetBlockKeyMR: hex(loc.assetBlockKeyMR) },
        { assetBlockKeyMR: hex(keyMR), height, index },
        `transaction ${index} of height ${height}`,
      );
      const read = n.ledger.transaction(key);
      assert.equal(hex(read && transactionId(read.tx)), hex(transactionId(tx)));
      assert.equal(read?.location?.directoryBlockHeight, height);
      assert.equal(hex(read?.location?.blockKeyMR), hex(keyMR));
    }
  });
  return txs;
}

describe("the genesis block set", () => {
  test("LOCAL: the heads of the system chains, every genesis transaction located, the balances it pays", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      assert.equal(n.ledger.directoryBlockByHeight(0)!.block.entries.length, 3, "no entry blocks at genesis");
      assertSystemChainHeads(n, 0);
      const txs = assertTransactionLocations(n, 0);
      // wire-format §6.3: the coinbase, then one transaction spending its output into 25 outputs
      assert.equal(txs.length, 2);
      assert.equal(txs[0]!.inputs.length, 0);
      assert.equal(txs[1]!.outputs.length, 25);
      // §6.3: the coinbase pays 50,000,000,253,000 to FA2nmHSn…, and the second transaction spends that output
      // (genesis is not fee-checked: the 253,000 above its 25 × 20,000 FCT are left to no one): the address is
      // known, with nothing left
      const funder = decodeAddress("FA2nmHSnesq3KQSDGXS2qMT9Jk4U4cJzWGxQ55urbJdcSRMmtXvG", "FA").key;
      assert.deepEqual(
        [hex(txs[0]!.outputs[0]!.address), txs[0]!.outputs[0]!.amount],
        [hex(funder), 50_000_000_253_000n],
      );
      assert.deepEqual(
        txs[1]!.inputs.map((i) => [hex(i.address), i.amount]),
        [[hex(funder), 50_000_000_253_000n]],
      );
      assert.deepEqual(n.ledger.assetBalance(funder), { saved: 0n, ack: 0n, seen: true });
      for (const o of txs[1]!.outputs) assert.equal(n.ledger.assetBalance(o.address).saved, 20_000n * UNIT);
      assert.equal(n.ledger.assetBalance(rcdHashOf(sand)).saved, 20_000n * UNIT);
      // §6.3: no EC is pre-funded
      assert.deepEqual(n.ledger.ecBalance(ecKey.publicKey), { saved: 0n, ack: 0n, seen: false });
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});

describe("a closed block", () => {
  test("the system blocks' index hashes, the single node's signature of the previous directory block, the transactions' places", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      const purchase = await buyEC(n, ecKey, 100n);
      const pay = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(7), amount: 3n * UNIT }] });
      await n.ledger.submitTransaction(pay);
      const a = firstEntry(["block builder edges", "a"], "x");
      await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
      await n.ledger.submitReveal(a.raw);
      await finishBlock(n);
      await n.ledger.flush();

      assertSystemChainHeads(n, h);
      const ec = n.ledger.ecBlockByHeight(h)!.raw;
      assert.ok(ec.length > EC_HEADER_SIZE, "the EC block has a body (a commit, minute markers)");
      assert.notEqual(hex(n.ledger.directoryBlockByHeight(h)!.block.entries[1]!.keyMR), hex(sha256(ec)));

      // wire-format §5.2: the single node signs the 113-byte header of the previous directory block with the
      // LOCAL bootstrap key; the signature is the admin block's one entry (type 01)
      const previous = n.ledger.directoryBlockByHeight(h - 1)!.raw.subarray(0, DIRECTORY_HEADER_SIZE);
      const entries = n.ledger.adminBlockByHeight(h)!.block.entries;
      assert.equal(entries.length, 1);
      const sig = entries[0]!;
      assert.ok(isDirectoryBlockSignature(sig), `a directory block signature (type 01), got type ${sig.type}`);
      assert.equal(hex(sig.identityAdminChainId), LOCAL_BOOTSTRAP_IDENTITY_HEX);
      assert.equal(hex(sig.publicKey), LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX);
      assert.ok(verifyEd25519(fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX), previous, sig.signature));

      // the coinbase first (wire-format §5.5), then the block's transactions in the order they were accepted
      const txs = assertTransactionLocations(n, h);
      assert.deepEqual(
        txs.map((t) => hex(transactionId(t))),
        [hex(transactionId(txs[0]!)), hex(transactionId(purchase)), hex(transactionId(pay))],
      );
      assert.equal(txs[0]!.inputs.length, 0, "transaction 0 is the coinbase");
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a chain's entry blocks in three heights: sequence 0, 1, 2, each linked to the one before (wire-format §5.1)", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      await buyEC(n, ecKey, 100n);
      const a = firstEntry(["block builder edges", "sequence"], "first");
      await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
      await n.ledger.submitReveal(a.raw);
      const heights = [n.ledger.openBlock().height];
      await finishBlock(n);
      for (const text of ["second", "third"]) {
        const next = entryRaw(a.chainId, [text], text);
        await n.ledger.submitCommit(entryCommit(next, n.clock.ms));
        await n.ledger.submitReveal(next);
        heights.push(n.ledger.openBlock().height);
        await finishBlock(n);
      }
      await n.ledger.flush();

      let previous: { keyMR: Uint8Array; raw: Uint8Array } | undefined;
      heights.forEach((height, sequence) => {
        const d = n.ledger.directoryBlockByHeight(height)!.block;
        const entry = d.entries.find((e) => hex(e.chainId) === hex(a.chainId))!;
        const eb = n.ledger.entryBlockByHash(entry.keyMR)!;
        assert.equal(eb.block.sequence, sequence, `EBSequence at height ${height}`);
        assert.equal(eb.block.dbHeight, height);
        assert.equal(hex(eb.block.prevKeyMR), hex(previous?.keyMR ?? new Uint8Array(32)));
        assert.equal(
          hex(eb.block.prevFullHash),
          hex(previous === undefined ? new Uint8Array(32) : sha256(previous.raw)),
        );
        // §5.0: KeyMR = sha256(sha256(header) ‖ BodyMR)
        const keyMR = sha256(Buffer.concat([sha256(eb.raw.subarray(0, ENTRY_BLOCK_HEADER_SIZE)), eb.block.bodyMR]));
        assert.equal(hex(entry.keyMR), hex(keyMR));
        previous = { keyMR, raw: eb.raw };
      });
      const head = n.store.chainHead(a.chainId);
      assert.deepEqual(
        head && { keyMR: hex(head.keyMR), fullHash: hex(head.fullHash), sequence: head.sequence, height: head.height },
        { keyMR: hex(previous!.keyMR), fullHash: hex(sha256(previous!.raw)), sequence: 2, height: heights[2] },
      );
      assert.equal(hex(n.ledger.chainHead(a.chainId).head), hex(previous!.keyMR));
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a cluster node's close: the admin entries the log decided, and the log sequence saved with the block", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      assert.equal(n.ledger.savedLogSequence(), 0, "a single node's blocks carry no log sequence");
      // two federated servers' signatures of the previous directory block (wire-format §5.2)
      const header = n.ledger.directoryBlockByHeight(h - 1)!.raw.subarray(0, DIRECTORY_HEADER_SIZE);
      const adminEntries: AdminEntry[] = [1, 2].map((i) => {
        const seed = new Uint8Array(32).fill(0x40 + i);
        return {
          type: 0x01,
          identityAdminChainId: sha256(Uint8Array.of(i)),
          publicKey: publicKeyFromSeed(seed),
          signature: signEd25519(seed, header),
        };
      });
      for (let minute = 0; minute < 10; minute++)
        n.ledger.applyFromLog(
          { kind: "endOfMinute", timeMs: n.clock.advance(600), minute },
          minute === 9 ? { adminEntries, logSequence: 4242 } : undefined,
        );
      await n.ledger.flush();
      assert.equal(n.store.savedHeight(), h);
      assert.equal(n.ledger.savedLogSequence(), 4242);
      assert.deepEqual(
        n.ledger.adminEntries(h).map((e) => JSON.stringify(e, (_k, v) => (v instanceof Uint8Array ? toHex(v) : v))),
        adminEntries.map((e) => JSON.stringify(e, (_k, v) => (v instanceof Uint8Array ? toHex(v) : v))),
      );
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});
