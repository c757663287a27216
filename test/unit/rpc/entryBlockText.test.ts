// The `entry-block` answer text (rpc/v2/entryBlockText.ts) is exactly the JSON of the result's shape
// (protocol/json/entryBlockJson.ts) for every kind of entry block: empty, markers only, entries after the last
// marker (minute 10), several entries per minute, minutes skipped, timestamps of any width.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { buildEntryBlock, decodeEntryBlock, encodeEntryBlock, minuteMarker } from "../../../src/protocol/eblock.js";
import { entryBlockToJson } from "../../../src/protocol/json/entryBlockJson.js";
import { encodeJson } from "../../../src/rpc/jsonrpc.js";
import { entryBlockJsonText } from "../../../src/rpc/v2/entryBlockText.js";

/** A distinct 32-byte entry hash per label. */
const hashOf = (label: string) => new Uint8Array(createHash("sha256").update(label).digest());

/** An entry block whose body is `layout`: a number is that minute's marker, a string an entry hash. */
function blockOf(layout: (number | string)[], fields: { sequence?: number; dbHeight?: number } = {}) {
  return buildEntryBlock({
    chainId: hashOf("chain"),
    prevKeyMR: hashOf("prev"),
    prevFullHash: hashOf("prev full"),
    sequence: fields.sequence ?? 3,
    dbHeight: fields.dbHeight ?? 41,
    items: layout.map((x) => (typeof x === "number" ? minuteMarker(x) : hashOf(x))),
  });
}

describe("entry-block answer text", () => {
  const cases: [string, (number | string)[]][] = [
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
        const block = blockOf(layout, { sequence: layout.length, dbHeight: minutes % 100_000 });
        const expected = encodeJson(entryBlockToJson(block, minutes));
        assert.equal(entryBlockJsonText(block, minutes), expected, `dblock minutes ${minutes}`);
        // as the ledger hands it out: decoded from its bytes (the hashes are views of one copy)
        const decoded = decodeEntryBlock(encodeEntryBlock(block));
        assert.equal(entryBlockJsonText(decoded, minutes), expected);
      }
    });

  it("a block of 1,000 entries over ten minutes", () => {
    const layout: (number | string)[] = [];
    for (let m = 1; m <= 10; m++) {
      for (let i = 0; i < 100; i++) layout.push(`entry ${m}/${i}`);
      layout.push(m);
    }
    const block = decodeEntryBlock(encodeEntryBlock(blockOf(layout, { sequence: 0xffffffff, dbHeight: 0xffffffff })));
    assert.equal(entryBlockJsonText(block, 29_123_456), encodeJson(entryBlockToJson(block, 29_123_456)));
  });
});
