/**
 * Real blocks of the reference's main network through the node's decoders and hashes: the whole block set of
 * height 10, directory blocks 1,000, 10,000 and 199,460, admin block 70,417, EC and entry blocks of height
 * 199,460, asset blocks 100,000 and 199,535, a transaction and entries (test/fixtures/history/SOURCE.md).
 * Every block must decode, re-encode to the very same bytes, and hash to the values its source published or
 * that another real block names (a directory block's body names its admin, EC, asset and entry blocks).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type AdminBlock, adminBlockHashes, decodeAdminBlock, encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { verifyCommitSignature } from "../../../src/protocol/commit.js";
import {
  type DirectoryBlock,
  decodeDirectoryBlock,
  directoryBlockHashes,
  encodeDirectoryBlock,
} from "../../../src/protocol/dblock.js";
import {
  decodeEntryBlock,
  type EntryBlock,
  encodeEntryBlock,
  entriesWithMinutes,
  entryBlockHashes,
} from "../../../src/protocol/eblock.js";
import {
  decodeECBlock,
  type ECBlock,
  ecBlockCommits,
  ecBlockHashes,
  encodeECBlock,
} from "../../../src/protocol/ecblock.js";
import { entryHash, marshalEntry, unmarshalEntry } from "../../../src/protocol/entry.js";
import {
  type AssetBlock,
  assetBlockHashes,
  assetBlockTransactions,
  decodeAssetBlock,
  encodeAssetBlock,
} from "../../../src/protocol/fblock.js";
import { NETWORK_IDS } from "../../../src/protocol/network.js";
import { decodeTransaction, transactionId, verifyTransactionSignatures } from "../../../src/protocol/transaction.js";
import { factomCoreData, factomGoData, type RawItem } from "./realHistoryFixtures.js";

/** Decode `raw`, require the encoder to give back the same bytes, return the decoded block. */
function roundTrip<T>(raw: string, decode: (b: Uint8Array) => T, encode: (t: T) => Uint8Array, what: string): T {
  const block = decode(fromHex(raw));
  assert.equal(toHex(encode(block)), raw, `${what}: re-encoded bytes differ`);
  return block;
}
const dblock = (raw: string, what: string): DirectoryBlock =>
  roundTrip(raw, decodeDirectoryBlock, encodeDirectoryBlock, what);
const ablock = (raw: string, what: string): AdminBlock => roundTrip(raw, decodeAdminBlock, encodeAdminBlock, what);
const fblock = (raw: string, what: string): AssetBlock => roundTrip(raw, decodeAssetBlock, encodeAssetBlock, what);
const ecblock = (raw: string, what: string): ECBlock => roundTrip(raw, decodeECBlock, encodeECBlock, what);
const eblock = (raw: string, what: string): EntryBlock => roundTrip(raw, decodeEntryBlock, encodeEntryBlock, what);
const str = (item: RawItem, field: string): string => item[field] as string;
const num = (item: RawItem, field: string): number => item[field] as number;

/** Every commit and transaction signature of the block checks (real ed25519 signatures of real clients). */
function assertSignatures(block: ECBlock | AssetBlock, what: string): number {
  let n = 0;
  if ("items" in block)
    for (const c of ecBlockCommits(block)) {
      assert.ok(verifyCommitSignature(c), `${what}: a commit's signature`);
      n++;
    }
  else
    for (const tx of assetBlockTransactions(block)) {
      assert.ok(verifyTransactionSignatures(tx), `${what}: transaction ${toHex(transactionId(tx))}`);
      n++;
    }
  return n;
}

