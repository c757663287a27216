/**
 * Edges of protocol/ecblock.ts that the mutation run of 054f450 left open (docs/testing.md).
 *
 * A whole block cut short stops at the body size, so the decoder's item fields were never reached: here the
 * body is cut at every length with the header saying so (ObjectCount unchanged, BodySize the cut length), and
 * the field each cut must name follows from the item layout of wire-format §5.4 (ECID, then per type: server
 * number | minute | 200-byte chain commit | 136-byte entry commit | EC key, txid, varint index, varint numEC).
 * Also: the exact errors of the header checks (chain ID, expansion size, object count, bytes left, body hash),
 * the encoder's refusals (commit sizes, u64 ranges at both ends, a body hash of the wrong size, u32 height).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyPairFromSeed } from "../../../src/protocol/address.js";
import { ByteWriter, concat, toHex, U64_MAX } from "../../../src/protocol/bytes.js";
import { EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { buildChainCommit, buildEntryCommit } from "../../../src/protocol/commit.js";
import {
  buildECBlock,
  checkECBlock,
  decodeECBlock,
  type ECBlock,
  type ECBlockItem,
  ecBlockHashesOfSaved,
  encodeECBlock,
  encodeECBlockBody,
  encodeECBlockHeader,
  encodeECBlockWithBody,
} from "../../../src/protocol/ecblock.js";
import { chainIdFromExtIds, marshalEntry } from "../../../src/protocol/entry.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

/** decodeECBlock's refusal of `bytes`, which checkECBlock (a walk without objects) must give word for word. */
function refusal(bytes: Uint8Array): string {
  const e = errorOf(() => decodeECBlock(bytes));
  assert.equal(
    errorOf(() => checkECBlock(bytes)),
    e,
    "checkECBlock refuses as decodeECBlock does",
  );
  return e;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));
const ecSeed = h("ecblock edges ec key");
const extIds = [new TextEncoder().encode("ecblock edges")];
const entryRaw = marshalEntry({ version: 0, chainId: chainIdFromExtIds(extIds), extIds, content: Uint8Array.of(1) });
const chainCommit = buildChainCommit({ entryRaw, milliTime: 1_700_000_000_000, ecSeed });
const entryCommit = buildEntryCommit({ entryRaw, milliTime: 1_700_000_000_001, ecSeed });
const balance = {
  type: "balanceIncrease",
  ecPublicKey: keyPairFromSeed("EC", ecSeed).publicKey,
  txId: h("tx"),
  index: 300n, // a 2-byte varint
  numEC: 5n,
} as const;

/** One item of each type; the chain commit first, so that every later cut leaves ≥ 2 bytes per item. */
const ITEMS: ECBlockItem[] = [
  { type: "chainCommit", commit: chainCommit },
  { type: "serverIndex", number: 3 },
  { type: "minute", number: 4 },
  { type: "entryCommit", commit: entryCommit },
  balance,
];

/** [field after "items[i].", bytes] of each item's layout, ECID first (wire-format §5.4). */
function layout(item: ECBlockItem): [string, number][] {
  switch (item.type) {
    case "serverIndex":
      return [
        ["ecid", 1],
        ["serverindexnumber", 1],
      ];
    case "minute":
      return [
        ["ecid", 1],
        ["number", 1],
      ];
    case "chainCommit":
      return [
        ["ecid", 1],
        ["", 200],
      ];
    case "entryCommit":
      return [
        ["ecid", 1],
        ["", 136],
      ];
    case "balanceIncrease":
      return [
        ["ecid", 1],
        ["ecpubkey", 32],
        ["txid", 32],
        ["index", 2],
        ["numec", 1],
      ];
  }
}

function block(overrides: Partial<Omit<ECBlock, "bodyHash">> = {}): ECBlock {
  return buildECBlock({
    prevHeaderHash: h("prev header"),
    prevFullHash: h("prev full"),
    dbHeight: 8,
    headerExpansion: new Uint8Array(0),
    items: ITEMS,
    ...overrides,
  });
}

/** Header fields written by hand: ObjectCount, BodySize and the expansion as given, then `rest`. */
function rawBlock(args: { count: bigint; bodySize: bigint; expansionSize?: number; rest: Uint8Array }): Uint8Array {
  return new ByteWriter()
    .bytes(EC_CHAIN_ID)
    .bytes(h("body hash"))
    .bytes(h("prev header"))
    .bytes(h("prev full"))
    .u32(8)
    .varint(args.expansionSize ?? 0)
    .u64(args.count)
    .u64(args.bodySize)
    .bytes(args.rest)
    .finish()
    .slice();
}

