/**
 * Edges of protocol/dblock.ts that the mutation run of 054f450 left open (docs/testing.md): the exact errors
 * a client reads (too few entries, a wrong chain among the first three, a header hash of the wrong size, a
 * body Merkle root that does not match), both ends of the u8/u32 header fields, and the entry-count limit at
 * exactly MAX_DIRECTORY_BLOCK_ENTRIES (allowed: the decoder then wants the entries' bytes) and one above.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ByteWriter } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import {
  buildDirectoryBlock,
  type DirectoryBlock,
  decodeDirectoryBlock,
  encodeDirectoryBlock,
  encodeDirectoryBlockHeader,
  MAX_DIRECTORY_BLOCK_ENTRIES,
} from "../../../src/protocol/dblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));

function block(overrides: Partial<Omit<DirectoryBlock, "bodyMR">> = {}): DirectoryBlock {
  return buildDirectoryBlock({
    version: 0,
    networkId: 0xfa92e5a4,
    prevKeyMR: h("prev key"),
    prevFullHash: h("prev full"),
    timestamp: 29_000_000,
    dbHeight: 12,
    entries: [
      { chainId: ADMIN_CHAIN_ID, keyMR: h("a") },
      { chainId: EC_CHAIN_ID, keyMR: h("ec") },
      { chainId: ASSET_CHAIN_ID, keyMR: h("f") },
      { chainId: h("chain z"), keyMR: h("z") },
    ],
    ...overrides,
  });
}

/** A header with `count` entries and nothing after it. */
function headerWithCount(count: number): Uint8Array {
  return new ByteWriter()
    .u8(0)
    .u32(1)
    .bytes(new Uint8Array(32))
    .bytes(new Uint8Array(32))
    .bytes(new Uint8Array(32))
    .u32(0)
    .u32(0)
    .u32(count)
    .finish()
    .slice();
}

describe("directory block edges", () => {
  test("too few entries and a wrong chain among the first three: the exact errors", () => {
    const b = block();
    assert.equal(
      errorOf(() => buildDirectoryBlock({ ...b, entries: b.entries.slice(0, 2) })),
      "BAD_VALUE directoryBlock.entries: needs at least the admin, EC and asset entries, got 2",
    );
    const swapped = [b.entries[0]!, b.entries[2]!, b.entries[1]!];
    assert.equal(
      errorOf(() => buildDirectoryBlock({ ...b, entries: swapped })),
      "BAD_VALUE directoryBlock.entries[1].chainId: expected the EC chain ID",
    );
    assert.equal(
      errorOf(() => buildDirectoryBlock({ ...b, entries: [b.entries[3]!, ...b.entries.slice(1)] })),
      "BAD_VALUE directoryBlock.entries[0].chainId: expected the admin chain ID",
    );
    assert.equal(
      errorOf(() => buildDirectoryBlock({ ...b, entries: [b.entries[0]!, b.entries[1]!, b.entries[3]!] })),
      "BAD_VALUE directoryBlock.entries[2].chainId: expected the asset chain ID",
    );
  });

  test("a header hash of the wrong size names it", () => {
    const b = block();
    assert.equal(
      errorOf(() => encodeDirectoryBlockHeader({ ...b, bodyMR: new Uint8Array(31) })),
      "BAD_LENGTH directoryBlock.bodyMR: expected 32 bytes",
    );
    assert.equal(
      errorOf(() => encodeDirectoryBlock({ ...b, prevKeyMR: new Uint8Array(33) })),
      "BAD_LENGTH directoryBlock.prevKeyMR: expected 32 bytes",
    );
  });

  test("version, networkId, timestamp and height encode at their maxima and refuse one more", () => {
    for (const [field, max] of [
      ["version", 0xff],
      ["networkId", 0xffffffff],
      ["timestamp", 0xffffffff],
      ["dbHeight", 0xffffffff],
    ] as const) {
      const raw = encodeDirectoryBlock(block({ [field]: max }));
      assert.equal(decodeDirectoryBlock(raw)[field], max, field);
      assert.equal(
        errorOf(() => encodeDirectoryBlock(block({ [field]: max + 1 }))),
        `BAD_VALUE directoryBlock.${field}: ${max + 1} outside ${field === "version" ? "u8" : "u32"}`,
      );
    }
  });

  test("the entry count: the limit itself is allowed (then the bytes must follow), one more is refused", () => {
    assert.equal(
      errorOf(() => decodeDirectoryBlock(headerWithCount(MAX_DIRECTORY_BLOCK_ENTRIES))),
      `TRUNCATED directoryBlock.entries: ${MAX_DIRECTORY_BLOCK_ENTRIES} entries need ${MAX_DIRECTORY_BLOCK_ENTRIES * 64} bytes, only 0 left`,
    );
    assert.equal(
      errorOf(() => decodeDirectoryBlock(headerWithCount(MAX_DIRECTORY_BLOCK_ENTRIES + 1))),
      `TOO_LARGE directoryBlock.blockCount: ${MAX_DIRECTORY_BLOCK_ENTRIES + 1} entries, at most ${MAX_DIRECTORY_BLOCK_ENTRIES}`,
    );
  });

  test("a stored body Merkle root that does not match the entries", () => {
    const raw = encodeDirectoryBlock(block());
    raw[5]! ^= 0x01; // first byte of bodyMR
    assert.equal(
      errorOf(() => decodeDirectoryBlock(raw)),
      "BAD_VALUE directoryBlock.bodyMR: does not match the Merkle root of the entries",
    );
  });
});
