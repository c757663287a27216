/**
 * Edges of protocol/receipt.ts and protocol/network.ts that their first mutation run (bfc2b53) left open
 * (docs/testing.md): the exact errors of buildReceipt (a value that is not an entry hash, an entry not in
 * the entry block, an entry block not in the directory block — also when its keyMR is there under another
 * chain ID); that verifyReceipt accepts the shortest honest branch (two nodes) and answers false, never
 * throwing, for malformed receipts (no branch, nodes missing a hash, a 31-byte hash whose padded parent
 * would match); networkId's refusals with their texts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { buildDirectoryBlock, type DirectoryBlock } from "../../../src/protocol/dblock.js";
import { buildEntryBlock, type EntryBlock, entryBlockHashes, minuteMarker } from "../../../src/protocol/eblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { merkleParent } from "../../../src/protocol/merkle.js";
import { networkId } from "../../../src/protocol/network.js";
import { buildReceipt, type Receipt, verifyReceipt } from "../../../src/protocol/receipt.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));

const entry = h("entry");
const eblock: EntryBlock = buildEntryBlock({
  chainId: h("chain"),
  prevKeyMR: h("pk"),
  prevFullHash: h("pf"),
  sequence: 1,
  dbHeight: 5,
  items: [h("other entry"), entry, minuteMarker(3)],
});
const keyMR = entryBlockHashes(eblock).keyMR;

function dblockWith(chainId: Uint8Array, eblockKeyMR: Uint8Array): DirectoryBlock {
  return buildDirectoryBlock({
    version: 0,
    networkId: 1,
    prevKeyMR: h("dpk"),
    prevFullHash: h("dpf"),
    timestamp: 1000,
    dbHeight: 5,
    entries: [
      { chainId: ADMIN_CHAIN_ID, keyMR: h("a") },
      { chainId: EC_CHAIN_ID, keyMR: h("ec") },
      { chainId: ASSET_CHAIN_ID, keyMR: h("f") },
      { chainId, keyMR: eblockKeyMR },
    ],
  });
}

describe("receipt edges: building", () => {
  test("an honest receipt verifies", () => {
    assert.equal(verifyReceipt(buildReceipt(entry, eblock, dblockWith(eblock.chainId, keyMR))), true);
  });

  test("not an entry hash, not in the entry block, entry block not in the directory block: the exact errors", () => {
    const dblock = dblockWith(eblock.chainId, keyMR);
    for (const bad of [entry.subarray(0, 31), minuteMarker(3)])
      assert.equal(
        errorOf(() => buildReceipt(bad, eblock, dblock)),
        "BAD_VALUE receipt.entryhash: not an entry hash",
      );
    assert.equal(
      errorOf(() => buildReceipt(h("stranger"), eblock, dblock)),
      "BAD_VALUE receipt.entryhash: entry is not in the entry block",
    );
    for (const other of [dblockWith(eblock.chainId, h("another keyMR")), dblockWith(h("another chain"), keyMR)])
      assert.equal(
        errorOf(() => buildReceipt(entry, eblock, other)),
        "BAD_VALUE receipt.entryblockkeymr: entry block is not in the directory block",
      );
  });
});

describe("receipt edges: verifying", () => {
  // the shortest honest shape: entry → entry block keyMR → directory block keyMR, one node each
  const sibling = h("sibling");
  const k = merkleParent(entry, sibling);
  const d = merkleParent(k, h("d sibling"));
  const two: Receipt = {
    entryHash: entry,
    merkleBranch: [
      { left: entry, right: sibling, top: k },
      { left: k, right: h("d sibling"), top: d },
    ],
    entryBlockKeyMR: k,
    directoryBlockKeyMR: d,
    directoryBlockHeight: 5,
  };

  test("a two-node branch verifies; one node cannot pass the entry block", () => {
    assert.equal(verifyReceipt(two), true);
    assert.equal(verifyReceipt({ ...two, merkleBranch: two.merkleBranch.slice(0, 1), directoryBlockKeyMR: k }), false);
  });

  test("malformed receipts verify false without throwing", () => {
    const node0 = two.merkleBranch[0]!;
    const cases: [string, unknown][] = [
      ["no branch", undefined],
      ["a branch that is not an array", { length: 2 }],
      ["a node without left", [{ right: sibling, top: k }, two.merkleBranch[1]]],
      ["a node without right", [{ left: entry, top: k }, two.merkleBranch[1]]],
      ["a node without top", [{ left: entry, right: sibling }, two.merkleBranch[1]]],
    ];
    for (const [what, merkleBranch] of cases)
      assert.equal(verifyReceipt({ ...two, merkleBranch } as unknown as Receipt), false, what);
    // a 31-byte sibling: sha256 over the zero-padded 64 bytes would match the top it is given
    const short = sibling.subarray(0, 31);
    for (const node of [
      { left: entry, right: short, top: merkleParent(entry, short) },
      { left: short, right: entry, top: merkleParent(short, entry) },
    ]) {
      const next = { left: node.top, right: h("d sibling"), top: merkleParent(node.top, h("d sibling")) };
      const r: Receipt = {
        ...two,
        merkleBranch: [node, next],
        entryBlockKeyMR: node.top,
        directoryBlockKeyMR: next.top,
      };
      assert.equal(verifyReceipt(r), false, "a 31-byte hash in a node");
    }
    assert.equal(verifyReceipt({ ...two, merkleBranch: [node0, two.merkleBranch[1]!] }), true);
  });
});

describe("network IDs", () => {
  test("a CUSTOM network needs a name; an unknown network is named with the list", () => {
    for (const name of ["", undefined])
      assert.equal(
        errorOf(() => networkId("CUSTOM", name)),
        "BAD_VALUE customnet: a CUSTOM network needs a non-empty name",
      );
    assert.equal(
      errorOf(() => networkId("OTHER" as "MAIN")),
      "BAD_VALUE network: unknown network OTHER; expected one of MAIN, TEST, LOCAL, CUSTOM",
    );
  });
});
