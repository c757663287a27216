// The `entry-block` answer written from a saved block's bytes (rpc/v2/entryBlockText.ts) is exactly the JSON of the
// result's shape (protocol/json/entryBlockJson.ts) over the decoded block, for every kind of entry block: empty,
// markers only, entries after the last marker (minute 10), several entries per minute, minutes skipped, numbers of
// any width; and bytes that are not an entry block's layout are refused as the decoder refuses them.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { buildEntryBlock, decodeEntryBlock, encodeEntryBlock, minuteMarker } from "../../../src/protocol/eblock.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { entryBlockToJson } from "../../../src/protocol/json/entryBlockJson.js";
import { encodeJson } from "../../../src/rpc/jsonrpc.js";
import { entryBlockAnswer, entryBlockHeight } from "../../../src/rpc/v2/entryBlockText.js";

/** A distinct 32-byte entry hash per label. */
const hashOf = (label: string) => new Uint8Array(createHash("sha256").update(label).digest());

/** An entry block whose body is `layout`: a number is that minute's marker, a string an entry hash. */
function blockOf(layout: (number | string | Uint8Array)[], fields: { sequence?: number; dbHeight?: number } = {}) {
  return buildEntryBlock({
    chainId: hashOf("chain"),
    prevKeyMR: hashOf("prev"),
    prevFullHash: hashOf("prev full"),
    sequence: fields.sequence ?? 3,
    dbHeight: fields.dbHeight ?? 41,
    items: layout.map((x) => (typeof x === "number" ? minuteMarker(x) : typeof x === "string" ? hashOf(x) : x)),
  });
}

/** The answer's text and what the decoded block's JSON says it must be. */
function both(raw: Uint8Array, minutes: number): [string, string] {
  return [entryBlockAnswer(raw, minutes).text, encodeJson(entryBlockToJson(decodeEntryBlock(raw), minutes))];
}

describe("entry-block answer from the block's bytes", () => {
  const cases: [string, (number | string | Uint8Array)[]][] = [
    ["no items", []],
    ["markers only", [1, 2, 10]],
    ["one entry in minute 1", ["a", 1]],
    ["entries across minutes, minutes skipped", ["a", "b", 1, "c", 4, "d", "e", "f", 9, 10]],
    ["entries after the last marker count as minute 10", ["a", 2, "b", "c"]],
    ["entries and no marker at all", ["a", "b"]],
  ];
  for (const [name, layout] of cases)
    it(`${name}: the same text as the result's JSON`, () => {
      for (const minutes of [0, 29_000_123, 1_666_666_666]) {
        const raw = encodeEntryBlock(blockOf(layout, { sequence: layout.length, dbHeight: minutes % 100_000 }));
        const [text, expected] = both(raw, minutes);
        assert.equal(text, expected, `dblock minutes ${minutes}`);
      }
    });

  it("items that look almost like markers are entries: a zero hash, minute 0 or 11, a non-zero byte before the minute", () => {
    const zeros = new Uint8Array(32);
    const eleven = new Uint8Array(32);
    eleven[31] = 11;
    const early = new Uint8Array(32);
    early[0] = 1;
    early[31] = 3;
    const raw = encodeEntryBlock(blockOf([zeros, eleven, early, 5, "x"]));
    const [text, expected] = both(raw, 29_000_000);
    assert.equal(text, expected);
    assert.equal(JSON.parse(text).entrylist.length, 4);
  });

  it("a block of 1,000 entries over ten minutes, the widest numbers", () => {
    const layout: (number | string)[] = [];
    for (let m = 1; m <= 10; m++) {
      for (let i = 0; i < 100; i++) layout.push(`entry ${m}/${i}`);
      layout.push(m);
    }
    const raw = encodeEntryBlock(blockOf(layout, { sequence: 0xffffffff, dbHeight: 0xffffffff }));
    const [text, expected] = both(raw, 29_123_456);
    assert.equal(text, expected);
    assert.equal(entryBlockHeight(raw), 0xffffffff);
  });

  it("random blocks: the same text, and an answer sent whole with the id written in", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 50; round++) {
      const layout: (number | string)[] = [];
      const n = next() % 60;
      for (let i = 0; i < n; i++) layout.push(next() % 4 === 0 ? 1 + (next() % 10) : `r${round}/${i}`);
      const raw = encodeEntryBlock(blockOf(layout, { sequence: next(), dbHeight: next() % 400_000 }));
      const minutes = next() % 30_000_000;
      const [text, expected] = both(raw, minutes);
      assert.equal(text, expected, `round ${round}`);
      const whole = entryBlockAnswer(raw, minutes).answerBytes("17");
      assert.ok(whole !== undefined);
      assert.deepEqual(JSON.parse(Buffer.from(whole).toString("utf8")), {
        jsonrpc: "2.0",
        id: 17,
        result: JSON.parse(expected),
      });
    }
  });

  it("bytes of another layout are refused as the decoder refuses them", () => {
    const raw = encodeEntryBlock(blockOf(["a", 1, "b", 2]));
    const damaged = [
      ["a header cut short", raw.subarray(0, 139)],
      ["a body cut short", raw.subarray(0, raw.length - 1)],
      ["a byte after the body", Buffer.concat([raw, new Uint8Array(1)])],
      ["a count one too high", withCount(raw, 5)],
      ["a count one too low", withCount(raw, 3)],
    ] as const;
    for (const [name, bytes] of damaged) {
      assert.throws(() => decodeEntryBlock(bytes, { verifyBodyMR: false }), ProtocolError, `decoder: ${name}`);
      assert.throws(() => entryBlockAnswer(bytes, 29_000_000), ProtocolError, name);
    }
    assert.throws(() => entryBlockHeight(raw.subarray(0, 139)), ProtocolError);
  });
});

/** `raw` with its entry count (the header's last u32) set to `count`. */
function withCount(raw: Uint8Array, count: number): Uint8Array {
  const copy = Uint8Array.from(raw);
  new DataView(copy.buffer).setUint32(136, count);
  return copy;
}