describe("real history: the block set of height 10 (factom-core's DirectoryBlockState message)", () => {
  const set = factomCoreData().height10;
  const d = dblock(set.directoryBlock, "directory block 10");
  const a = ablock(set.adminBlock, "admin block 10");
  const f = fblock(set.assetBlock, "asset block 10");
  const ec = ecblock(set.ecBlock, "EC block 10");
  const ebs = set.entryBlocks.map((raw, i) => eblock(raw, `entry block ${i} of height 10`));

  test("every block is of height 10 on the main network", () => {
    assert.equal(d.dbHeight, 10);
    assert.equal(d.networkId, NETWORK_IDS.MAIN);
    assert.equal(a.dbHeight, 10);
    assert.equal(f.dbHeight, 10);
    assert.equal(ec.dbHeight, 10);
    for (const eb of ebs) assert.equal(eb.dbHeight, 10);
  });

  test("the directory block's body names exactly these blocks by their recomputed hashes", () => {
    assert.deepEqual(
      d.entries.map((e) => [toHex(e.chainId), toHex(e.keyMR)]),
      [
        [toHex(ADMIN_CHAIN_ID), toHex(adminBlockHashes(a).lookupHash)],
        [toHex(EC_CHAIN_ID), toHex(ecBlockHashes(ec).headerHash)],
        [toHex(ASSET_CHAIN_ID), toHex(assetBlockHashes(f).keyMR)],
        ...ebs.map((eb) => [toHex(eb.chainId), toHex(entryBlockHashes(eb).keyMR)]),
      ],
    );
  });

  test("the admin block holds the directory block signature of the bootstrap key", () => {
    const sig = a.entries.find((e) => e.type === 0x01) as Extract<AdminBlock["entries"][number], { type: 0x01 }>;
    assert.equal(toHex(sig.publicKey), "0426a802617848d4d16d87830fc521f4d136bb2d0c352850919c2679f189613a");
  });

  test("the EC block's commits and the asset block's transactions carry valid signatures", () => {
    assert.ok(assertSignatures(ec, "EC block 10") > 0);
    assert.ok(assertSignatures(f, "asset block 10") > 0);
  });
});

describe("real history: factom-core's blocks of heights 70,417, 199,460 and 199,535", () => {
  const data = factomCoreData().blocks;
  const d199460 = data.directoryBlock199460!;
  const e199460 = data.entryBlock199460!;
  const ec199460 = data.ecBlock199460!;

  test("directory block 199,460: fields, bodyMR and keyMR as published", () => {
    const d = dblock(d199460.raw, "directory block 199,460");
    assert.equal(d.dbHeight, num(d199460, "height"));
    assert.equal(d.timestamp, num(d199460, "timestampMinutes"));
    assert.equal(d.networkId, NETWORK_IDS.MAIN);
    assert.equal(toHex(d.bodyMR), str(d199460, "bodyMR"));
    assert.equal(toHex(directoryBlockHashes(d).keyMR), str(d199460, "keyMR"));
    assert.equal(d.entries.length, 13);
  });

  test("entry block 199,460: keyMR as published and named by directory block 199,460; its first entry hashes", () => {
    const eb = eblock(e199460.raw, "entry block 199,460");
    const keyMR = toHex(entryBlockHashes(eb).keyMR);
    assert.equal(keyMR, str(e199460, "keyMR"));
    assert.equal(eb.sequence, num(e199460, "sequence"));
    assert.equal(eb.dbHeight, num(e199460, "height"));
    const d = decodeDirectoryBlock(fromHex(d199460.raw));
    assert.equal(toHex(d.entries.find((e) => toHex(e.chainId) === toHex(eb.chainId))!.keyMR), keyMR);
    const entry = data.entry!;
    const raw = fromHex(entry.raw);
    assert.equal(toHex(marshalEntry(unmarshalEntry(raw))), entry.raw);
    assert.equal(toHex(entryHash(raw)), str(entry, "entryHash"));
    assert.equal(toHex(unmarshalEntry(raw).chainId), str(entry, "chainId"));
    assert.equal(toHex(entriesWithMinutes(eb)[0]!.entryHash), str(entry, "entryHash"));
  });

  test("EC block 199,460: header hash as published and named by directory block 199,460; commits signed", () => {
    const ec = ecblock(ec199460.raw, "EC block 199,460");
    assert.equal(ec.dbHeight, num(ec199460, "height"));
    assert.equal(toHex(ec.bodyHash), str(ec199460, "bodyHash"));
    assert.equal(toHex(ecBlockHashes(ec).headerHash), str(ec199460, "headerHash"));
    const d = decodeDirectoryBlock(fromHex(d199460.raw));
    assert.equal(toHex(d.entries[1]!.keyMR), str(ec199460, "headerHash"));
    assert.ok(assertSignatures(ec, "EC block 199,460") > 20);
    // Every entry of entry block 199,460 was paid for by a commit of this EC block.
    const committed = new Set(ecBlockCommits(ec).map((c) => toHex(c.entryHash)));
    for (const e of entriesWithMinutes(decodeEntryBlock(fromHex(e199460.raw))))
      assert.ok(committed.has(toHex(e.entryHash)), `entry ${toHex(e.entryHash)} has a commit`);
  });

  test("admin block 70,417 (73 entries): fields and lookup hash as published", () => {
    const item = data.adminBlock70417!;
    const a = ablock(item.raw, "admin block 70,417");
    assert.equal(a.dbHeight, num(item, "height"));
    assert.equal(a.entries.length, num(item, "messageCount"));
    assert.equal(toHex(a.prevBackRefHash), str(item, "prevBackRefHash"));
    assert.equal(toHex(adminBlockHashes(a).lookupHash), str(item, "lookupHash"));
    // The identity admin types of a real network: 01 signature, 03 matryoshka, 06 audit, 08 key, 09 anchor key.
    assert.deepEqual([...new Set(a.entries.map((e) => e.type))].sort(), [0x01, 0x03, 0x06, 0x08, 0x09]);
  });

  test("asset block 199,535: fields, bodyMR and keyMR as published; its transaction and signatures", () => {
    const item = data.assetBlock199535!;
    const f = fblock(item.raw, "asset block 199,535");
    assert.equal(f.dbHeight, num(item, "height"));
    assert.equal(f.exchangeRate, BigInt(num(item, "exchangeRate")));
    assert.equal(assetBlockTransactions(f).length, num(item, "transactionCount"));
    assert.equal(toHex(f.bodyMR), str(item, "bodyMR"));
    assert.equal(toHex(assetBlockHashes(f).keyMR), str(item, "keyMR"));
    assert.equal(assertSignatures(f, "asset block 199,535"), 4);
    const tx = data.transaction!;
    const decoded = decodeTransaction(fromHex(tx.raw));
    assert.equal(toHex(decoded.raw), tx.raw);
    assert.equal(toHex(transactionId(decoded)), str(tx, "txId"));
    assert.equal(decoded.milliTimestamp, num(tx, "milliTimestamp"));
    assert.ok(verifyTransactionSignatures(decoded));
    assert.ok(
      assetBlockTransactions(f).some((t) => toHex(t.raw) === tx.raw),
      "the transaction is in the block",
    );
  });

  test("the second asset block and the entry of a missing-data response decode and re-encode", () => {
    const f = fblock(data.assetBlockSecond!.raw, "factom-core's second asset block");
    assertSignatures(f, "second asset block");
    const raw = fromHex(data.entryFromMissingDataResponse!.raw);
    assert.equal(toHex(marshalEntry(unmarshalEntry(raw))), data.entryFromMissingDataResponse!.raw);
  });
});

