/**
 * Edges of protocol/json/receiptJson.ts that its first mutation run (bfc2b53) left open (docs/testing.md):
 * the anchor part of a receipt's JSON (`ethereum`), which no protocol test read, round-trips and every one
 * of its fields refuses a bad value naming itself; receiptFromJson names every malformed field of the rest;
 * a timestamp of 0 is left out as the reference does, and an absent height reads as 0.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toHex } from "../../../src/protocol/bytes.js";
import { sha256 } from "../../../src/protocol/hash.js";
import {
  type ReceiptAnchor,
  receiptAnchorFromJson,
  receiptFromJson,
  receiptToJson,
} from "../../../src/protocol/json/receiptJson.js";
import { merkleParent } from "../../../src/protocol/merkle.js";
import type { Receipt } from "../../../src/protocol/receipt.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));
const node = (l: string, r: string) => ({ left: h(l), right: h(r), top: merkleParent(h(l), h(r)) });

const receipt: Receipt = {
  entryHash: h("entry"),
  merkleBranch: [node("entry", "sibling"), node("k", "s2")],
  entryBlockKeyMR: h("k"),
  directoryBlockKeyMR: h("d"),
  directoryBlockHeight: 42,
  entryTimestamp: 1_700_000_040,
};
const anchor: ReceiptAnchor = {
  entryHash: h("anchor entry"),
  windowBranch: [node("d", "w")],
  record: {
    dbHeightMin: 40,
    dbHeightMax: 47,
    windowMR: h("window"),
    recordHeight: 48,
    ethereum: {
      contractAddress: `0x${"ab".repeat(20)}`,
      txId: `0x${"cd".repeat(32)}`,
      blockHeight: 19_000_000,
      blockHash: `0x${"ef".repeat(32)}`,
      txIndex: 3,
    },
  },
};

/** The JSON of `receipt` with `anchor`, as a plain object to edit. */
const json = (): Record<string, unknown> =>
  JSON.parse(JSON.stringify(receiptToJson(receipt, { anchor }))) as Record<string, unknown>;

/** `json()` with ethereum.`key` set to `value`. */
function withEthereum(key: string, value: unknown): Record<string, unknown> {
  const j = json();
  (j.ethereum as Record<string, unknown>)[key] = value;
  return j;
}

describe("receipt JSON edges: the anchor part", () => {
  test("round trip; anchor fields of the receipt; none without an anchor", () => {
    const j = json();
    assert.deepEqual(receiptAnchorFromJson(j), anchor);
    assert.equal(j.anchortransactionhash, anchor.record.ethereum.txId);
    assert.equal(j.anchorblockhash, anchor.record.ethereum.blockHash);
    const plain = receiptToJson(receipt);
    assert.equal(plain.ethereum, undefined);
    assert.equal(plain.anchortransactionhash, "");
    assert.equal(plain.anchorblockhash, "");
    assert.equal(receiptAnchorFromJson(plain), undefined);
    assert.equal(receiptAnchorFromJson("not an object"), undefined);
    // 0 is a count like any other (the first transaction of an Ethereum block has index 0)
    assert.equal(receiptAnchorFromJson(withEthereum("txindex", 0))?.record.ethereum.txIndex, 0);
    // upper-case Ethereum hex is accepted and read as lower case
    const upper = withEthereum("txid", anchor.record.ethereum.txId.toUpperCase().replace("0X", "0x"));
    assert.equal(receiptAnchorFromJson(upper)?.record.ethereum.txId, anchor.record.ethereum.txId);
  });

  test("every anchor field refuses a bad value, naming itself", () => {
    for (const key of ["dbheightmin", "dbheightmax", "recordheight", "blockheight", "txindex"])
      for (const bad of [-1, 1.5, "3", undefined])
        assert.equal(
          errorOf(() => receiptAnchorFromJson(withEthereum(key, bad))),
          `BAD_VALUE receipt.ethereum.${key}: expected a non-negative integer`,
          `${key} = ${String(bad)}`,
        );
    for (const [key, chars] of [
      ["contractaddress", 40],
      ["txid", 64],
      ["blockhash", 64],
    ] as const)
      for (const bad of [`0x${"a".repeat(chars - 1)}`, "a".repeat(chars + 2), `0x${"g".repeat(chars)}`, 5])
        assert.equal(
          errorOf(() => receiptAnchorFromJson(withEthereum(key, bad))),
          `BAD_VALUE receipt.ethereum.${key}: expected 0x and ${chars} hex characters`,
          `${key} = ${String(bad)}`,
        );
    for (const key of ["windowmr", "anchorrecordentryhash"])
      assert.equal(
        errorOf(() => receiptAnchorFromJson(withEthereum(key, 7))),
        `BAD_VALUE receipt.ethereum.${key}: expected a 64-character hex string`,
      );
    assert.equal(
      errorOf(() => receiptAnchorFromJson({ ...json(), ethereum: [] })),
      "BAD_VALUE receipt.ethereum: expected an object",
    );
    assert.equal(
      errorOf(() => receiptAnchorFromJson(withEthereum("merklebranch", {}))),
      "BAD_VALUE receipt.ethereum.merklebranch: expected an array",
    );
    assert.equal(
      errorOf(() => receiptAnchorFromJson(withEthereum("merklebranch", [null]))),
      "BAD_VALUE receipt.ethereum.merklebranch[0]: expected an object",
    );
    for (const side of ["left", "right", "top"])
      assert.equal(
        errorOf(() =>
          receiptAnchorFromJson(
            withEthereum("merklebranch", [
              { left: toHex(h("l")), right: toHex(h("r")), top: toHex(h("t")), [side]: 1 },
            ]),
          ),
        ),
        `BAD_VALUE receipt.ethereum.merklebranch[0].${side}: expected a 64-character hex string`,
      );
  });
});

