/**
 * The journal's files (store/journalFiles.ts, store/journal.ts): a torn tail cut at every byte of the last
 * record opens to the records before it; a damaged record ends the file's records there (a prefix); the
 * removal of a saved height's records; and a journal of the earlier LMDB format carried into files at open,
 * again after an upgrade cut short. Real files, a real LMDB environment for the old format.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { open } from "lmdb";
import { AckStatus } from "../../../src/ledger/api.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { Journal } from "../../../src/store/journal.js";
import {
  heightFileName,
  onlyRecordsOf,
  packGroup,
  parseHeightFile,
  RECORD_HEADER_BYTES,
  RESERVE_BYTES,
  sealRecords,
} from "../../../src/store/journalFiles.js";
import { journalKey } from "../../../src/store/keys.js";
import { assetKey, cleanup, closeNode, ManualClock, openNode, payment, tempDir, UNIT } from "../ledger/harness.js";

/** Record `i`'s bytes: its length varies and its content names it. */
function recordBytes(i: number): Uint8Array {
  const out = new Uint8Array(20 + ((i * 37) % 300));
  for (let k = 0; k < out.length; k++) out[k] = (i * 7 + k) & 0xff;
  return out;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A journal in `dir` with records 0 … count-1 of `height`, appended over several turns, then closed. */
async function writeJournal(dir: string, height: number, count: number): Promise<void> {
  const j = Journal.open(dir, { verify: false });
  try {
    const appends: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      appends.push(j.append(height, i, recordBytes(i)));
      if (i % 3 === 2) await turn();
    }
    await Promise.all(appends);
  } finally {
    await j.close();
  }
}

function seqsAndBytes(j: Journal, height: number): [number, number[]][] {
  return j.records(height).map((r) => [r.seq, [...r.bytes]]);
}

function expected(count: number): [number, number[]][] {
  return Array.from({ length: count }, (_, i) => [i, [...recordBytes(i)]]);
}