describe("real history: Factom-Asset-Tokens/factom's directory blocks 1,000 and 10,000 and asset block 100,000", () => {
  const data = factomGoData().blocks;
  for (const name of ["directoryBlock1000", "directoryBlock10000"]) {
    test(`${name}: every published field, the keyMR and the full hash`, () => {
      const item = data[name]!;
      const d = dblock(item.raw, name);
      const hashes = directoryBlockHashes(d);
      assert.equal(d.dbHeight, num(item, "height"));
      assert.equal(d.timestamp, num(item, "timestampMinutes"));
      assert.equal(d.networkId, NETWORK_IDS.MAIN);
      assert.equal(toHex(hashes.keyMR), str(item, "keyMR"));
      assert.equal(toHex(hashes.fullHash), str(item, "fullHash"));
      assert.equal(toHex(d.bodyMR), str(item, "bodyMR"));
      assert.equal(toHex(d.prevKeyMR), str(item, "prevKeyMR"));
      assert.equal(toHex(d.prevFullHash), str(item, "prevFullHash"));
      assert.equal(toHex(d.entries[2]!.keyMR), str(item, "assetKeyMR"));
      // The source lists every body entry but the asset block's, in body order.
      const listed = item.entries as { chainId: string; keyMR: string }[];
      assert.deepEqual(
        d.entries.filter((_, i) => i !== 2).map((e) => ({ chainId: toHex(e.chainId), keyMR: toHex(e.keyMR) })),
        listed,
      );
    });
  }

  for (const name of ["assetBlock100000", "assetBlock100000Expansion"]) {
    test(`${name}: keyMR, bodyMR and ledger keyMR as published`, () => {
      const item = data[name]!;
      const f = fblock(item.raw, name);
      const hashes = assetBlockHashes(f);
      assert.equal(f.dbHeight, 100_000);
      assert.equal(toHex(f.bodyMR), str(item, "bodyMR"));
      assert.equal(toHex(hashes.keyMR), str(item, "keyMR"));
      assert.equal(toHex(hashes.ledgerKeyMR), str(item, "ledgerKeyMR"));
      if (name.endsWith("Expansion")) assert.equal(Buffer.from(f.headerExpansion).toString(), "Random expansion bytes");
      assertSignatures(f, name);
    });
  }
});
