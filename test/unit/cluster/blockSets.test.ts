/**
 * Block sets (src/cluster/blockSets.ts): parts round-trip (a set larger than one part included), and the
 * checks a node makes before applying one — the signer is a federated server with its key, the sequences
 * follow on, and a majority of the height's federated servers signed this node's previous block. Real
 * signatures, the real LOCAL genesis directory block.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type BlockSet,
  checkBlockSet,
  decodeBlockSet,
  encodeBlockSet,
  SET_PART_BYTES,
} from "../../../src/cluster/blockSets.js";
import { signDirectoryBlock } from "../../../src/cluster/dbSig.js";
import { encodeRecord } from "../../../src/cluster/records.js";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { genesisBlocks } from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";

const NET = networkId("LOCAL");
const seed = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const id = (n: number): Uint8Array => new Uint8Array(32).fill(0x40 + n);
const feds = [1, 2, 3].map((n) => ({ identity: id(n), publicKey: publicKeyFromSeed(seed(n)) }));
const previous = genesisBlocks("LOCAL").directory;
const dbSig = (n: number, over = previous) =>
  encodeRecord({
    kind: "dbSig",
    height: 1,
    identity: id(n),
    publicKey: publicKeyFromSeed(seed(n)),
    signature: signDirectoryBlock(seed(n), over),
  });

function set(records: Uint8Array[], signer = 1, firstSeq = 5): BlockSet {
  const parts = encodeBlockSet(
    NET,
    1,
    records.map((data, i) => ({ seq: firstSeq + i, data })),
    id(signer),
    seed(signer),
  );
  return decodeBlockSet(parts);
}

const expect = { networkId: NET, height: 1, nextSeq: 5, federated: feds, previous };

describe("block sets", () => {
  it("round-trip through parts, also when larger than one part", () => {
    const big = new Uint8Array(SET_PART_BYTES + 1000).fill(7);
    const parts = encodeBlockSet(
      NET,
      9,
      [
        { seq: 3, data: big },
        { seq: 4, data: dbSig(1) },
      ],
      id(1),
      seed(1),
    );
    assert.equal(parts.length, 2);
    const back = decodeBlockSet(parts);
    assert.equal(back.height, 9);
    assert.deepEqual(
      back.records.map((r) => [r.seq, toHex(r.data)]),
      [
        [3, toHex(big)],
        [4, toHex(dbSig(1))],
      ],
    );
    assert.throws(() => decodeBlockSet([parts[1]!, parts[0]!]), /out of place/);
    assert.throws(() => decodeBlockSet([parts[0]!]), /out of place/);
  });

  it("a set is applied only with a federated signer, following sequences and a signature majority over this node's block", () => {
    assert.equal(checkBlockSet(set([dbSig(1), dbSig(2)]), expect), undefined);
    assert.match(checkBlockSet(set([dbSig(1)]), expect)!, /1 federated servers signed .* 2 needed/);
    const other = { ...previous, timestamp: previous.timestamp + 1 };
    assert.match(
      checkBlockSet(set([dbSig(1), dbSig(2, other)]), expect)!,
      /2 needed/,
      "a signature over another block",
    );
    assert.match(checkBlockSet(set([dbSig(1), dbSig(2)], 9), expect)!, /not a federated server/);
    assert.match(checkBlockSet(set([dbSig(1), dbSig(2)], 1, 6), expect)!, /starts at sequence 6, not 5/);
    assert.match(checkBlockSet(set([dbSig(1), dbSig(2)]), { ...expect, height: 2 })!, /of height 1, not 2/);
    const tampered = set([dbSig(1), dbSig(2), encodeRecord({ kind: "writes", messages: [] })]);
    tampered.records[2] = { seq: 7, data: encodeRecord({ kind: "writes", messages: [new Uint8Array(3)] }) };
    assert.match(checkBlockSet(tampered, expect)!, /signature does not verify/);
    const gap = set([dbSig(1), dbSig(2)]);
    gap.records[1] = { ...gap.records[1]!, seq: 9 };
    assert.match(checkBlockSet(gap, expect)!, /jump at 9/);
  });
});