describe("journal files", () => {
  test("a file cut at every byte of its last record opens to the records before it, cut where they end", async () => {
    const dir = tempDir();
    try {
      await writeJournal(dir, 7, 6);
      const file = join(dir, "journal", heightFileName(7));
      const whole = readFileSync(file);
      const lastStart = whole.length - (RECORD_HEADER_BYTES + recordBytes(5).length);
      for (let cut = lastStart; cut < whole.length; cut++) {
        const copy = tempDir();
        try {
          cpSync(join(dir, "journal"), join(copy, "journal"), { recursive: true });
          truncateSync(join(copy, "journal", heightFileName(7)), cut);
          const j = Journal.open(copy, { verify: false });
          try {
            assert.deepEqual(seqsAndBytes(j, 7), expected(5), `cut at byte ${cut}`);
            assert.equal(statSync(join(copy, "journal", heightFileName(7))).size, lastStart, `file after cut ${cut}`);
            assert.equal(j.cuts.length, cut === lastStart ? 0 : 1);
            // appends go on after the cut, and a reopen finds them there
            await j.append(7, 6, recordBytes(6));
          } finally {
            await j.close();
          }
          const again = Journal.open(copy, { verify: false });
          assert.deepEqual(seqsAndBytes(again, 7), [...expected(5), [6, [...recordBytes(6)]]]);
          await again.close();
        } finally {
          cleanup(copy);
        }
      }
      // the whole file: nothing cut
      const j = Journal.open(dir, { verify: false });
      assert.deepEqual(seqsAndBytes(j, 7), expected(6));
      assert.deepEqual(j.cuts, []);
      await j.close();
    } finally {
      cleanup(dir);
    }
  });

  test("a record whose checksum does not match ends the file's records there: the prefix before it", async () => {
    const dir = tempDir();
    try {
      await writeJournal(dir, 3, 10);
      const file = join(dir, "journal", heightFileName(3));
      const bytes = readFileSync(file);
      // record 4 starts after records 0…3
      let at = 0;
      for (let i = 0; i < 4; i++) at += RECORD_HEADER_BYTES + recordBytes(i).length;
      for (const [what, offset] of [
        ["a message byte", at + RECORD_HEADER_BYTES + 5],
        ["the sequence", at + 8],
        ["the checksum", at + 12],
      ] as const) {
        const copy = tempDir();
        try {
          cpSync(join(dir, "journal"), join(copy, "journal"), { recursive: true });
          const damaged = Buffer.from(bytes);
          damaged[offset]! ^= 0x01;
          writeFileSync(join(copy, "journal", heightFileName(3)), damaged);
          const j = Journal.open(copy, { verify: false });
          try {
            assert.deepEqual(seqsAndBytes(j, 3), expected(4), what);
            assert.equal(j.cuts.length, 1, what);
            assert.match(j.cuts[0]!.why, /checksum/, what);
            assert.equal(statSync(join(copy, "journal", heightFileName(3))).size, at, what);
          } finally {
            await j.close();
          }
        } finally {
          cleanup(copy);
        }
      }
    } finally {
      cleanup(dir);
    }
  });

  test("onlyRecordsOf: whole records of the height, every sequence named — from the headers alone", () => {
    const bytes = Array.from({ length: 6 }, (_, i) => recordBytes(i));
    const file = packGroup(
      bytes.map(() => 12),
      bytes.map((_, i) => i),
      bytes,
    );
    sealRecords(file, () => {});
    assert.equal(parseHeightFile(file, 12).records.length, 6);
    const all = new Set([0, 1, 2, 3, 4, 5]);
    assert.equal(onlyRecordsOf(file, 12, all), true);
    assert.equal(onlyRecordsOf(file, 12, new Set([0, 1, 2, 3, 5, 99])), false, "record 4 is kept");
    assert.equal(onlyRecordsOf(file, 13, all), false, "records of another height");
    assert.equal(onlyRecordsOf(new Uint8Array(0), 12, all), true, "an empty file");
    // a file cut anywhere inside its last record or header is not whole records
    for (let cut = 1; cut < RECORD_HEADER_BYTES + bytes[5]!.length; cut++)
      assert.equal(onlyRecordsOf(file.subarray(0, file.length - cut), 12, all), false, `cut ${cut}`);
    // a length past the file's end
    const long = Uint8Array.from(file);
    new DataView(long.buffer).setUint32(0, file.length, true);
    assert.equal(onlyRecordsOf(long, 12, all), false);
    // the checksums are not read: a record damaged inside goes with its file when its sequence is named
    const damaged = Uint8Array.from(file);
    damaged[RECORD_HEADER_BYTES + 3]! ^= 0xff;
    assert.equal(parseHeightFile(damaged, 12).records.length, 0);
    assert.equal(onlyRecordsOf(damaged, 12, all), true);
  });

  test("records go into zeros reserved after them: most commits keep the file's size; the space goes at close and at open", async () => {
    const dir = tempDir();
    const file = join(dir, "journal", heightFileName(4));
    const copy = tempDir();
    try {
      const j = Journal.open(dir, { verify: false });
      let end = 0;
      try {
        await j.append(4, 0, recordBytes(0));
        end = RECORD_HEADER_BYTES + recordBytes(0).length;
        assert.equal(statSync(file).size, end + RESERVE_BYTES, "the first commit reserves space after its record");
        // an empty message is a record, not the start of the space (its header's CRC is not zero)
        await j.append(4, 1, new Uint8Array(0));
        end += RECORD_HEADER_BYTES;
        for (let i = 2; i < 40; i++) {
          await j.append(4, i, recordBytes(i));
          end += RECORD_HEADER_BYTES + recordBytes(i).length;
        }
        const firstEnd = RECORD_HEADER_BYTES + recordBytes(0).length;
        assert.equal(statSync(file).size, firstEnd + RESERVE_BYTES, "later commits write into the space");
        const all = [[0, [...recordBytes(0)]], [1, []], ...expected(40).slice(2)];
        assert.deepEqual(seqsAndBytes(j, 4), all, "read while the space is there");
        assert.equal(onlyRecordsOf(readFileSync(file), 4, new Set(all.map(([seq]) => seq as number))), true);
        // the main thread's synchronous append goes at the records' end, into the space; the writer thread
        // sees it there (the header at its end is no longer zero) and writes after it
        j.appendAllSync(4, [{ seq: 40, bytes: recordBytes(40) }]);
        await j.append(4, 41, recordBytes(41));
        all.push([40, [...recordBytes(40)]], [41, [...recordBytes(41)]]);
        end += 2 * RECORD_HEADER_BYTES + recordBytes(40).length + recordBytes(41).length;
        assert.deepEqual(seqsAndBytes(j, 4), all, "both appends, in order");
        // a crash now leaves the space: a copy of the directory as it is
        cpSync(join(dir, "journal"), join(copy, "journal"), { recursive: true });
      } finally {
        await j.close();
      }
      assert.equal(statSync(file).size, end, "a closed journal's file is its records");
      const crashed = join(copy, "journal", heightFileName(4));
      assert.equal(statSync(crashed).size > end, true);
      const again = Journal.open(copy, { verify: false });
      try {
        assert.deepEqual(again.cuts, [], "the space is not a torn tail");
        assert.equal(statSync(crashed).size, end, "the space is cut at open");
        assert.deepEqual(seqsAndBytes(again, 4).length, 42);
        await again.append(4, 42, recordBytes(42));
      } finally {
        await again.close();
      }
      const reopened = Journal.open(copy, { verify: false });
      assert.deepEqual(
        reopened.records(4).map((r) => r.seq),
        Array.from({ length: 43 }, (_, i) => i),
      );
      await reopened.close();
    } finally {
      cleanup(dir);
      cleanup(copy);
    }
  });

  test("bytes after zeros that do not run to the file's end are a tail, not space: cut, never read", () => {
    const bytes = Array.from({ length: 4 }, (_, i) => recordBytes(i));
    const records = packGroup(
      bytes.map(() => 0),
      bytes.map((_, i) => i),
      bytes,
    );
    sealRecords(records, () => {});
    const first = RECORD_HEADER_BYTES + bytes[0]!.length;
    // record 0, 64 zero bytes, then records 1…3 (as a crash could leave a commit whose first page was lost)
    const file = new Uint8Array(records.length + 64);
    file.set(records.subarray(0, first));
    file.set(records.subarray(first), first + 64);
    const parsed = parseHeightFile(file, 0);
    assert.deepEqual(
      parsed.records.map((r) => r.seq),
      [0],
    );
    assert.equal(parsed.goodBytes, first);
    assert.equal(parsed.reserved, 0);
    assert.match(parsed.tail ?? "", /checksum/, "height 0, sequence 0, length 0 with a CRC of 0");
    assert.equal(onlyRecordsOf(file, 0, new Set([0, 1, 2, 3])), false);
    // the same zeros running to the end are space
    const spaced = new Uint8Array(first + 64);
    spaced.set(records.subarray(0, first));
    const space = parseHeightFile(spaced, 0);
    assert.deepEqual([space.goodBytes, space.reserved, space.tail], [first, 64, undefined]);
    assert.equal(onlyRecordsOf(spaced, 0, new Set([0])), true);
    // fewer zeros than a header at the end are space too
    assert.equal(parseHeightFile(spaced.subarray(0, first + 5), 0).tail, undefined);
  });

  test("a saved height's records go with its file; kept records (held reveals) stay, in a file of their own", async () => {
    const dir = tempDir();
    try {
      await writeJournal(dir, 10, 8);
      await writeJournal(dir, 11, 3);
      const j = Journal.open(dir, { verify: false });
      try {
        await j.remove(10, [0, 1, 2, 4, 5, 6, 7]);
        assert.deepEqual(seqsAndBytes(j, 10), [[3, [...recordBytes(3)]]]);
        assert.deepEqual(
          j.recordsBelow(11).map((r) => [r.height, r.seq]),
          [[10, 3]],
        );
        await j.remove(10, [3]);
        assert.equal(existsSync(join(dir, "journal", heightFileName(10))), false);
        assert.deepEqual(seqsAndBytes(j, 11), expected(3));
        j.removeSync([{ height: 11, seq: 1 }]);
        assert.deepEqual(
          j.records(11).map((r) => r.seq),
          [0, 2],
        );
        assert.equal(j.removeAbove(10), 2);
        assert.equal(j.count(), 0);
        assert.deepEqual(
          readdirSync(join(dir, "journal")).filter((n) => n.endsWith(".tmp")),
          [],
        );
      } finally {
        await j.close();
      }
    } finally {
      cleanup(dir);
    }
  });

  test("a journal of the LMDB format is carried into files at open, its id too; an upgrade cut short is redone", async () => {
    const dir = tempDir();
    try {
      const journalDir = join(dir, "journal");
      const id = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
      // the earlier version's layout: databases `journal` (u32 height ‖ u32 seq, big-endian) and `meta`
      const env = open<Uint8Array, Uint8Array>({
        path: journalDir,
        maxDbs: 4,
        keyEncoding: "binary",
        encoding: "binary",
      });
      const db = env.openDB<Uint8Array, Uint8Array>("journal", { keyEncoding: "binary", encoding: "binary" });
      const meta = env.openDB<Uint8Array, Uint8Array>("meta", { keyEncoding: "binary", encoding: "binary" });
      await env.transaction(() => {
        for (let i = 0; i < 5; i++) void db.put(journalKey(4, i), recordBytes(i));
        for (let i = 0; i < 40; i++) void db.put(journalKey(5, i), recordBytes(100 + i));
        void meta.put(Buffer.from("storeId", "ascii"), id);
      });
      await env.close();
      const copy = tempDir();
      try {
        // an upgrade cut short: data.mdb still there, files of the new format half written beside it
        cpSync(journalDir, join(copy, "journal"), { recursive: true });
        writeFileSync(join(copy, "journal", heightFileName(5)), Buffer.from("half a record"));
        writeFileSync(join(copy, "journal", heightFileName(9)), Buffer.alloc(40));
        for (const d of [dir, copy]) {
          const j = Journal.open(d, { verify: false });
          try {
            assert.equal(j.upgraded, 45, d);
            assert.equal(existsSync(join(d, "journal", "data.mdb")), false, d);
            assert.equal(existsSync(join(d, "journal", "lock.mdb")), false, d);
            assert.deepEqual(seqsAndBytes(j, 4), expected(5), d);
            assert.deepEqual(
              seqsAndBytes(j, 5),
              Array.from({ length: 40 }, (_, i) => [i, [...recordBytes(100 + i)]]),
              d,
            );
            assert.deepEqual(j.records(9), [], d);
            assert.equal(j.count(), 45, d);
            assert.deepEqual(j.storeId(), id, d);
            await j.append(5, 40, recordBytes(140));
          } finally {
            await j.close();
          }
          const again = Journal.open(d, { verify: false });
          assert.equal(again.upgraded, 0);
          assert.equal(again.records(5).length, 41);
          await again.close();
        }
      } finally {
        cleanup(copy);
      }
    } finally {
      cleanup(dir);
    }
  });

  test("a node whose journal is of the LMDB format starts with every acknowledged write of its open block", async () => {
    const dir = tempDir();
    const clock = new ManualClock(Date.UTC(2024, 0, 1, 12, 0, 0));
    let n = openNode(dir, { clock });
    try {
      const txs = [1, 2, 3].map((i) =>
        payment({ milliTime: n.clock.ms + i, outputs: [{ to: assetKey(20 + i), amount: UNIT }] }),
      );
      for (const tx of txs) await n.ledger.submitTransaction(tx);
      const height = n.ledger.openBlock().height;
      const records = n.store.journalRecords(height);
      assert.equal(records.length, 3);
      await closeNode(n);
      // the same journal as the earlier version kept it: an LMDB environment, the files gone
      const journalDir = join(n.store.path, "journal");
      const id = readFileSync(join(journalDir, "store-id"));
      for (const name of readdirSync(journalDir)) rmSync(join(journalDir, name));
      const env = open<Uint8Array, Uint8Array>({
        path: journalDir,
        maxDbs: 4,
        keyEncoding: "binary",
        encoding: "binary",
      });
      const db = env.openDB<Uint8Array, Uint8Array>("journal", { keyEncoding: "binary", encoding: "binary" });
      const meta = env.openDB<Uint8Array, Uint8Array>("meta", { keyEncoding: "binary", encoding: "binary" });
      await env.transaction(() => {
        for (const r of records) void db.put(journalKey(r.height, r.seq), r.bytes);
        void meta.put(Buffer.from("storeId", "ascii"), id);
      });
      await env.close();
      n = openNode(dir, { clock });
      for (const tx of txs) assert.equal(n.ledger.transactionAck(transactionId(tx)).status, AckStatus.TransactionACK);
      assert.deepEqual(
        n.store.journalRecords(height).map((r) => [r.seq, [...r.bytes]]),
        records.map((r) => [r.seq, [...r.bytes]]),
      );
      assert.equal(existsSync(join(journalDir, "data.mdb")), false);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });
});
