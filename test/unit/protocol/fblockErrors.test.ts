/**
 * Edges of protocol/fblock.ts that the mutation run of 054f450 left open (docs/testing.md): the exact errors
 * a client reads for the period count, a missing coinbase, another chain ID, a header expansion longer than
 * the input, a transaction after the tenth marker, a body holding more or fewer transactions than the header
 * says, too few markers, a wrong body Merkle root; the encoder's exchange rate at 0 and 2^64-1 (and −1, 2^64
 * refused) and height at the u32 maximum; that a decoded header expansion is a copy of the input.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyPairFromSeed } from "../../../src/protocol/address.js";
import { ByteWriter, concat } from "../../../src/protocol/bytes.js";
import { ASSET_CHAIN_ID } from "../../../src/protocol/chains.js";
import {
  type AssetBlock,
  buildAssetBlock,
  decodeAssetBlock,
  emptyCoinbase,
  encodeAssetBlock,
  encodeAssetBlockHeader,
} from "../../../src/protocol/fblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { buildTransaction, type Transaction } from "../../../src/protocol/transaction.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));
const T0 = 1_700_000_000_000;
const coinbase = emptyCoinbase(T0);
const spend: Transaction = buildTransaction({
  milliTimestamp: T0 + 1,
  inputs: [{ seed: h("fblock edges fa"), amount: 1_000n }],
  outputs: [{ address: h("receiver rcd"), amount: 900n }],
  ecOutputs: [{ address: keyPairFromSeed("EC", h("fblock edges ec")).publicKey, amount: 0n }],
});

function periodsWith(placed: [number, Transaction][]): Transaction[][] {
  const periods: Transaction[][] = Array.from({ length: 10 }, () => []);
  for (const [k, tx] of placed) periods[k]!.push(tx);
  return periods;
}

function block(overrides: Partial<Omit<AssetBlock, "bodyMR">> = {}): AssetBlock {
  return buildAssetBlock({
    prevKeyMR: h("prev key"),
    prevLedgerKeyMR: h("prev ledger"),
    exchangeRate: 1000n,
    dbHeight: 9,
    headerExpansion: new Uint8Array(0),
    periods: periodsWith([
      [0, coinbase],
      [3, spend],
    ]),
    ...overrides,
  });
}

/** An asset block written by hand: the header's counts as given, then `body`. */
function rawBlock(args: { txCount: number; body: Uint8Array; bodySize?: number; expansion?: Uint8Array }): Uint8Array {
  const expansion = args.expansion ?? new Uint8Array(0);
  return new ByteWriter()
    .bytes(ASSET_CHAIN_ID)
    .bytes(h("body mr"))
    .bytes(h("prev key"))
    .bytes(h("prev ledger"))
    .u64(1000n)
    .u32(9)
    .varint(expansion.length)
    .bytes(expansion)
    .u32(args.txCount)
    .u32(args.bodySize ?? args.body.length)
    .bytes(args.body)
    .finish()
    .slice();
}

const M = Uint8Array.of(0x00); // period marker
const markers = (n: number): Uint8Array[] => Array.from({ length: n }, () => M);

