/**
 * The entry record's value layout byte for byte (entryRecord.ts; docs/ledger.md §Key layout, `entryRecords`):
 * every combination of parts and flags written to the layout its module comment states, computed here field by
 * field rather than by the codec; the parts read back as copies, from a value at any offset of its buffer; every
 * malformed value refused CORRUPT naming its length and flags; and the merge the writer makes of a part over a
 * saved record. Pure: no store (entryRecords.test.ts writes and migrates real LMDB directories).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  decodeEntryRecord,
  type EntryRecordParts,
  encodeEntryRecord,
  entryLocationOf,
  entryRawView,
  isWholeRecord,
  mergeEntryRecord,
  paidCommitOf,
  paidEntryCommitAt,
} from "../../../src/store/entryRecord.js";
import { StoreError } from "../../../src/store/errors.js";
import type { EntryLocation, PaidCommit } from "../../../src/store/records.js";

const filled = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const u32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u48 = (n: number): number[] => [...u32(Math.floor(n / 2 ** 16)), (n >>> 8) & 0xff, n & 0xff];
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function paid(over: Partial<PaidCommit> = {}): PaidCommit {
  return {
    kind: "entry",
    credits: 7,
    revealed: false,
    height: 0x01020304,
    milliTime: 0x0a0b0c0d0e0f,
    txId: filled(0x11),
    chainIdHash: new Uint8Array(32),
    ...over,
  };
}

function location(over: Partial<EntryLocation> = {}): EntryLocation {
  return { entryBlockKeyMR: filled(0x22), height: 0x05060708, commitTxId: filled(0x11), ...over };
}

const RAW = Uint8Array.of(0, ...filled(0x33), 0, 0, 9, 8, 7);

/** The paid part as the layout says: credits ‖ height u32 ‖ milliTime u48 ‖ txid ‖ [chainIdHash]. */
function paidBytes(p: PaidCommit, withChainIdHash: boolean): number[] {
  return [p.credits, ...u32(p.height), ...u48(p.milliTime), ...p.txId, ...(withChainIdHash ? p.chainIdHash : [])];
}

/** The entry part: keyMR ‖ height u32 ‖ [own txid] ‖ the marshalled entry. */
function entryBytes(l: EntryLocation, raw: Uint8Array, ownTxId: boolean): number[] {
  return [...l.entryBlockKeyMR, ...u32(l.height), ...(ownTxId ? l.commitTxId : []), ...raw];
}

/** `v` at offset 5 of a larger buffer whose other bytes are 0xee (as LMDB hands out values). */
function atOffset(v: Uint8Array): Uint8Array {
  const buffer = new Uint8Array(v.length + 9).fill(0xee);
  buffer.set(v, 5);
  return buffer.subarray(5, 5 + v.length);
}

function isCorrupt(v: Uint8Array): (e: unknown) => boolean {
  return (e: unknown) =>
    e instanceof StoreError &&
    e.type.code === "CORRUPT" &&
    e.type.path === "entryRecords" &&
    e.type.info === `a malformed entry record (${v.length} bytes, flags 0x${(v[0] ?? 0).toString(16)})`;
}

