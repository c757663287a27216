import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { fromHex, hexBytes, toHex } from "../../../src/protocol/bytes.js";
import {
  chainIdFromExtIds,
  type Entry,
  entryCreditCost,
  entryHash,
  entryHashHex,
  entryKSize,
  entryPayloadSize,
  MAX_ENTRY_PAYLOAD,
  marshalEntry,
  unmarshalEntry,
  weld,
} from "../../../src/protocol/entry.js";
import { entryToJson, entryToTransactionJson } from "../../../src/protocol/json/entryJson.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";

/** A random valid entry: 0..6 ext IDs (some empty), content filling up to the payload limit. */
function randomEntry(rng: Random): Entry {
  const extIds = Array.from({ length: rng.int(0, 6) }, () => rng.bytes(rng.chance(0.2) ? 0 : rng.int(1, 200)));
  const used = extIds.reduce((n, id) => n + 2 + id.length, 0);
  const room = MAX_ENTRY_PAYLOAD - used;
  const size = rng.chance(0.1) ? room : rng.chance(0.2) ? 0 : rng.int(0, Math.min(room, rng.chance(0.5) ? 100 : room));
  return { version: 0, chainId: rng.bytes(32), extIds, content: rng.bytes(size) };
}

const nodeSha = (alg: string, ...parts: Uint8Array[]): Buffer => {
  const h = createHash(alg);
  for (const p of parts) h.update(p);
  return h.digest();
};

