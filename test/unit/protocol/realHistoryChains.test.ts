/**
 * Real entry chains of the reference's main network through the node's decoders and hashes: 85 consecutive
 * entry blocks of two chains (directory heights 163,182–213,518) with their 108 entries, as fatd stored them,
 * and 1,405 entries of the pegnet oracle price record chain (test/fixtures/history/SOURCE.md).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bytesEqual, fromHex, toHex, ZERO_HASH } from "../../../src/protocol/bytes.js";
import {
  decodeEntryBlock,
  encodeEntryBlock,
  entriesWithMinutes,
  entryBlockHashes,
  entryTimestampSeconds,
  markerMinute,
} from "../../../src/protocol/eblock.js";
import { chainIdFromExtIds, entryHash, marshalEntry, unmarshalEntry } from "../../../src/protocol/entry.js";
import { merkleRoot } from "../../../src/protocol/merkle.js";
import { NETWORK_IDS } from "../../../src/protocol/network.js";
import { fatdChains, pegnetEntries } from "./realHistoryFixtures.js";

const SECONDS_PER_MINUTE = 60;
const chains = fatdChains();

describe("real history: fatd's two chains (85 entry blocks, 108 entries)", () => {
  test("the fixtures hold what the issue names: 85 blocks of heights 163,182–213,518, 108 entries", () => {
    const blocks = chains.flatMap((c) => c.entryBlocks);
    assert.equal(blocks.length, 85);
    assert.equal(chains.flatMap((c) => c.entries).length, 108);
    assert.equal(Math.min(...blocks.map((b) => b.dbHeight)), 163_182);
    assert.equal(Math.max(...blocks.map((b) => b.dbHeight)), 213_518);
    for (const c of chains) assert.equal(Number.parseInt(c.networkId, 16), NETWORK_IDS.MAIN);
  });

  for (const chain of chains) {
    describe(`chain ${chain.chainId.slice(0, 8)}…`, () => {
      const decoded = chain.entryBlocks.map((row) => ({ row, block: decodeEntryBlock(fromHex(row.raw)) }));

      test("every entry block decodes and re-encodes to the same bytes, keyMR as published", () => {
        for (const { row, block } of decoded) {
          assert.equal(toHex(encodeEntryBlock(block)), row.raw, `block ${row.seq}`);
          assert.equal(toHex(entryBlockHashes(block).keyMR), row.keyMR, `keyMR of block ${row.seq}`);
          assert.equal(toHex(block.bodyMR), toHex(merkleRoot(block.items)), `bodyMR of block ${row.seq}`);
          assert.equal(toHex(block.chainId), chain.chainId);
          assert.equal(block.dbHeight, row.dbHeight);
          assert.equal(block.sequence, row.seq);
        }
      });

      test("the blocks chain: each names its predecessor's keyMR and full hash; the first names zero", () => {
        assert.equal(decoded[0]!.row.seq, 0);
        assert.ok(bytesEqual(decoded[0]!.block.prevKeyMR, ZERO_HASH));
        assert.ok(bytesEqual(decoded[0]!.block.prevFullHash, ZERO_HASH));
        for (let i = 1; i < decoded.length; i++) {
          const prev = entryBlockHashes(decoded[i - 1]!.block);
          const { block, row } = decoded[i]!;
          assert.equal(row.seq, decoded[i - 1]!.row.seq + 1, "consecutive sequence numbers");
          assert.ok(row.dbHeight > decoded[i - 1]!.row.dbHeight, "heights increase");
          assert.equal(toHex(block.prevKeyMR), toHex(prev.keyMR), `block ${row.seq} → ${row.seq - 1} keyMR`);
          assert.equal(toHex(block.prevFullHash), toHex(prev.fullHash), `block ${row.seq} → ${row.seq - 1} full hash`);
        }
      });

      test("every entry decodes, re-encodes to the same bytes and hashes to its published hash", () => {
        for (const e of chain.entries) {
          const raw = fromHex(e.raw);
          const entry = unmarshalEntry(raw);
          assert.equal(toHex(marshalEntry(entry)), e.raw);
          assert.equal(toHex(entryHash(raw)), e.hash);
          assert.equal(toHex(entry.chainId), chain.chainId);
        }
      });

      test("the chain's first entry names the chain (chain ID from its ext IDs)", () => {
        const first = chain.entries.find((e) => e.ebSeq === 0)!;
        assert.equal(toHex(chainIdFromExtIds(unmarshalEntry(fromHex(first.raw)).extIds)), chain.chainId);
      });

      test("the entries are exactly the blocks' entries, in order, at their minute's timestamp", () => {
        const fromBlocks = decoded.flatMap(({ row, block }) =>
          entriesWithMinutes(block).map((e) => ({
            ebSeq: row.seq,
            hash: toHex(e.entryHash),
            timestamp: entryTimestampSeconds(row.timestamp / SECONDS_PER_MINUTE, e.minute),
          })),
        );
        assert.deepEqual(
          fromBlocks,
          chain.entries.map((e) => ({ ebSeq: e.ebSeq, hash: e.hash, timestamp: e.timestamp })),
        );
        // Every block closes with a minute marker (the reference's encoder never leaves an entry unmarked).
        for (const { block } of decoded) assert.ok(markerMinute(block.items.at(-1)!) > 0);
      });
    });
  }
});

describe("real history: pegnet's oracle price record chain (1,405 entries at 7 heights)", () => {
  const data = pegnetEntries();
  const chainId = chainIdFromExtIds(data.chainNameExtIds.map((s) => new TextEncoder().encode(s)));

  test("the fixture holds 1,405 entries", () => {
    assert.equal(
      data.blocks.reduce((n, b) => n + b.entries.length, 0),
      1405,
    );
  });

  test("each entry marshals with the chain's ID to its published hash, and decodes back to the same fields", () => {
    assert.equal(toHex(chainId), "a642a8674f46696cc47fdb6b65f9c87b2a19c5ea8123b3d2f0c13b6f33a9d5ef");
    for (const { height, entries } of data.blocks)
      for (const e of entries) {
        const fields = {
          version: 0,
          chainId,
          extIds: e.extIds.map((x) => new Uint8Array(Buffer.from(x, "base64"))),
          content: new Uint8Array(Buffer.from(e.content, "base64")),
        };
        const raw = marshalEntry(fields);
        assert.equal(toHex(entryHash(raw)), e.hash, `entry ${e.hash} of height ${height}`);
        const back = unmarshalEntry(raw);
        assert.deepEqual(
          { ...back, extIds: back.extIds.map(toHex), content: toHex(back.content), chainId: toHex(back.chainId) },
          {
            ...fields,
            extIds: fields.extIds.map(toHex),
            content: toHex(fields.content),
            chainId: toHex(fields.chainId),
          },
        );
        assert.equal(toHex(marshalEntry(back)), toHex(raw));
      }
  });
});