describe("entry record codec: the layout", () => {
  const cases: { name: string; parts: EntryRecordParts; bytes: number[] }[] = [
    { name: "an entry commit, not revealed", parts: { paid: paid() }, bytes: [0x01, ...paidBytes(paid(), false)] },
    {
      name: "a chain commit, revealed, with its chain ID hash",
      parts: { paid: paid({ kind: "chain", revealed: true, credits: 11, chainIdHash: filled(0x44) }) },
      bytes: [
        0x01 | 0x04 | 0x08 | 0x10,
        ...paidBytes(paid({ kind: "chain", revealed: true, credits: 11, chainIdHash: filled(0x44) }), true),
      ],
    },
    {
      name: "a chain ID hash that is zero but its last byte: kept",
      parts: { paid: paid({ chainIdHash: Uint8Array.from(new Uint8Array(32), (_, i) => (i === 31 ? 1 : 0)) }) },
      bytes: [
        0x01 | 0x10,
        ...paidBytes(paid({ chainIdHash: Uint8Array.from(new Uint8Array(32), (_, i) => (i === 31 ? 1 : 0)) }), true),
      ],
    },
    {
      name: "a chain commit with its chain ID hash and its first entry: the entry part after the hash",
      parts: {
        paid: paid({ kind: "chain", revealed: true, credits: 11, chainIdHash: filled(0x44) }),
        entry: { location: location(), raw: RAW },
      },
      bytes: [
        0x01 | 0x02 | 0x04 | 0x08 | 0x10,
        ...paidBytes(paid({ kind: "chain", revealed: true, credits: 11, chainIdHash: filled(0x44) }), true),
        ...entryBytes(location(), RAW, false),
      ],
    },
    {
      name: "an entry alone (a snapshot's): its own txid",
      parts: { entry: { location: location(), raw: RAW } },
      bytes: [0x02 | 0x20, ...entryBytes(location(), RAW, true)],
    },
    {
      name: "both parts, the entry paid by the paid commit: the txid once",
      parts: { paid: paid({ revealed: true }), entry: { location: location(), raw: RAW } },
      bytes: [0x01 | 0x02 | 0x08, ...paidBytes(paid(), false), ...entryBytes(location(), RAW, false)],
    },
    {
      name: "both parts, paid again since: the entry's own txid",
      parts: { paid: paid({ txId: filled(0x55) }), entry: { location: location(), raw: RAW } },
      bytes: [
        0x01 | 0x02 | 0x20,
        ...paidBytes(paid({ txId: filled(0x55) }), false),
        ...entryBytes(location(), RAW, true),
      ],
    },
    {
      name: "both parts, txids differing in their last byte only",
      parts: {
        paid: paid({ txId: Uint8Array.from(filled(0x11), (v, i) => (i === 31 ? 0x12 : v)) }),
        entry: { location: location(), raw: RAW },
      },
      bytes: [
        0x01 | 0x02 | 0x20,
        ...paidBytes(paid({ txId: Uint8Array.from(filled(0x11), (v, i) => (i === 31 ? 0x12 : v)) }), false),
        ...entryBytes(location(), RAW, true),
      ],
    },
    {
      name: "an entry of no bytes (the value ends at its location)",
      parts: { paid: paid(), entry: { location: location(), raw: new Uint8Array(0) } },
      bytes: [0x01 | 0x02, ...paidBytes(paid(), false), ...entryBytes(location(), new Uint8Array(0), false)],
    },
    {
      name: "the largest values: credits 255, heights 2^32−1, milliTime 2^48−1",
      parts: {
        paid: paid({ credits: 255, height: 2 ** 32 - 1, milliTime: 2 ** 48 - 1 }),
        entry: { location: location({ height: 2 ** 32 - 1 }), raw: RAW },
      },
      bytes: [
        0x01 | 0x02,
        ...paidBytes(paid({ credits: 255, height: 2 ** 32 - 1, milliTime: 2 ** 48 - 1 }), false),
        ...entryBytes(location({ height: 2 ** 32 - 1 }), RAW, false),
      ],
    },
  ];

  for (const c of cases)
    test(`${c.name}: written as the layout says, read back as copies at any offset`, () => {
      const encoded = encodeEntryRecord(c.parts);
      assert.equal(hex(encoded), hex(Uint8Array.from(c.bytes)));
      const v = atOffset(encoded);
      assert.deepEqual(decodeEntryRecord(v), c.parts);
      assert.deepEqual(paidCommitOf(v), c.parts.paid);
      assert.deepEqual(entryLocationOf(v), c.parts.entry?.location);
      const raw = entryRawView(v);
      assert.deepEqual(raw === undefined ? undefined : Uint8Array.from(raw), c.parts.entry?.raw);
      assert.equal(isWholeRecord(v), c.parts.paid !== undefined && c.parts.entry !== undefined);
      // copies: the buffer reused after the read changes none of what was read
      const parts = decodeEntryRecord(v);
      const p = paidCommitOf(v);
      const l = entryLocationOf(v);
      v.fill(0xff);
      assert.deepEqual(parts, c.parts);
      assert.deepEqual(p, c.parts.paid);
      assert.deepEqual(l, c.parts.entry?.location);
      // the raw view is a view: it sees the buffer's bytes (hence "copy it before the buffer is reused")
      if (raw !== undefined) assert.ok(raw.length === 0 || raw.every((b) => b === 0xff));
    });

  test("an entry commit's chain ID hash (32 zero bytes) is left out and read back as 32 zero bytes", () => {
    const v = encodeEntryRecord({ paid: paid() });
    assert.equal(v.length, 1 + 43);
    assert.deepEqual(paidCommitOf(v)?.chainIdHash, new Uint8Array(32));
  });

  test("paidEntryCommitAt: where a paid entry commit's part starts, -1 for a chain commit's or none", () => {
    for (const entry of [undefined, { location: location(), raw: RAW }]) {
      const p = paid({ credits: 3, txId: filled(0x44) });
      const v = atOffset(encodeEntryRecord({ paid: p, entry }));
      const at = paidEntryCommitAt(v);
      // the part follows the flags byte; its fields read in place as the query index reads them
      assert.equal(at, 1);
      assert.deepEqual([...v.subarray(at, at + 11 + 32)], paidBytes(p, false));
      const chain = paid({ kind: "chain", chainIdHash: filled(0x55) });
      assert.equal(paidEntryCommitAt(atOffset(encodeEntryRecord({ paid: chain, entry }))), -1);
      // a chain commit whose chain ID hash is all zeros is still a chain commit's part
      assert.equal(paidEntryCommitAt(encodeEntryRecord({ paid: paid({ kind: "chain" }), entry })), -1);
    }
    assert.equal(paidEntryCommitAt(encodeEntryRecord({ entry: { location: location(), raw: RAW } })), -1);
    const bad = Uint8Array.of(0x40, 1, 2);
    assert.throws(() => paidEntryCommitAt(bad), isCorrupt(bad));
  });
});