describe("EC block edges: decoding", () => {
  test("the block round-trips with every item type", () => {
    const b = block();
    assert.deepEqual(decodeECBlock(encodeECBlock(b)), b);
  });

  test("a body cut at every length (header adjusted) names the item field where it ended", () => {
    const b = block();
    const body = encodeECBlockBody(ITEMS);
    // expected field of the byte at each body offset
    const fieldAt: string[] = [];
    ITEMS.forEach((item, i) => {
      for (const [name, size] of layout(item))
        for (let k = 0; k < size; k++) fieldAt.push(`ec block.items[${i}]${name === "" ? "" : `.${name}`}`);
    });
    assert.equal(fieldAt.length, body.length, "the layout covers the body");
    for (let cut = 2 * ITEMS.length; cut < body.length; cut++) {
      const input = encodeECBlockWithBody(b, body.subarray(0, cut), b.items.length);
      const e = expectProtocolError(() => decodeECBlock(input));
      assert.equal(`${e.code} ${e.field}`, `TRUNCATED ${fieldAt[cut]}`, `body cut to ${cut} bytes: ${e.message}`);
      assert.equal(refusal(input), `${e.code} ${e.message}`);
    }
    // shorter than 2 bytes per item: the count is refused before any item is read
    assert.equal(
      errorOf(() => decodeECBlock(encodeECBlockWithBody(b, body.subarray(0, 9), b.items.length))),
      "BAD_VALUE ec block.objectcount: 5 items cannot fit in 9 body bytes",
    );
  });

  test("an object count above bodySize / 2 is refused before reading", () => {
    const body = encodeECBlockBody(Array.from({ length: 5 }, (_, i) => ({ type: "minute", number: i + 1 })));
    assert.equal(
      errorOf(() => decodeECBlock(rawBlock({ count: 6n, bodySize: 10n, rest: body }))),
      "BAD_VALUE ec block.objectcount: 6 items cannot fit in 10 body bytes",
    );
    // exactly 2 bytes per item is allowed (the stored hash is then the only fault)
    assert.equal(
      errorOf(() => decodeECBlock(rawBlock({ count: 5n, bodySize: 10n, rest: body }))),
      `BAD_VALUE ec block.bodyhash: stored ${toHex(h("body hash"))} is not sha256(body) ${toHex(sha256(body))}`,
    );
  });

  test("a commit of another version is refused, by decode and by the walk alike", () => {
    for (const [item, size, what] of [
      [{ type: "entryCommit", commit: entryCommit }, 136, "entry"],
      [{ type: "chainCommit", commit: chainCommit }, 200, "chain"],
    ] as const) {
      const body = encodeECBlockBody([item]);
      body[1] = 1;
      assert.equal(body.length, 1 + size);
      assert.equal(
        refusal(rawBlock({ count: 1n, bodySize: BigInt(body.length), rest: body })),
        `BAD_VERSION ${what} commit.version: expected 0, got 1`,
      );
    }
  });

  test("body bytes left after the counted items", () => {
    const body = encodeECBlockBody([
      { type: "minute", number: 1 },
      { type: "minute", number: 2 },
    ]);
    assert.equal(
      refusal(rawBlock({ count: 1n, bodySize: 4n, rest: body })),
      "BAD_VALUE ec block.bodysize: 2 body byte(s) left after 1 items",
    );
  });

  test("minute items out of 1..10 and unknown item types", () => {
    for (const minute of [0, 11])
      assert.equal(
        refusal(rawBlock({ count: 1n, bodySize: 2n, rest: Uint8Array.of(0x01, minute) })),
        `BAD_VALUE ec block.items[0].number: minute must be 1..10, got ${minute}`,
      );
    assert.equal(
      refusal(rawBlock({ count: 1n, bodySize: 2n, rest: Uint8Array.of(0x05, 0) })),
      "BAD_VALUE ec block.items[0].ecid: unknown item type 0x05",
    );
    assert.equal(
      refusal(rawBlock({ count: 1n, bodySize: 2n, rest: Uint8Array.of(0xab, 0) })),
      "BAD_VALUE ec block.items[0].ecid: unknown item type 0xab",
    );
  });

  test("another chain ID, a header expansion longer than the input, a wrong body hash", () => {
    const raw = encodeECBlock(block());
    const other = raw.slice();
    other[31] = 0x0d;
    assert.equal(
      errorOf(() => decodeECBlock(other)),
      `BAD_VALUE ec block.chainid: expected ${toHex(EC_CHAIN_ID)}, got ${toHex(other.subarray(0, 32))}`,
    );
    assert.equal(
      errorOf(() => decodeECBlock(rawBlock({ count: 0n, bodySize: 0n, expansionSize: 100, rest: new Uint8Array(0) }))),
      "TRUNCATED ec block.headerexpansionarea: size 100 exceeds the 16 bytes left",
    );
    const wrong = block({});
    const tampered = encodeECBlock({ ...wrong, bodyHash: h("not the body") });
    assert.equal(
      errorOf(() => decodeECBlock(tampered)),
      `BAD_VALUE ec block.bodyhash: stored ${toHex(h("not the body"))} is not sha256(body) ${toHex(wrong.bodyHash)}`,
    );
    assert.deepEqual(decodeECBlock(tampered, { verifyBodyHash: false }).bodyHash, h("not the body"));
  });
});