describe("receipt JSON edges: the receipt", () => {
  test("a timestamp of 0 is left out; an absent height reads as 0", () => {
    assert.equal(receiptToJson({ ...receipt, entryTimestamp: 0 }).entry.timestamp, undefined);
    assert.equal(receiptToJson(receipt).entry.timestamp, 1_700_000_040);
    const j = json();
    delete j.directoryblockheight;
    assert.equal(receiptFromJson(j).directoryBlockHeight, 0);
    assert.deepEqual(receiptFromJson(json()), receipt);
  });

  test("every malformed field is named", () => {
    const cases: [string, (j: Record<string, unknown>) => unknown, string][] = [
      ["receipt", () => [], "expected an object"],
      ["receipt.entry", (j) => ({ ...j, entry: "x" }), "expected an object"],
      ["receipt.merklebranch", (j) => ({ ...j, merklebranch: {} }), "expected an array"],
      [
        "receipt.merklebranch[1]",
        (j) => ({ ...j, merklebranch: [(j.merklebranch as unknown[])[0], 3] }),
        "expected an object",
      ],
      [
        "receipt.merklebranch[0].left",
        (j) => ({ ...j, merklebranch: [{ right: "", top: "" }] }),
        "expected a 64-character hex string",
      ],
      [
        "receipt.merklebranch[0].right",
        (j) => ({ ...j, merklebranch: [{ left: toHex(h("l")), top: "" }] }),
        "expected a 64-character hex string",
      ],
      [
        "receipt.merklebranch[0].top",
        (j) => ({ ...j, merklebranch: [{ left: toHex(h("l")), right: toHex(h("r")) }] }),
        "expected a 64-character hex string",
      ],
      ["receipt.directoryblockheight", (j) => ({ ...j, directoryblockheight: -1 }), "expected a non-negative integer"],
      ["receipt.directoryblockheight", (j) => ({ ...j, directoryblockheight: 1.5 }), "expected a non-negative integer"],
      [
        "receipt.directoryblockheight",
        (j) => ({ ...j, directoryblockheight: "42" }),
        "expected a non-negative integer",
      ],
      ["receipt.entry.entryhash", (j) => ({ ...j, entry: {} }), "expected a 64-character hex string"],
      ["receipt.entryblockkeymr", (j) => ({ ...j, entryblockkeymr: null }), "expected a 64-character hex string"],
      ["receipt.directoryblockkeymr", (j) => ({ ...j, directoryblockkeymr: 1 }), "expected a 64-character hex string"],
      [
        "receipt.entry.timestamp",
        (j) => ({ ...j, entry: { ...(j.entry as object), timestamp: "1" } }),
        "expected an integer (seconds)",
      ],
      [
        "receipt.entry.timestamp",
        (j) => ({ ...j, entry: { ...(j.entry as object), timestamp: 1.5 } }),
        "expected an integer (seconds)",
      ],
    ];
    for (const [field, edit, detail] of cases)
      assert.equal(
        errorOf(() => receiptFromJson(edit(json()))),
        `BAD_VALUE ${field}: ${detail}`,
        field,
      );
  });
});
