/**
 * The record stream that carries a block set's puts to the writer thread: what goes in comes out, in
 * order, across buffer growth; damaged streams are refused instead of misread.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DbName } from "../../../src/store/environment.js";
import { DB_ORDER, forEachRecord, RecordStreamWriter } from "../../../src/store/recordStream.js";
import { Random } from "../../support/random.js";

const rng = new Random(0x5eed);
const randomBytes = (n: number): Uint8Array => rng.bytes(n);

function readAll(stream: ArrayBuffer): { db: DbName; key: number[]; value: number[] }[] {
  const out: { db: DbName; key: number[]; value: number[] }[] = [];
  forEachRecord(stream, (db, key, value) => out.push({ db, key: [...key], value: [...value] }));
  return out;
}

describe("record stream", () => {
  test("records come back in order with their database, key and value, across regrowths", () => {
    // a tiny first allocation forces many regrowths
    const w = new RecordStreamWriter(8);
    const written: { db: DbName; key: number[]; value: number[] }[] = [];
    for (let i = 0; i < 500; i++) {
      const db = DB_ORDER[i % DB_ORDER.length]!;
      const key = randomBytes(1 + (i % 40));
      // values from empty to 70 KiB (a big EC block)
      const value = randomBytes(i === 250 ? 70_000 : i % 97);
      w.put(db, key, value);
      written.push({ db, key: [...key], value: [...value] });
    }
    assert.equal(w.count, 500);
    assert.deepEqual(readAll(w.finish()), written);
  });

  test("an empty stream has no records", () => {
    assert.deepEqual(readAll(new RecordStreamWriter().finish()), []);
  });

  test("a key longer than 255 bytes is refused when written", () => {
    assert.throws(() => new RecordStreamWriter().put("meta", new Uint8Array(256), new Uint8Array(1)), /256 bytes/);
  });

  test("truncated streams and unknown databases are refused, not misread", () => {
    const w = new RecordStreamWriter();
    w.put("entryRecords", randomBytes(32), randomBytes(100));
    const whole = new Uint8Array(w.finish());
    for (const cut of [1, 5, 6, 37, whole.length - 1]) {
      assert.throws(() => readAll(whole.slice(0, cut).buffer), /truncated/, `cut at ${cut}`);
    }
    const bad = whole.slice();
    bad[0] = DB_ORDER.length;
    assert.throws(() => readAll(bad.buffer), /unknown database index/);
  });
});