describe("EC block edges: encoding", () => {
  test("a commit of the wrong size is refused, naming the item", () => {
    const shortChain = { ...chainCommit, raw: chainCommit.raw.subarray(0, 199) };
    assert.equal(
      errorOf(() =>
        encodeECBlockBody([
          { type: "serverIndex", number: 0 },
          { type: "chainCommit", commit: shortChain },
        ]),
      ),
      "BAD_LENGTH ec block.items[1]: chain commit must be 200 bytes",
    );
    const longEntry = { ...entryCommit, raw: concat(entryCommit.raw, Uint8Array.of(0)) };
    assert.equal(
      errorOf(() => encodeECBlockBody([{ type: "entryCommit", commit: longEntry }])),
      "BAD_LENGTH ec block.items[0]: entry commit must be 136 bytes",
    );
  });

  test("a balance increase's index and numEC: 0 and 2^64-1 encode, -1 and 2^64 are refused", () => {
    for (const field of ["index", "numEC"] as const) {
      for (const ok of [0n, U64_MAX]) {
        const b = block({ items: [{ ...balance, [field]: ok }] });
        const item = decodeECBlock(encodeECBlock(b)).items[0];
        assert.equal(item?.type === "balanceIncrease" ? item[field] : undefined, ok);
      }
      for (const bad of [-1n, U64_MAX + 1n])
        assert.equal(
          errorOf(() =>
            encodeECBlockBody([
              { type: "minute", number: 1 },
              { ...balance, [field]: bad },
            ]),
          ),
          "BAD_VALUE ec block.items[1]: index and numec must be u64",
          `${field} ${bad}`,
        );
    }
  });

  test("a body hash of the wrong size, and the height at the u32 maximum and one above", () => {
    const b = block();
    assert.equal(
      errorOf(() => encodeECBlockHeader({ ...b, bodyHash: new Uint8Array(33) })),
      "BAD_LENGTH ec block.bodyhash: expected 32 bytes, got 33",
    );
    assert.equal(decodeECBlock(encodeECBlock({ ...b, dbHeight: 0xffffffff })).dbHeight, 0xffffffff);
    assert.equal(
      errorOf(() => encodeECBlock({ ...b, dbHeight: 0x1_0000_0000 })),
      "BAD_VALUE ec block.dbheight: must be a u32, got 4294967296",
    );
  });

  test("hashes of saved bytes: a damaged body named with both hashes; the header hash over the header alone, with an expansion", () => {
    const b = { ...block(), headerExpansion: Uint8Array.of(7, 8, 9) };
    const raw = encodeECBlock(b);
    // header: 4 hashes and the height, the expansion's varint length and bytes, ObjectCount and BodySize
    const headerLength = 32 * 3 + 32 + 4 + 1 + 3 + 16;
    assert.deepEqual(ecBlockHashesOfSaved(raw), {
      headerHash: sha256(raw.subarray(0, headerLength)),
      fullHash: sha256(raw),
    });
    const damaged = raw.slice();
    damaged[raw.length - 1]! ^= 1;
    assert.equal(
      errorOf(() => ecBlockHashesOfSaved(damaged)),
      `BAD_VALUE ec block.bodyhash: stored ${toHex(sha256(raw.subarray(headerLength)))} is not sha256(body) ${toHex(sha256(damaged.subarray(headerLength)))}`,
    );
    // a damaged header is refused with decode's own error, field for field: another chain ID, and every cut of the header
    const chain = raw.slice();
    chain[0]! ^= 1;
    const damagedHeaders = [chain, ...Array.from({ length: headerLength }, (_, cut) => raw.subarray(0, cut))];
    for (const bad of damagedHeaders) {
      const expected = errorOf(() => decodeECBlock(bad));
      assert.match(expected, / ec block\./);
      assert.equal(
        errorOf(() => ecBlockHashesOfSaved(bad)),
        expected,
        `${bad.length} bytes`,
      );
    }
  });
});