describe("entry record codec: malformed values are CORRUPT, never misread", () => {
  const whole = encodeEntryRecord({ paid: paid(), entry: { location: location(), raw: RAW } });
  const paidOnly = encodeEntryRecord({ paid: paid() });
  const chainPaid = encodeEntryRecord({ paid: paid({ chainIdHash: filled(0x44) }) });
  const entryOnly = encodeEntryRecord({ entry: { location: location(), raw: RAW } });
  const bad: [string, Uint8Array][] = [
    ["empty", new Uint8Array(0)],
    ["no part", Uint8Array.of(0x00)],
    ["flags without a part", Uint8Array.of(0x04 | 0x08 | 0x10 | 0x20, ...paidOnly.subarray(1))],
    ["an unknown flag 0x40", Uint8Array.of(0x40 | 0x01, ...paidOnly.subarray(1))],
    ["an unknown flag 0x80", Uint8Array.of(0x80 | 0x01, ...paidOnly.subarray(1))],
    ["a paid part one byte short", paidOnly.subarray(0, paidOnly.length - 1)],
    ["a paid part one byte long", Uint8Array.of(...paidOnly, 0)],
    ["a chain ID hash one byte short", chainPaid.subarray(0, chainPaid.length - 1)],
    ["a paid part whose flags say a chain ID hash it lacks", Uint8Array.of(0x01 | 0x10, ...paidOnly.subarray(1))],
    ["an entry without its own txid and no paid part", Uint8Array.of(0x02, ...entryOnly.subarray(1 + 32 + 4 + 32))],
    ["an entry part cut in its location", whole.subarray(0, 1 + 43 + 35)],
    ["an entry alone cut in its own txid", entryOnly.subarray(0, 1 + 36 + 31)],
  ];
  for (const [name, v] of bad)
    test(name, () => {
      for (const read of [paidCommitOf, entryLocationOf, entryRawView, decodeEntryRecord])
        assert.throws(() => read(v), isCorrupt(v), `${read.name}: ${hex(v)}`);
    });
  test("the shortest well-formed values are read", () => {
    // an entry alone of no bytes: flags ‖ keyMR ‖ height ‖ own txid, ending at its location
    const v = atOffset(encodeEntryRecord({ entry: { location: location(), raw: new Uint8Array(0) } }));
    assert.equal(v.length, 1 + 36 + 32);
    assert.deepEqual(entryLocationOf(v), location());
    assert.equal(entryRawView(v)?.length, 0);
    assert.equal(paidCommitOf(v), undefined);
  });
});