describe("asset block edges: building and encoding", () => {
  test("ten periods and a coinbase first: the exact errors", () => {
    const periods = periodsWith([[0, coinbase]]);
    assert.equal(
      errorOf(() => block({ periods: periods.slice(0, 9) })),
      "BAD_VALUE assetBlock.periods: expected 10 periods, got 9",
    );
    assert.equal(
      errorOf(() => block({ periods: periodsWith([]) })),
      "BAD_VALUE assetBlock.transactions[0]: the first transaction must be the coinbase (no inputs)",
    );
    assert.equal(
      errorOf(() => block({ periods: periodsWith([[0, spend]]) })),
      "BAD_VALUE assetBlock.transactions[0]: the first transaction must be the coinbase (no inputs)",
    );
  });

  test("exchange rate 0 and 2^64-1 encode, -1 and 2^64 are refused; height at the u32 maximum", () => {
    for (const rate of [0n, (1n << 64n) - 1n])
      assert.equal(decodeAssetBlock(encodeAssetBlock(block({ exchangeRate: rate }))).exchangeRate, rate);
    for (const rate of [-1n, 1n << 64n])
      assert.equal(
        errorOf(() => encodeAssetBlock(block({ exchangeRate: rate }))),
        `BAD_VALUE assetBlock.exchangeRate: ${rate} outside u64`,
      );
    assert.equal(decodeAssetBlock(encodeAssetBlock(block({ dbHeight: 0xffffffff }))).dbHeight, 0xffffffff);
    assert.equal(
      errorOf(() => encodeAssetBlock(block({ dbHeight: 0x1_0000_0000 }))),
      "BAD_VALUE assetBlock.dbHeight: 4294967296 outside u32",
    );
  });

  test("a body Merkle root of the wrong size names it", () => {
    assert.equal(
      errorOf(() => encodeAssetBlockHeader({ ...block(), bodyMR: new Uint8Array(31) })),
      "BAD_LENGTH assetBlock.bodyMR: expected 32 bytes",
    );
  });
});

describe("asset block edges: decoding", () => {
  test("a block with a header expansion round-trips, and the expansion is a copy of the input", () => {
    const b = block({ headerExpansion: Uint8Array.of(7, 8, 9) });
    const raw = encodeAssetBlock(b);
    const decoded = decodeAssetBlock(raw);
    assert.deepEqual(decoded, b);
    raw.fill(0xee);
    assert.deepEqual(decoded.headerExpansion, Uint8Array.of(7, 8, 9));
  });

  test("another chain ID and a header expansion longer than the input", () => {
    const raw = encodeAssetBlock(block());
    raw[31] = 0x0c;
    assert.equal(
      errorOf(() => decodeAssetBlock(raw)),
      "BAD_VALUE assetBlock.chainId: not the asset chain ID …0f",
    );
    const header = rawBlock({ txCount: 0, body: new Uint8Array(0) });
    // expansion size 100 with only the two counts (8 bytes) after it
    const cut = concat(header.subarray(0, 32 * 4 + 12), Uint8Array.of(100), header.subarray(32 * 4 + 13));
    assert.equal(
      errorOf(() => decodeAssetBlock(cut)),
      "TRUNCATED assetBlock.headerExpansion: needs 100 byte(s), only 8 left",
    );
  });

  test("transactions against the header's count and the markers", () => {
    // a transaction after the tenth marker
    assert.equal(
      errorOf(() => decodeAssetBlock(rawBlock({ txCount: 2, body: concat(coinbase.raw, ...markers(10), spend.raw) }))),
      "BAD_VALUE assetBlock.transactions[1]: transaction after the tenth period marker",
    );
    // the body holds more than the header says: refused at the first transaction too many
    assert.equal(
      errorOf(() =>
        decodeAssetBlock(rawBlock({ txCount: 1, body: concat(coinbase.raw, M, spend.raw, ...markers(9)) })),
      ),
      "BAD_VALUE assetBlock.transactionCount: header says 1, the body holds more",
    );
    // … and fewer
    assert.equal(
      errorOf(() =>
        decodeAssetBlock(rawBlock({ txCount: 3, body: concat(coinbase.raw, M, spend.raw, ...markers(9)) })),
      ),
      "BAD_VALUE assetBlock.transactionCount: header says 3, the body holds 2",
    );
    // nine markers
    assert.equal(
      errorOf(() => decodeAssetBlock(rawBlock({ txCount: 1, body: concat(coinbase.raw, ...markers(9)) }))),
      "BAD_VALUE assetBlock.body: expected 10 period markers, found 9",
    );
    // all consistent but the stored root
    assert.equal(
      errorOf(() => decodeAssetBlock(rawBlock({ txCount: 1, body: concat(coinbase.raw, ...markers(10)) }))),
      "BAD_VALUE assetBlock.bodyMR: does not match the Merkle root of the body",
    );
  });
});
