import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { concat, encodeVarint, toHex, U48_MAX } from "../../../src/protocol/bytes.js";
import { EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { buildChainCommit, buildEntryCommit } from "../../../src/protocol/commit.js";
import {
  buildECBlock,
  checkECBlock,
  decodeECBlock,
  type ECBlock,
  type ECBlockItem,
  ecBlockCommits,
  ecBlockHashes,
  ecBlockHashesOfSaved,
  encodeECBlock,
  encodeECBlockBody,
  encodeECBlockHeader,
  forEachECBlockCommit,
} from "../../../src/protocol/ecblock.js";
import { chainIdFromExtIds, marshalEntry } from "../../../src/protocol/entry.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { commitToJson, ecBlockToJson } from "../../../src/protocol/json/ecBlockJson.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";

/** A pool of real signed commits to draw items from (signing is the slow part). */
function commitPool(rng: Random): { entry: ECBlockItem[]; chain: ECBlockItem[] } {
  const entry: ECBlockItem[] = [];
  const chain: ECBlockItem[] = [];
  for (let i = 0; i < 20; i++) {
    const extIds = [rng.bytes(rng.int(1, 20))];
    const raw = marshalEntry({
      version: 0,
      chainId: chainIdFromExtIds(extIds),
      extIds,
      content: rng.bytes(rng.int(0, 3000)),
    });
    const ecSeed = rng.bytes(32);
    const milliTime = rng.int(0, U48_MAX);
    entry.push({ type: "entryCommit", commit: buildEntryCommit({ entryRaw: raw, milliTime, ecSeed }) });
    chain.push({ type: "chainCommit", commit: buildChainCommit({ entryRaw: raw, milliTime, ecSeed }) });
  }
  return { entry, chain };
}

function randomItem(rng: Random, pool: { entry: ECBlockItem[]; chain: ECBlockItem[] }): ECBlockItem {
  switch (rng.int(0, 5)) {
    case 0:
      return { type: "serverIndex", number: rng.int(0, 255) };
    case 1:
    case 2:
      return rng.pick(pool.entry);
    case 3:
      return rng.pick(pool.chain);
    case 4: {
      const wide = (): bigint => (rng.chance(0.5) ? BigInt(rng.int(0, 1000)) : rng.u64());
      return { type: "balanceIncrease", ecPublicKey: rng.bytes(32), txId: rng.bytes(32), index: wide(), numEC: wide() };
    }
    default:
      return { type: "minute", number: rng.int(1, 10) };
  }
}

function randomBlock(rng: Random, pool: ReturnType<typeof commitPool>): ECBlock {
  return buildECBlock({
    prevHeaderHash: rng.bytes(32),
    prevFullHash: rng.bytes(32),
    dbHeight: rng.u32(),
    headerExpansion: rng.chance(0.8) ? new Uint8Array(0) : rng.bytes(rng.int(1, 300)),
    items: Array.from({ length: rng.int(0, 30) }, () => randomItem(rng, pool)),
  });
}

describe("entry-credit blocks (wire-format §5.4)", () => {
  const rng = new Random(0xec);
  const pool = commitPool(rng);

  test("an empty block (LOCAL genesis shape) is the 149-byte header alone", () => {
    const block = buildECBlock({
      prevHeaderHash: new Uint8Array(32),
      prevFullHash: new Uint8Array(32),
      dbHeight: 0,
      headerExpansion: new Uint8Array(0),
      items: [],
    });
    const raw = encodeECBlock(block);
    assert.equal(raw.length, 149);
    assert.deepEqual(raw.subarray(0, 32), EC_CHAIN_ID);
    assert.deepEqual(block.bodyHash, sha256(new Uint8Array(0)));
    assert.deepEqual(decodeECBlock(raw), block);
    assert.deepEqual(ecBlockHashes(block).headerHash, sha256(raw));
    assert.deepEqual(ecBlockHashes(block).fullHash, sha256(raw));
  });

  test("random blocks: encode → decode → same block; hashes, counts and sizes follow the layout", () => {
    for (let i = 0; i < 200; i++) {
      const block = randomBlock(rng, pool);
      const raw = encodeECBlock(block);
      const body = encodeECBlockBody(block.items);
      const header = encodeECBlockHeader(block);
      assert.equal(
        header.length,
        32 * 4 + 4 + encodeVarint(block.headerExpansion.length).length + block.headerExpansion.length + 16,
      );
      assert.deepEqual(raw, Uint8Array.from([...header, ...body]));
      const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
      assert.equal(view.getBigUint64(header.length - 16), BigInt(block.items.length), "ObjectCount");
      assert.equal(view.getBigUint64(header.length - 8), BigInt(body.length), "BodySize");
      assert.deepEqual(block.bodyHash, sha256(body));
      assert.deepEqual(decodeECBlock(raw), block, `seed ${rng.seed} case ${i}`);
      const h = ecBlockHashes(block);
      assert.deepEqual(h.headerHash, sha256(header));
      assert.deepEqual(h.fullHash, sha256(raw));
      assert.deepEqual(ecBlockHashesOfSaved(raw), h, "the hashes from the bytes (a start's tip) are the same");
      assert.equal(ecBlockCommits(block).length, block.items.filter((it) => it.type.endsWith("Commit")).length);
    }
  });

  test("JSON: header fields, untagged body items, commits with a 12-hex-digit millitime", () => {
    for (let i = 0; i < 50; i++) {
      const block = randomBlock(rng, pool);
      const json = ecBlockToJson(block);
      const h = ecBlockHashes(block);
      assert.deepEqual(Object.keys(json.header), [
        "bodyhash",
        "prevheaderhash",
        "prevfullhash",
        "dbheight",
        "headerexpansionarea",
        "objectcount",
        "bodysize",
        "chainid",
        "ecchainid",
      ]);
      assert.equal(json.header.chainid, toHex(EC_CHAIN_ID));
      assert.equal(json.header.ecchainid, toHex(EC_CHAIN_ID));
      assert.equal(json.header.headerexpansionarea, toHex(block.headerExpansion));
      assert.equal(json.header.bodysize, encodeECBlockBody(block.items).length);
      assert.equal(json.headerhash, toHex(h.headerHash));
      assert.equal(json.fullhash, toHex(h.fullHash));
      block.items.forEach((item, k) => {
        const out = json.body.entries[k] as Record<string, unknown>;
        switch (item.type) {
          case "serverIndex":
            assert.deepEqual(out, { serverindexnumber: item.number });
            break;
          case "minute":
            assert.deepEqual(out, { number: item.number });
            break;
          case "entryCommit":
          case "chainCommit":
            assert.deepEqual(out, commitToJson(item.commit));
            assert.match(out.millitime as string, /^[0-9a-f]{12}$/);
            assert.equal(Number.parseInt(out.millitime as string, 16), item.commit.milliTime);
            break;
          case "balanceIncrease":
            assert.deepEqual(Object.keys(out), ["ecpubkey", "txid", "index", "numec"]);
            assert.equal(out.numec, Number(item.numEC));
            break;
        }
      });
    }
  });

  test("bad blocks are refused naming the field", () => {
    const block = buildECBlock({
      prevHeaderHash: rng.bytes(32),
      prevFullHash: rng.bytes(32),
      dbHeight: 9,
      headerExpansion: new Uint8Array(0),
      items: [{ type: "serverIndex", number: 0 }, pool.entry[0]!, pool.chain[0]!, { type: "minute", number: 1 }],
    });
    const raw = encodeECBlock(block);
    const bodyStart = 149;
    const wrongChain = raw.slice();
    wrongChain[31] = 0x0a;
    assert.equal(expectProtocolError(() => decodeECBlock(wrongChain), "BAD_VALUE").field, "ec block.chainid");
    const unknown = raw.slice();
    unknown[bodyStart] = 0x05;
    assert.equal(
      expectProtocolError(() => decodeECBlock(unknown, { verifyBodyHash: false }), "BAD_VALUE").field,
      "ec block.items[0].ecid",
    );
    const lastMinute = raw.length - 1;
    for (const m of [0, 11]) {
      const bad = raw.slice();
      bad[lastMinute] = m;
      expectProtocolError(() => decodeECBlock(bad, { verifyBodyHash: false }), "BAD_VALUE", `minute ${m}`);
    }
    const lying = raw.slice();
    lying[40]! ^= 1; // BodyHash
    assert.equal(expectProtocolError(() => decodeECBlock(lying), "BAD_VALUE").field, "ec block.bodyhash");
    assert.ok(decodeECBlock(lying, { verifyBodyHash: false }));
    const count = (n: bigint): Uint8Array => {
      const out = raw.slice();
      new DataView(out.buffer).setBigUint64(bodyStart - 16, n);
      return out;
    };
    expectProtocolError(() => decodeECBlock(count(3n)), "BAD_VALUE", "fewer items than the body holds");
    expectProtocolError(() => decodeECBlock(count(5n)), undefined, "more items than the body holds");
    expectProtocolError(() => decodeECBlock(count(2n ** 64n - 1n)), "BAD_VALUE", "absurd object count");
    expectProtocolError(() => decodeECBlock(Uint8Array.from([...raw, 1, 1])), "TRAILING_BYTES");
    for (const n of [0, 31, 100, 148, bodyStart + 5, raw.length - 1])
      expectProtocolError(() => decodeECBlock(raw.subarray(0, n)), "TRUNCATED", `${n} bytes`);
    // Non-minimal varint for the expansion size.
    const nonMinimal = Uint8Array.from([...raw.subarray(0, 132), 0x80, ...raw.subarray(132)]);
    expectProtocolError(() => decodeECBlock(nonMinimal), "BAD_VARINT");
    // An expansion size larger than the block.
    const bigExpansion = Uint8Array.from([...raw.subarray(0, 132), 0x8f, 0x7f, ...raw.subarray(133)]);
    expectProtocolError(() => decodeECBlock(bigExpansion), "TRUNCATED");
    expectProtocolError(() => encodeECBlock({ ...block, items: [{ type: "minute", number: 0 }] }), "BAD_VALUE");
    expectProtocolError(() => encodeECBlock({ ...block, items: [{ type: "serverIndex", number: 256 }] }), "BAD_VALUE");
    expectProtocolError(() => encodeECBlock({ ...block, dbHeight: 2 ** 32 }), "BAD_VALUE");
  });

  test("commits inside a block are parsed structurally (credits outside today's range are kept)", () => {
    const c = pool.entry[0]!;
    assert.ok(c.type === "entryCommit");
    const raw = c.commit.raw.slice();
    raw[39] = 42;
    const block = buildECBlock({
      prevHeaderHash: new Uint8Array(32),
      prevFullHash: new Uint8Array(32),
      dbHeight: 1,
      headerExpansion: new Uint8Array(0),
      items: [{ type: "entryCommit", commit: { ...c.commit, credits: 42, raw } }],
    });
    const back = decodeECBlock(encodeECBlock(block));
    assert.equal(ecBlockCommits(back)[0]!.credits, 42);
  });

  test("fuzz: decode throws only ProtocolError; accepted blocks re-encode to the same bytes", () => {
    const seeds = Array.from({ length: 8 }, () => encodeECBlock(randomBlock(rng, pool)));
    const onAccept = (b: ECBlock, bytes: Uint8Array) => assert.deepEqual(encodeECBlock(b), bytes);
    fuzzDecoder(rng, (b) => decodeECBlock(b), { seeds, maxRandomLength: 400, onAccept });
    const loose = fuzzDecoder(rng, (b) => decodeECBlock(b, { verifyBodyHash: false }), {
      seeds,
      maxRandomLength: 400,
      onAccept,
    });
    assert.ok(loose > 0, `accepted ${loose}`);
  });

  test("forEachECBlockCommit: decode's commits at their offsets, none for a block decode refuses, the same error", () => {
    /** What decode (body hash not checked) says of `bytes`: its commits' bytes, or its error. */
    const decoded = (bytes: Uint8Array): string[] | string => {
      try {
        return ecBlockCommits(decodeECBlock(bytes, { verifyBodyHash: false })).map((c) => toHex(c.raw));
      } catch (e) {
        return `${(e as Error).name} ${(e as Error).message}`;
      }
    };
    const walked = (bytes: Uint8Array): string[] | string => {
      const seen: string[] = [];
      try {
        forEachECBlockCommit(bytes, (chain, body, at) => {
          seen.push(toHex(body.subarray(at, at + (chain ? 200 : 136))));
        });
        checkECBlock(bytes);
        return seen;
      } catch (e) {
        assert.deepEqual(seen, [], "no call before a refusal");
        return `${(e as Error).name} ${(e as Error).message}`;
      }
    };
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const raw = encodeECBlock(randomBlock(rng, pool));
      assert.deepEqual(walked(raw), decoded(raw), `block ${i}`);
      // damaged: a byte flipped anywhere (a version, an ECID, a minute, a count), cut short, or a byte more
      for (let k = 0; k < 20; k++) {
        const bad = raw.slice();
        bad[rng.int(0, raw.length - 1)]! ^= 1 << rng.int(0, 7);
        const expected = decoded(bad);
        if (typeof expected === "string") refused++;
        assert.deepEqual(walked(bad), expected, `block ${i}, flip ${k}`);
      }
      const cut = raw.subarray(0, rng.int(0, raw.length - 1));
      assert.deepEqual(walked(cut), decoded(cut), `block ${i} cut`);
      const longer = concat(raw, Uint8Array.of(0));
      assert.deepEqual(walked(longer), decoded(longer), `block ${i} longer`);
    }
    assert.ok(refused > 50, `refused ${refused}`);
  });

  test("hashes from the saved bytes refuse a damaged block as decode does: header, BodySize, BodyHash", () => {
    for (let i = 0; i < 50; i++) {
      const raw = encodeECBlock(randomBlock(rng, pool));
      const headerLength = raw.length - encodeECBlockBody(decodeECBlock(raw).items).length;
      if (raw.length === headerLength) continue;
      const body = raw.slice();
      body[rng.int(headerLength, raw.length - 1)]! ^= 1 << rng.int(0, 7);
      expectProtocolError(() => ecBlockHashesOfSaved(body), "BAD_VALUE", "ec block.bodyhash");
      const bodyHash = raw.slice();
      bodyHash[32 + rng.int(0, 31)]! ^= 1;
      expectProtocolError(() => ecBlockHashesOfSaved(bodyHash), "BAD_VALUE", "ec block.bodyhash");
      expectProtocolError(() => ecBlockHashesOfSaved(raw.subarray(0, raw.length - 1)), "TRUNCATED", "ec block.body");
      const chain = raw.slice();
      chain[0]! ^= 1;
      expectProtocolError(() => ecBlockHashesOfSaved(chain), "BAD_VALUE", "ec block.chainid");
    }
  });
});
