// The history checker on the real genesis blocks of each network (docs/export.md §4): it accepts them and
// derives what the node's own genesis save writes; a changed byte, a wrong network id, a height out of order or
// a missing entry block is refused at height 0 with what is wrong.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HistoryChecker } from "../../../src/history/checker.js";
import { HistoryError } from "../../../src/history/errors.js";
import type { HeightSet } from "../../../src/history/format.js";
import { genesisBlockSet } from "../../../src/ledger/blockBuilder.js";
import { encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { encodeDirectoryBlock } from "../../../src/protocol/dblock.js";
import { encodeECBlock } from "../../../src/protocol/ecblock.js";
import { encodeAssetBlock } from "../../../src/protocol/fblock.js";
import { genesisBlocks } from "../../../src/protocol/genesis.js";
import { type NetworkName, networkId } from "../../../src/protocol/network.js";

function genesisSet(network: NetworkName): HeightSet {
  const g = genesisBlocks(network);
  return {
    height: 0,
    directory: encodeDirectoryBlock(g.directory),
    admin: encodeAdminBlock(g.admin),
    ec: encodeECBlock(g.ec),
    asset: encodeAssetBlock(g.asset),
    entryBlocks: [],
  };
}

function refused(f: () => unknown, pattern: RegExp): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof HistoryError, String(e));
    assert.equal(e.type.code, "BAD_BLOCK");
    assert.match(e.message, pattern);
    return true;
  });
}

const hexRecords = (w: {
  blocks: { primary: Uint8Array; raw: Uint8Array }[];
  chainHeads: { chainId: Uint8Array }[];
}) => [w.blocks.map((b) => `${toHex(b.primary)} ${toHex(b.raw)}`), w.chainHeads.map((h) => toHex(h.chainId))];

describe("history checker", () => {
  for (const network of ["MAIN", "TEST", "LOCAL"] as const)
    it(`accepts ${network}'s genesis and derives what the genesis save writes`, () => {
      const checker = new HistoryChecker({ networkId: networkId(network) });
      const checked = checker.check(genesisSet(network));
      const own = genesisBlockSet(genesisBlocks(network), 0).write;
      assert.deepEqual(hexRecords(checked.write), hexRecords(own));
      assert.deepEqual(
        checked.write.transactions.map((t) => [t.keys.map(toHex), t.location.index]),
        own.transactions.map((t) => [t.keys.map(toHex), t.location.index]),
      );
      assert.deepEqual(
        checked.write.assetBalances.map((b) => [toHex(b.address), b.balance]),
        own.assetBalances.map((b) => [toHex(b.address), b.balance]),
      );
      assert.equal(checker.nextHeight, 1);
    });

  it("refuses a changed byte in each system block, naming the block", () => {
    const cases: [keyof HeightSet, RegExp][] = [
      ["directory", /height 0: the directory block/],
      ["admin", /height 0: the (admin block|directory block's entry 0)/],
      ["ec", /height 0: the (EC block|directory block's entry 1)/],
      ["asset", /height 0: the (asset block|directory block's entry 2)/],
    ];
    for (const [field, pattern] of cases) {
      const set = genesisSet("LOCAL");
      const raw = Buffer.from(set[field] as Uint8Array);
      raw[raw.length - 1]! ^= 0x01;
      refused(() => new HistoryChecker({ networkId: networkId("LOCAL") }).check({ ...set, [field]: raw }), pattern);
    }
  });

  it("refuses another network's blocks, a height out of order, and an entry block the directory block does not name", () => {
    refused(() => new HistoryChecker({ networkId: networkId("MAIN") }).check(genesisSet("LOCAL")), /network id 0x/);
    refused(
      () => new HistoryChecker({ networkId: networkId("LOCAL") }).check({ ...genesisSet("LOCAL"), height: 1 }),
      /height 1: heights out of order: 1 where 0 belongs/,
    );
    refused(
      () =>
        new HistoryChecker({ networkId: networkId("LOCAL") }).check({
          ...genesisSet("LOCAL"),
          entryBlocks: [{ raw: new Uint8Array(140), entries: [] }],
        }),
      /names 0 entry blocks, the height carries 1/,
    );
  });
});
