/**
 * Store format 2: one record per entry hash (entryRecord.ts) written whole or merged part by part, commit
 * locations as height and index, and the migration of a format-1 directory at open (formatMigration.ts),
 * including one stopped between two of its transactions. Real LMDB in a temp directory.
 *
 * The format-1 directory is made from a format-2 one by the inverse move (`toFormat1`: the three records per
 * entry hash and the 40-byte commit locations of format 1, as main wrote them up to STORE_FORMAT_VERSION 1,
 * records.ts encodeEntryLocation / encodePaidCommit); the migration must then give back every record byte for
 * byte. A directory written by the previous program itself was migrated by hand for docs/performance.md §Disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { DirectoryReader } from "../../../src/store/directoryReader.js";
import { encodeEntryRecord, entryLocationOf, entryRawView, paidCommitOf } from "../../../src/store/entryRecord.js";
import { openDatabases, openEnvironment } from "../../../src/store/environment.js";
import { StoreError } from "../../../src/store/errors.js";
import { migrateFormat } from "../../../src/store/formatMigration.js";
import { META_KEYS } from "../../../src/store/keys.js";
import { encodePaidCommit } from "../../../src/store/records.js";
import { LedgerStore, STORE_FORMAT_VERSION } from "../../../src/store/store.js";
import { cleanup, tempDir } from "../ledger/harness.js";

import { dump, entry, filled, hash, LOCAL, location, N, names, paid, toFormat1 } from "./entryRecordsFixture.js";

describe("store format 2: entry records and commit places", () => {
  test("records written whole or merged part by part read back; the writer thread stores the same bytes", async () => {
    const dir = tempDir();
    try {
      await filled(join(dir, "sync"), false);
      await filled(join(dir, "threaded"), true);
      const a = await dump(join(dir, "sync"));
      assert.equal(a.entryRecords!.length, 3 * N + 1);
      assert.equal(a.commitPlaces!.length, 4 * N);
      assert.deepEqual(await dump(join(dir, "threaded")), a);
      const s = LedgerStore.open({ path: join(dir, "sync"), ...LOCAL });
      const i = 77;
      // revealed at 1, paid again at 2: the new paid commit, the location still naming the commit that paid it
      assert.deepEqual(s.paidCommit(hash(1, i)), paid(2, hash(17, i)));
      assert.deepEqual(s.entryLocation(hash(1, i)), location(1, hash(11, i)));
      assert.deepEqual(s.entryRaw(hash(1, i)), entry(i));
      // committed at 1, revealed at 2
      assert.deepEqual(s.paidCommit(hash(2, i)), paid(1, hash(12, i), { revealed: true }));
      assert.deepEqual(s.entryLocation(hash(2, i)), location(2, hash(12, i)));
      // an entry with no paid commit, and a chain commit with no entry
      assert.equal(s.paidCommit(hash(3, i)), undefined);
      assert.deepEqual(s.entryLocation(hash(3, i)), location(1, hash(13, i)));
      assert.deepEqual(s.paidCommit(hash(4)), paid(1, hash(14), { kind: "chain", credits: 11, chainIdHash: hash(15) }));
      assert.equal(s.entryRaw(hash(4)), undefined);
      assert.equal(s.entryLocation(hash(4)), undefined);
      // a commit by txid and by full hash: the EC block's header hash from the heights index
      for (const key of [hash(17, i), hash(18, i)])
        assert.deepEqual(s.commitLocation(key), { ecBlockHeaderHash: hash(222), height: 2, index: i });
      assert.equal(s.commitLocation(hash(19)), undefined);
      // the snapshot's view: every paid commit in format 1's layout, in key order
      const paidRecords = [...s.stateRecords("paidCommits")];
      assert.equal(paidRecords.length, 2 * N + 1);
      assert.deepEqual(paidRecords[0], [hash(1, 0), Uint8Array.from(encodePaidCommit(paid(2, hash(17, 0))))]);
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("a malformed record is a CORRUPT refusal, never a misread", () => {
    const whole = encodeEntryRecord({
      paid: paid(1, hash(11)),
      entry: { location: location(1, hash(11)), raw: entry(1) },
    });
    // the commit's txid is the paid commit's: stored once
    assert.equal(whole.length, 1 + 43 + 36 + entry(1).length);
    const cases: Uint8Array[] = [
      new Uint8Array(0),
      Uint8Array.of(0x00),
      Uint8Array.of(0x40, ...whole.subarray(1)),
      whole.subarray(0, 40),
      whole.subarray(0, 1 + 43 + 20),
      Uint8Array.of(0x02, ...whole.subarray(44)),
      Uint8Array.of(...encodeEntryRecord({ paid: paid(1, hash(11)) }), 9),
    ];
    for (const bad of cases)
      for (const read of [paidCommitOf, entryLocationOf, entryRawView])
        assert.throws(() => read(bad), /CORRUPT|malformed entry record/, `${Buffer.from(bad).toString("hex")}`);
  });

  test("a format-1 directory is migrated at open, with log lines, to the same records", async () => {
    const dir = tempDir();
    try {
      const path = join(dir, "db");
      await filled(path, true);
      const want = await dump(path);
      await toFormat1(path);
      const old = await names(path);
      assert.ok(old.includes("paidCommits") && !old.includes("entryRecords"), old.join(","));
      // what `ledgerd verify` and `ledgerd-export` open: refused with what to do, and nothing created in it
      assert.throws(
        () => DirectoryReader.open(path, { scan: false }),
        (e: unknown) =>
          e instanceof StoreError &&
          e.type.code === "UNKNOWN_FORMAT" &&
          /format 1, .*start ledgerd on it once/.test(e.message),
      );
      assert.deepEqual(await names(path), old);
      const lines: string[] = [];
      const s = LedgerStore.open({ path, ...LOCAL, verify: true, log: (l) => lines.push(l) });
      assert.match(lines[0]!, /format 1 → 2, moving 360 entries, 241 paid commits and 480 commit locations/);
      assert.match(lines.at(-1)!, /format 2, migrated in/);
      assert.deepEqual(s.entryRaw(hash(2, 5)), entry(5));
      await s.close();
      assert.deepEqual(await dump(path), want);
      // once: the next open has nothing to do
      const again: string[] = [];
      await LedgerStore.open({ path, ...LOCAL, log: (l) => again.push(l) }).close();
      assert.deepEqual(again, []);
    } finally {
      cleanup(dir);
    }
  });

  test("a migration stopped between two transactions is still format 1 and goes on at the next open", async () => {
    const dir = tempDir();
    try {
      const path = join(dir, "db");
      await filled(path, false);
      const want = await dump(path);
      await toFormat1(path);
      for (const stopAfter of [3, 60, 10]) {
        const env = openEnvironment(path);
        let chunks = 0;
        assert.throws(
          () =>
            migrateFormat({ path, env, dbs: openDatabases(env) }, () => {}, {
              chunk: 7,
              afterChunk: () => {
                if (++chunks === stopAfter) throw new Error("stopped");
              },
            }),
          /stopped/,
        );
        const format = openDatabases(env).meta.getBinary(Buffer.from(META_KEYS.format, "ascii"))!;
        assert.equal(Buffer.from(format).readUInt32BE(0), 1);
        await env.close();
      }
      const mid = await dump(path);
      assert.ok(mid.entryRecords!.length > 0 && mid.commitPlaces!.length > 0, "the stops were mid-way");
      const lines: string[] = [];
      const s = LedgerStore.open({ path, ...LOCAL, log: (l) => lines.push(l) });
      assert.match(lines.at(-1)!, new RegExp(`format ${STORE_FORMAT_VERSION}, migrated`));
      await s.close();
      assert.deepEqual(await dump(path), want);
    } finally {
      cleanup(dir);
    }
  });
});
