/**
 * The record stream that carries a block set's puts to the writer thread: what goes in comes out, in
 * order, across chunk ends (a record never split, one larger than a chunk in a chunk of its own); damaged
 * streams are refused instead of misread.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DbName } from "../../../src/store/environment.js";
import {
  DB_ORDER,
  forEachRecord,
  RECORD_CHUNK_BYTES,
  type RecordStream,
  RecordStreamWriter,
  streamBytes,
} from "../../../src/store/recordStream.js";
import { Random } from "../../support/random.js";

const rng = new Random(0x5eed);
const randomBytes = (n: number): Uint8Array => rng.bytes(n);

type Record = { db: DbName; key: number[]; value: number[] };

function readAll(stream: RecordStream): Record[] {
  const out: Record[] = [];
  forEachRecord(stream, (db, key, value) => out.push({ db, key: [...key], value: [...value] }));
  return out;
}

/** One chunk's bytes as a stream of its own. */
const single = (bytes: Uint8Array): RecordStream => ({ buffers: [bytes.slice().buffer], lengths: [bytes.length] });

describe("record stream", () => {
  test("records come back in order with their database, key and value, across chunk ends", () => {
    // small chunks: many ends, and a 70,000-byte value (a big EC block) larger than any chunk
    const w = new RecordStreamWriter(1000);
    const written: Record[] = [];
    let bytes = 0;
    for (let i = 0; i < 500; i++) {
      const db = DB_ORDER[i % DB_ORDER.length]!;
      const key = randomBytes(1 + (i % 40));
      const value = randomBytes(i === 250 ? 70_000 : i % 97);
      w.put(db, key, value);
      written.push({ db, key: [...key], value: [...value] });
      bytes += 6 + key.length + value.length;
    }
    assert.equal(w.count, 500);
    const stream = w.finish();
    assert.deepEqual(readAll(stream), written);
    assert.equal(streamBytes(stream), bytes, "the lengths count every record's bytes and nothing else");
    assert.ok(stream.buffers.length >= 30, `${stream.buffers.length} chunks`);
    for (let i = 0; i < stream.buffers.length; i++) {
      const size = stream.buffers[i]!.byteLength;
      assert.ok(size === 1000 || size === 6 + 11 + 70_000, `chunk ${i}: ${size} bytes`);
      // a chunk is closed only when the next record does not fit in what is left of it
      const next = stream.buffers[i + 1]?.byteLength;
      if (size === 1000 && next === 1000)
        assert.ok(stream.lengths[i]! > 1000 - (6 + 40 + 97), `chunk ${i} closed with ${stream.lengths[i]} bytes used`);
    }
  });

  test("a prefixed record is its first byte followed by the rest, as one value", () => {
    const w = new RecordStreamWriter(64);
    const raw = randomBytes(300);
    w.putPrefixed("blocks", randomBytes(32), 7, raw);
    w.put("meta", Uint8Array.of(1), Uint8Array.of(2));
    const [block, meta] = readAll(w.finish());
    assert.deepEqual(block!.value, [7, ...raw]);
    assert.deepEqual(meta, { db: "meta", key: [1], value: [2] });
  });

  test("chunks are 4 MiB by default", () => {
    const w = new RecordStreamWriter();
    w.put("meta", Uint8Array.of(1), Uint8Array.of(2));
    assert.equal(w.finish().buffers[0]!.byteLength, RECORD_CHUNK_BYTES);
  });

  test("an empty stream has no records and no chunk", () => {
    const stream = new RecordStreamWriter().finish();
    assert.deepEqual(stream, { buffers: [], lengths: [] });
    assert.deepEqual(readAll(stream), []);
  });

  test("a key longer than 255 bytes is refused when written", () => {
    assert.throws(() => new RecordStreamWriter().put("meta", new Uint8Array(256), new Uint8Array(1)), /256 bytes/);
  });

  test("truncated streams, unknown databases and lengths that do not fit are refused, not misread", () => {
    const w = new RecordStreamWriter();
    w.put("entryRecords", randomBytes(32), randomBytes(100));
    const stream = w.finish();
    const whole = new Uint8Array(stream.buffers[0]!, 0, stream.lengths[0]);
    for (const cut of [1, 5, 6, 37, whole.length - 1]) {
      assert.throws(() => readAll(single(whole.subarray(0, cut))), /truncated/, `cut at ${cut}`);
    }
    const bad = whole.slice();
    bad[0] = DB_ORDER.length;
    assert.throws(() => readAll(single(bad)), /unknown database index/);
    assert.throws(() => readAll({ buffers: [whole.slice().buffer], lengths: [whole.length + 1] }), /holds/);
    assert.throws(() => readAll({ buffers: [whole.slice().buffer], lengths: [] }), /1 buffers, 0 lengths/);
  });
});