describe("entry record codec: whole records and merges", () => {
  const p1 = paid();
  const p2 = paid({ txId: filled(0x66), height: 9, revealed: true });
  const e1 = { location: location(), raw: RAW };
  const e2 = { location: location({ height: 77, commitTxId: filled(0x66) }), raw: Uint8Array.of(1, 2, 3) };

  test("a part is whole only with both parts", () => {
    assert.equal(isWholeRecord(new Uint8Array(0)), false);
    assert.equal(isWholeRecord(encodeEntryRecord({ paid: p1 })), false);
    assert.equal(isWholeRecord(encodeEntryRecord({ entry: e1 })), false);
    assert.equal(isWholeRecord(encodeEntryRecord({ paid: p1, entry: e1 })), true);
  });

  test("a part over nothing, or a whole part, is saved as it is (the same bytes, unread)", () => {
    const part = encodeEntryRecord({ paid: p1 });
    assert.equal(mergeEntryRecord(undefined, part), part);
    const whole = encodeEntryRecord({ paid: p2, entry: e2 });
    assert.equal(mergeEntryRecord(encodeEntryRecord({ paid: p1, entry: e1 }), whole), whole);
    // a whole part replaces even a saved value that is malformed (it is not read)
    assert.equal(mergeEntryRecord(Uint8Array.of(0xff), whole), whole);
  });

  test("a part replaces its own part of the saved record and keeps the other", () => {
    const merged = (saved: EntryRecordParts, part: EntryRecordParts): EntryRecordParts =>
      decodeEntryRecord(atOffset(mergeEntryRecord(encodeEntryRecord(saved), encodeEntryRecord(part))));
    // paid again over a saved entry: the new paid commit, the entry still naming the commit that paid it
    assert.deepEqual(merged({ paid: p1, entry: e1 }, { paid: p2 }), { paid: p2, entry: e1 });
    assert.equal(
      hex(mergeEntryRecord(encodeEntryRecord({ paid: p1, entry: e1 }), encodeEntryRecord({ paid: p2 }))),
      hex(encodeEntryRecord({ paid: p2, entry: e1 })),
    );
    // an entry over a saved paid commit
    assert.deepEqual(merged({ paid: p1 }, { entry: e1 }), { paid: p1, entry: e1 });
    // an entry over an entry alone, a paid commit over a paid commit alone
    assert.deepEqual(merged({ entry: e1 }, { entry: e2 }), { entry: e2 });
    assert.deepEqual(merged({ paid: p1 }, { paid: p2 }), { paid: p2 });
    // a paid commit over an entry alone, an entry over a whole record
    assert.deepEqual(merged({ entry: e1 }, { paid: p2 }), { paid: p2, entry: e1 });
    assert.deepEqual(merged({ paid: p1, entry: e1 }, { entry: e2 }), { paid: p1, entry: e2 });
  });

  test("a malformed saved record is refused by a merge of a part, not overwritten", () => {
    const v = Uint8Array.of(0x40);
    assert.throws(() => mergeEntryRecord(v, encodeEntryRecord({ paid: p1 })), isCorrupt(v));
  });
});