describe("entries (wire-format §1)", () => {
  const rng = new Random(0xe1);

  test("random entries round-trip; hash, KSize and JSON follow the rules", () => {
    for (let i = 0; i < 400; i++) {
      const entry = randomEntry(rng);
      const raw = marshalEntry(entry);
      const payload = entryPayloadSize(entry);
      assert.equal(raw.length, 35 + payload);
      assert.equal(raw[0], 0);
      assert.deepEqual(raw.subarray(1, 33), entry.chainId);
      assert.equal((raw[33]! << 8) | raw[34]!, payload - entry.content.length, "ext ID section length");
      assert.deepEqual(unmarshalEntry(raw), entry, `seed ${rng.seed} case ${i}`);
      assert.equal(toHex(entryHash(raw)), nodeSha("sha256", nodeSha("sha512", raw), raw).toString("hex"));
      // the write path's hex form (issue 35), through the shared input buffer: the same hash, the same bytes back
      assert.equal(entryHashHex(raw), toHex(entryHash(raw)));
      assert.deepEqual(hexBytes(entryHashHex(raw)), entryHash(raw));
      assert.equal(entryKSize(raw.length), Math.ceil(payload / 1024));
      assert.equal(entryCreditCost(raw.length, false), Math.max(1, Math.ceil(payload / 1024)));
      assert.equal(entryCreditCost(raw.length, true), Math.max(1, Math.ceil(payload / 1024)) + 10);
      assert.deepEqual(entryToJson(entry), {
        chainid: toHex(entry.chainId),
        content: toHex(entry.content),
        extids: entry.extIds.map(toHex),
      });
      assert.deepEqual(entryToTransactionJson(entry), { version: 0, ...entryToJson(entry) });
    }
  });

  test("the decoded entry does not alias the input buffer", () => {
    const raw = marshalEntry({ version: 0, chainId: rng.bytes(32), extIds: [rng.bytes(4)], content: rng.bytes(8) });
    const entry = unmarshalEntry(raw);
    const before = toHex(entry.content);
    raw.fill(0);
    assert.equal(toHex(entry.content), before);
  });

  test("no ext IDs gives extids [] in JSON and chain ID sha256('')", () => {
    const entry = unmarshalEntry(fromHex(`00${"11".repeat(32)}0000`));
    assert.deepEqual(entry.extIds, []);
    assert.deepEqual(entryToJson(entry), { chainid: "11".repeat(32), content: "", extids: [] });
    assert.equal(toHex(chainIdFromExtIds([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  test("chain ID and weld follow their definitions", () => {
    for (let i = 0; i < 50; i++) {
      const ids = Array.from({ length: rng.int(0, 5) }, () => rng.bytes(rng.int(0, 40)));
      const expected = nodeSha("sha256", ...ids.map((id) => nodeSha("sha256", id)));
      assert.equal(toHex(chainIdFromExtIds(ids)), expected.toString("hex"));
      const [h, c] = [rng.bytes(32), rng.bytes(32)];
      assert.equal(toHex(weld(h, c)), nodeSha("sha256", nodeSha("sha256", h, c)).toString("hex"));
    }
  });

  test("payload limit: 10240 bytes pass, 10241 are TOO_LARGE on both sides", () => {
    const ok: Entry = { version: 0, chainId: rng.bytes(32), extIds: [rng.bytes(38)], content: rng.bytes(10200) };
    assert.equal(entryPayloadSize(ok), 10240);
    const raw = marshalEntry(ok);
    assert.equal(raw.length, 10275);
    assert.deepEqual(unmarshalEntry(raw), ok);
    assert.equal(entryCreditCost(raw.length, false), 10);
    assert.equal(entryCreditCost(raw.length, true), 20);
    const big = { ...ok, content: rng.bytes(10201) };
    expectProtocolError(() => marshalEntry(big), "TOO_LARGE");
    expectProtocolError(() => unmarshalEntry(Uint8Array.from([...raw, 0])), "TOO_LARGE");
    expectProtocolError(() => entryCreditCost(10276, false), "TOO_LARGE");
  });

  test("costs at the KiB boundaries; an empty payload still costs 1 (11 for a chain)", () => {
    assert.equal(entryCreditCost(35, false), 1);
    assert.equal(entryCreditCost(35, true), 11);
    assert.equal(entryKSize(35), 0);
    assert.equal(entryKSize(35 + 1024), 1);
    assert.equal(entryKSize(35 + 1025), 2);
    assert.equal(entryCreditCost(35 + 1025, false), 2);
    expectProtocolError(() => entryKSize(34), "BAD_LENGTH");
  });

  test("bad entries are refused naming the field", () => {
    const good = marshalEntry({
      version: 0,
      chainId: rng.bytes(32),
      extIds: [rng.bytes(3), rng.bytes(5)],
      content: rng.bytes(9),
    });
    const v1 = good.slice();
    v1[0] = 1;
    expectProtocolError(() => unmarshalEntry(v1), "BAD_VERSION");
    expectProtocolError(() => marshalEntry({ ...unmarshalEntry(good), version: 1 }), "BAD_VERSION");
    expectProtocolError(() => marshalEntry({ ...unmarshalEntry(good), chainId: new Uint8Array(31) }), "BAD_LENGTH");
    for (let n = 0; n < 35; n++)
      expectProtocolError(() => unmarshalEntry(good.subarray(0, n)), "TRUNCATED", `${n} bytes`);
    // Section length larger than what follows.
    const overrun = good.slice(0, 35 + 10);
    assert.equal(expectProtocolError(() => unmarshalEntry(overrun), "TRUNCATED").field, "entry.extids");
    // An ext ID length that runs past the end of the section.
    const inner = good.slice();
    inner[36] = 200;
    assert.match(expectProtocolError(() => unmarshalEntry(inner), "TRUNCATED").field, /^entry\.extids\[0\]/);
    // A section that ends in the middle of a length prefix.
    const odd = marshalEntry({ version: 0, chainId: rng.bytes(32), extIds: [], content: rng.bytes(5) });
    odd[34] = 1;
    expectProtocolError(() => unmarshalEntry(odd), "TRUNCATED");
  });

  test("fuzz: random and mutated bytes decode (and re-marshal to the same bytes) or throw ProtocolError", () => {
    const seeds = Array.from({ length: 20 }, () =>
      marshalEntry({ ...randomEntry(rng), content: rng.bytes(rng.int(0, 60)) }),
    );
    const accepted = fuzzDecoder(rng, unmarshalEntry, {
      seeds,
      cases: 2000,
      onAccept: (entry, bytes) => assert.deepEqual(marshalEntry(entry), bytes),
    });
    assert.ok(accepted > 0 && accepted < 2000, `accepted ${accepted}`);
  });
});
