/**
 * The LMDB store: identity checks at open (network, format), the journal, atomic block sets and the
 * typed records, against a real environment in a temp directory.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Worker } from "node:worker_threads";
import { open } from "lmdb";
import { networkId } from "../../../src/protocol/network.js";
import { BlockSetWriter } from "../../../src/store/blockSetWriter.js";
import { openDatabases, openEnvironment } from "../../../src/store/environment.js";
import { StoreError } from "../../../src/store/errors.js";
import { BlockKind, journalKey } from "../../../src/store/keys.js";
import { type RecordStream, RecordStreamWriter } from "../../../src/store/recordStream.js";
import { type BlockSetWrite, LedgerStore, STORE_FORMAT_VERSION } from "../../../src/store/store.js";
import { noOtherRecords } from "../../support/blockSetWrites.js";
import { cleanup, tempDir } from "../ledger/harness.js";

const LOCAL = { network: "LOCAL" as const, networkId: networkId("LOCAL") };

function hash(n: number): Uint8Array {
  return new Uint8Array(32).fill(n);
}

/** A minimal block set at `height` (the store does not interpret blocks). */
function blockSet(height: number, over: Partial<BlockSetWrite> = {}): BlockSetWrite {
  return {
    height,
    openBlockStartMs: 1_700_000_000_000 + height,
    blocks: [
      {
        kind: BlockKind.directory,
        primary: hash(height + 1),
        secondary: hash(height + 101),
        raw: Uint8Array.of(height, 1, 2),
        height,
      },
    ],
    ...noOtherRecords(),
    ...over,
  };
}

/** A block set touching every kind of record, at `height`. */
function fullBlockSet(height: number): BlockSetWrite {
  const entries = Array.from({ length: 300 }, (_, i) => ({
    entryHash: hash(i % 250).map((b, j) => (j === 0 ? i >> 8 : j === 1 ? i & 0xff : b)),
    raw: Uint8Array.of(i & 0xff, 1, 2, 3),
    location: { entryBlockKeyMR: hash(40), height, commitTxId: hash(41) },
  }));
  return blockSet(height, {
    blocks: [
      { kind: BlockKind.directory, primary: hash(1), secondary: hash(2), raw: new Uint8Array(5000).fill(7), height },
      { kind: BlockKind.entry, primary: hash(3), secondary: hash(4), raw: Uint8Array.of(9) },
    ],
    entries,
    transactions: [{ keys: [hash(50), hash(51)], location: { assetBlockKeyMR: hash(52), height, index: 1 } }],
    commits: entries.map((e, index) => ({
      keys: [e.entryHash, e.entryHash.map((b) => b ^ 0xff)],
      location: { ecBlockHeaderHash: hash(53), height, index },
    })),
    paidCommits: entries.map((e) => ({
      entryHash: e.entryHash,
      record: {
        kind: "entry" as const,
        credits: 1,
        revealed: true,
        height,
        milliTime: 1_700_000_000_123,
        txId: hash(41),
        chainIdHash: hash(0),
      },
    })),
    chainHeads: [{ chainId: hash(60), head: { keyMR: hash(3), fullHash: hash(4), sequence: 2, height } }],
    assetBalances: [{ address: hash(61), balance: 5n }],
    ecBalances: [{ publicKey: hash(62), balance: 6n }],
    journalCarry: [{ seq: 0, bytes: Uint8Array.of(1, 2) }],
  });
}

/** A block set's record stream as the store packs it (big enough to be in flight for a while). */
async function fullBlockSetStream(s: LedgerStore): Promise<RecordStream> {
  return (await s.packBlockSet(fullBlockSet(5))).stream;
}

/** Every record of every database of the environment in `dir`, as hex, for comparing two stores. */
async function dumpAll(dir: string): Promise<Record<string, string[]>> {
  const env = openEnvironment(dir);
  const out: Record<string, string[]> = {};
  for (const [name, db] of Object.entries(openDatabases(env)))
    out[name] = [...db.getRange()]
      // each database has an id of its own (random), the rest must match
      .filter(({ key }) => !(name === "meta" && Buffer.from(key).toString("latin1") === "storeId"))
      .map(({ key, value }) => `${Buffer.from(key).toString("hex")}=${Buffer.from(value).toString("hex")}`);
  await env.close();
  return out;
}

/** A store in `dir` holding the minimal genesis block set (height 0). */
function openWithGenesis(dir: string): LedgerStore {
  const s = LedgerStore.open({ path: dir, ...LOCAL });
  s.initialize({ path: dir, ...LOCAL }, blockSet(0));
  return s;
}

function expectStoreError(fn: () => unknown, code: string): StoreError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StoreError, `expected StoreError ${code}, got ${String(e)}`);
    assert.equal(e.type.code, code);
    return e;
  }
  assert.fail(`expected StoreError ${code}`);
}

describe("store", () => {
  test("fresh store initializes; reopening reads meta, blocks and indexes back", async () => {
    const dir = tempDir();
    try {
      let s = LedgerStore.open({ path: join(dir, "db"), ...LOCAL });
      assert.equal(s.isFresh(), true);
      s.initialize(
        { path: s.path, ...LOCAL },
        blockSet(0, {
          assetBalances: [{ address: hash(7), balance: 123n }],
          ecBalances: [{ publicKey: hash(8), balance: 9n }],
          chainHeads: [{ chainId: hash(9), head: { keyMR: hash(10), fullHash: hash(11), sequence: 3, height: 0 } }],
        }),
      );
      await s.close();
      s = LedgerStore.open({ path: join(dir, "db"), ...LOCAL });
      assert.equal(s.isFresh(), false);
      assert.equal(s.savedHeight(), 0);
      assert.equal(s.openBlockStartMs(), 1_700_000_000_000);
      const byPrimary = s.block(hash(1))!;
      assert.deepEqual([byPrimary.kind, [...byPrimary.raw]], [BlockKind.directory, [0, 1, 2]]);
      assert.deepEqual([...s.block(hash(101))!.raw], [0, 1, 2], "secondary hash resolves");
      assert.deepEqual(s.blockHashAt(BlockKind.directory, 0), hash(1));
      assert.equal(s.blockHashAt(BlockKind.admin, 0), undefined);
      assert.equal(s.assetBalance(hash(7)), 123n);
      assert.equal(s.ecBalance(hash(8)), 9n);
      assert.equal(s.assetBalance(hash(70)), undefined);
      assert.deepEqual(s.chainHead(hash(9)), { keyMR: hash(10), fullHash: hash(11), sequence: 3, height: 0 });
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("a directory of another network → NETWORK_MISMATCH, never a new genesis", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      await s.close();
      const e = expectStoreError(
        () => LedgerStore.open({ path: dir, network: "TEST", networkId: networkId("TEST") }),
        "NETWORK_MISMATCH",
      );
      assert.match(e.message, /holds the LOCAL .* network, not TEST/);
      // a CUSTOM network with another name has another id
      const c = LedgerStore.open({ path: join(dir, "c"), network: "CUSTOM", networkId: networkId("CUSTOM", "one") });
      c.initialize({ path: c.path, network: "CUSTOM", networkId: networkId("CUSTOM", "one") }, blockSet(0));
      await c.close();
      expectStoreError(
        () => LedgerStore.open({ path: join(dir, "c"), network: "CUSTOM", networkId: networkId("CUSTOM", "two") }),
        "NETWORK_MISMATCH",
      );
    } finally {
      cleanup(dir);
    }
  });

  test("an unknown format version or foreign LMDB data → UNKNOWN_FORMAT", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      await s.close();
      // rewrite the format record as a future version would
      const env = open({ path: dir, maxDbs: 20 });
      const meta = env.openDB("meta", { keyEncoding: "binary", encoding: "binary" });
      const v = Buffer.alloc(4);
      v.writeUInt32BE(STORE_FORMAT_VERSION + 1);
      await meta.put(Buffer.from("format"), v);
      await env.close();
      const e = expectStoreError(() => LedgerStore.open({ path: dir, ...LOCAL }), "UNKNOWN_FORMAT");
      assert.match(e.message, new RegExp(`format ${STORE_FORMAT_VERSION + 1}`));

      const other = join(dir, "foreign");
      const fenv = open({ path: other, maxDbs: 20 });
      await fenv
        .openDB("blocks", { keyEncoding: "binary", encoding: "binary" })
        .put(Buffer.from("x"), Buffer.from("y"));
      await fenv.close();
      expectStoreError(() => LedgerStore.open({ path: other, ...LOCAL }), "UNKNOWN_FORMAT");
    } finally {
      cleanup(dir);
    }
  });

  test("a data file that is not a whole LMDB environment → CORRUPT before LMDB maps it; the file is untouched", async () => {
    const dir = tempDir();
    try {
      const s = LedgerStore.open({ path: join(dir, "good"), ...LOCAL });
      s.initialize({ path: s.path, ...LOCAL }, blockSet(0));
      await s.close();
      const good = readFileSync(join(dir, "good", "data.mdb"));
      // the store's file is sparse up to LMDB's map size (a write map): cut it within the pages in use, whose
      // last number each meta page holds (store/fileCheck.ts: 24 + 24 + 96)
      const lastPage = (m: number): number => Number(good.readBigUInt64LE(m * 4096 + 24 + 24 + 96));
      const inUse = (Math.max(lastPage(0), lastPage(1)) + 1) * 4096;
      assert.ok(inUse <= good.length, "the pages in use are within the file");
      const cases: [string, Uint8Array, RegExp][] = [
        ["garbage", Uint8Array.from({ length: good.length }, (_, i) => (i * 7919) & 0xff), /not an LMDB database file/],
        ["zeroed meta pages", Buffer.concat([Buffer.alloc(8192), good.subarray(8192)]), /not an LMDB database file/],
        ["truncated", good.subarray(0, Math.floor(inUse / 2)), /truncated/],
        ["text", Buffer.from("this is not a database\n"), /not an LMDB database file/],
      ];
      for (const [name, bytes, message] of cases) {
        const path = join(dir, name.replace(/ /g, "-"));
        mkdirSync(path);
        writeFileSync(join(path, "data.mdb"), bytes);
        const e = expectStoreError(() => LedgerStore.open({ path, ...LOCAL }), "CORRUPT");
        assert.match(e.message, message, name);
        assert.ok(e.message.includes(path), "the message names the directory");
        assert.deepEqual(readFileSync(join(path, "data.mdb")), Buffer.from(bytes), `${name}: file unchanged`);
      }
    } finally {
      cleanup(dir);
    }
  });

  test("a data file ending before its meta pages' last page number opens while it holds their root pages (LMDB counts pages taken and freed unwritten)", async () => {
    const dir = tempDir();
    try {
      const s = LedgerStore.open({ path: join(dir, "good"), ...LOCAL });
      s.initialize({ path: s.path, ...LOCAL }, blockSet(0));
      await s.close();
      const good = readFileSync(join(dir, "good", "data.mdb"));
      const pageSize = 4096;
      const pages = BigInt(good.length / pageSize);
      // meta page layout of this lmdb-js build (store/fileCheck.ts): magic at 24, the two database records'
      // roots at 24 + 24 + 40 and + 48, the last page number at 24 + 24 + 96
      const metaAt = (m: number, field: number): number => m * pageSize + 24 + 24 + field;
      for (const m of [0, 1])
        assert.equal(good.readUInt32LE(m * pageSize + 24), 0xbeefc0de, "the layout fileCheck reads");
      const withTail = Buffer.from(good);
      for (const m of [0, 1]) withTail.writeBigUInt64LE(pages + 55n, metaAt(m, 96));
      const tail = join(dir, "tail");
      mkdirSync(tail);
      writeFileSync(join(tail, "data.mdb"), withTail);
      const opened = LedgerStore.open({ path: tail, ...LOCAL });
      assert.equal(opened.savedHeight(), 0);
      await opened.close();
      // a root page past the end is a file cut short
      const cut = Buffer.from(good);
      for (const m of [0, 1]) cut.writeBigUInt64LE(pages + 3n, metaAt(m, 48 + 40));
      const cutDir = join(dir, "cut");
      mkdirSync(cutDir);
      writeFileSync(join(cutDir, "data.mdb"), cut);
      const e = expectStoreError(() => LedgerStore.open({ path: cutDir, ...LOCAL }), "CORRUPT");
      assert.match(e.message, /truncated: \d+ bytes, a root page ends at byte \d+/);
    } finally {
      cleanup(dir);
    }
  });

  test("another program's LMDB environment → UNKNOWN_FORMAT, nothing written into it", async () => {
    const dir = tempDir();
    try {
      const env = open({ path: dir, maxDbs: 4 });
      await env.put("users:1", { name: "somebody else's data" });
      await env.openDB({ name: "accounts" }).put("a", 1);
      await env.close();
      const before = readFileSync(join(dir, "data.mdb"));
      const e = expectStoreError(() => LedgerStore.open({ path: dir, ...LOCAL }), "UNKNOWN_FORMAT");
      assert.match(e.message, /another program/);
      assert.deepEqual(readFileSync(join(dir, "data.mdb")), before);
    } finally {
      cleanup(dir);
    }
  });

  test("journal: durable appends in order per height; a block set removes its records and carries others", async () => {
    const dir = tempDir();
    try {
      let s = openWithGenesis(dir);
      await Promise.all([
        s.appendJournal(1, 0, Uint8Array.of(10)),
        s.appendJournal(1, 1, Uint8Array.of(11)),
        s.appendJournal(1, 2, Uint8Array.of(12)),
      ]);
      assert.deepEqual(
        s.journalRecords(1).map((r) => [r.seq, [...r.bytes]]),
        [
          [0, [10]],
          [1, [11]],
          [2, [12]],
        ],
      );
      s.saveBlockSet(blockSet(1, { journalCarry: [{ seq: 3, bytes: Uint8Array.of(13) }] }));
      await s.removeJournalRecords(1, [0, 1, 2], 2);
      await s.close();
      s = LedgerStore.open({ path: dir, ...LOCAL });
      assert.equal(s.savedHeight(), 1);
      assert.equal(s.journalRecords(1).length, 0);
      assert.deepEqual(
        s.journalRecords(2).map((r) => [r.seq, [...r.bytes]]),
        [[3, [13]]],
      );
      // records below and above a height are removed on request
      await s.appendJournal(1, 7, Uint8Array.of(1));
      await s.appendJournal(3, 8, Uint8Array.of(1));
      assert.equal(s.removeJournalBelow(2), 1);
      assert.equal(s.journalRecords(3).length, 1);
      assert.equal(s.removeJournalAbove(2), 1);
      assert.equal(s.journalRecords(1).length, 0);
      assert.equal(s.journalRecords(3).length, 0);
      assert.equal(s.journalRecords(2).length, 1);
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("journal group commit: records appended during a commit go in the next one; flushed() waits for all", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      const first = Array.from({ length: 100 }, (_, i) => s.appendJournal(1, i, Uint8Array.of(i)));
      // appended while the first group's commit is in flight (it started on the next turn)
      await new Promise((r) => setImmediate(r));
      const second = Array.from({ length: 50 }, (_, i) => s.appendJournal(1, 100 + i, Uint8Array.of(i)));
      // one group, one promise: every appender of a group is answered by the same commit
      assert.equal(first[0], first[99]);
      assert.notEqual(first[0], second[0]);
      await s.flushed(); // without awaiting the appends themselves
      assert.equal(s.journalRecords(1).length, 150);
      await Promise.all([...first, ...second]);
      assert.deepEqual(
        s.journalRecords(1).map((r) => r.seq),
        Array.from({ length: 150 }, (_, i) => i),
      );
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("a failing block set writes nothing (one transaction)", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      // the second balance is not a u64: encoding throws midway through the write
      const bad = blockSet(1, {
        assetBalances: [
          { address: hash(1), balance: 5n },
          { address: hash(2), balance: -1n },
        ],
      });
      assert.throws(() => s.saveBlockSet(bad));
      assert.equal(s.savedHeight(), 0);
      assert.equal(s.assetBalance(hash(1)), undefined);
      assert.equal(s.blockHashAt(BlockKind.directory, 1), undefined);
      await s.close();
    } finally {
      cleanup(dir);
    }
  });
  test("point reads see exactly the stored value: a short record is refused, entry bytes and height hashes exact", async () => {
    const dir = tempDir();
    try {
      let s = LedgerStore.open({ path: join(dir, "db"), ...LOCAL });
      s.initialize({ path: s.path, ...LOCAL }, blockSet(0));
      s.saveBlockSet(fullBlockSet(1));
      await s.close();
      // a damaged chain-head record: 40 of its 72 bytes
      const env = openEnvironment(join(dir, "db"));
      openDatabases(env).chainHeads.putSync(hash(20), new Uint8Array(40).fill(5));
      await env.close();
      s = LedgerStore.open({ path: join(dir, "db"), ...LOCAL });
      // lmdb-js reads every value into one reused buffer: fill it with another record first
      assert.deepEqual(s.chainHead(hash(60)), { keyMR: hash(3), fullHash: hash(4), sequence: 2, height: 1 });
      assert.throws(() => s.chainHead(hash(20)), /chain head/, "the missing bytes are not read from the buffer");
      assert.equal(s.block(hash(1))!.raw.length, 5000);
      const e = fullBlockSet(1).entries.at(7)!;
      assert.deepEqual(s.entryRaw(e.entryHash), e.raw);
      assert.deepEqual(s.blockHashAt(BlockKind.directory, 1), hash(1));
      assert.deepEqual(s.blockHashAt(BlockKind.directory, 0), hash(1), "an exact 32-byte key for the next read");
      assert.equal(s.block(s.blockHashAt(BlockKind.directory, 1)!)!.raw.length, 5000);
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("a block set saved on the writer thread stores exactly what a synchronous save stores", async () => {
    const dir = tempDir();
    try {
      const sync = LedgerStore.open({ path: join(dir, "sync"), ...LOCAL });
      const threaded = LedgerStore.open({ path: join(dir, "threaded"), ...LOCAL });
      for (const s of [sync, threaded]) s.initialize({ path: s.path, ...LOCAL }, blockSet(0));
      sync.saveBlockSet(fullBlockSet(1));
      const packed = await threaded.packBlockSet(fullBlockSet(1));
      // blocks 2 + aliases 2 + height 1, one record per entry (with its paid commit), 2 tx keys, 2 keys per
      // commit, chain head, 2 balances, 3 meta (the carried journal record goes to the journal)
      assert.equal(packed.records, 5 + 300 + 2 + 600 + 1 + 2 + 3);
      const writeMs = await threaded.savePacked(packed);
      assert.ok(writeMs >= 0);
      // visible to this thread's reads as soon as the save resolves
      assert.equal(threaded.savedHeight(), 1);
      assert.equal(threaded.ecBalance(hash(62)), 6n);
      // the carried journal record went to the journal, under the next height, on both paths
      for (const st of [sync, threaded])
        assert.deepEqual(st.journalRecords(2), [{ height: 2, seq: 0, bytes: Uint8Array.of(1, 2) }]);
      await sync.close();
      await threaded.close();
      const a = await dumpAll(join(dir, "sync"));
      assert.equal(a.entryRecords!.length, 300);
      assert.deepEqual(await dumpAll(join(dir, "threaded")), a);
    } finally {
      cleanup(dir);
    }
  });

  test("a block set the writer thread cannot apply rejects and writes nothing; the next one is saved", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      // LMDB refuses an empty key: the put fails after others of the same transaction succeeded
      const w = new RecordStreamWriter();
      w.put("assetBalances", hash(1), new Uint8Array(8));
      w.put("meta", Buffer.from("savedHeight"), Uint8Array.of(0, 0, 0, 9));
      w.put("ecBalances", new Uint8Array(0), new Uint8Array(8));
      await assert.rejects(
        s.savePacked({
          stream: w.finish(),
          records: 3,
          busyMs: 0,
          longestTurnMs: 0,
          carry: { height: 1, records: [] },
        }),
      );
      assert.equal(s.savedHeight(), 0);
      assert.equal(s.assetBalance(hash(1)), undefined);
      await s.savePacked(await s.packBlockSet(blockSet(1)));
      assert.equal(s.savedHeight(), 1);
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("close waits for a queued writer-thread save; a save after close is refused", async () => {
    const dir = tempDir();
    try {
      let s = openWithGenesis(dir);
      const saving = s.savePacked(await s.packBlockSet(fullBlockSet(1)));
      await s.close();
      await saving;
      await assert.rejects(s.savePacked(await s.packBlockSet(blockSet(2))), /closed/);
      s = LedgerStore.open({ path: dir, ...LOCAL });
      assert.equal(s.savedHeight(), 1);
      assert.equal(s.chainHead(hash(60))?.sequence, 2);
      await s.close();
    } finally {
      cleanup(dir);
    }
  });

  test("journal records of a directory written before the journal had its own environment are moved there", async () => {
    const dir = tempDir();
    try {
      let s = openWithGenesis(dir);
      await s.close();
      // the old layout: records in the main environment's `journal` database
      const env = openEnvironment(dir);
      const legacy = openDatabases(env).journal;
      env.transactionSync(() => {
        legacy.putSync(journalKey(1, 0), Uint8Array.of(10));
        legacy.putSync(journalKey(1, 1), Uint8Array.of(11));
        legacy.putSync(journalKey(2, 0), Uint8Array.of(20));
      });
      await env.close();
      s = LedgerStore.open({ path: dir, ...LOCAL });
      assert.deepEqual(
        s.journalRecords(1).map((r) => [r.seq, [...r.bytes]]),
        [
          [0, [10]],
          [1, [11]],
        ],
      );
      assert.equal(s.journalRecords(2).length, 1);
      await s.close();
      assert.deepEqual((await dumpAll(dir)).journal, [], "the main environment's journal is empty");
    } finally {
      cleanup(dir);
    }
  });

  test("a journal without its database is refused, never replayed onto a new genesis", async () => {
    const dir = tempDir();
    try {
      const s = LedgerStore.open({ path: join(dir, "db"), ...LOCAL });
      s.initialize({ path: s.path, ...LOCAL }, blockSet(0));
      await s.appendJournal(1, 0, Uint8Array.of(1));
      await s.close();
      rmSync(join(dir, "db", "data.mdb"));
      rmSync(join(dir, "db", "lock.mdb"), { force: true });
      const e = expectStoreError(() => LedgerStore.open({ path: join(dir, "db"), ...LOCAL }), "UNKNOWN_FORMAT");
      assert.match(e.message, /holds a journal .* but no database/);
    } finally {
      cleanup(dir);
    }
  });

  test("a foreign or damaged journal environment is refused at open", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      await s.close();
      const foreign = open({ path: join(dir, "journal"), maxDbs: 4 });
      await foreign.openDB({ name: "not-ours" }).put("k", "v");
      await foreign.close();
      expectStoreError(() => LedgerStore.open({ path: dir, ...LOCAL }), "UNKNOWN_FORMAT");
      rmSync(join(dir, "journal"), { recursive: true });
      mkdirSync(join(dir, "journal"));
      writeFileSync(join(dir, "journal", "data.mdb"), Buffer.alloc(16384, 0x41));
      expectStoreError(() => LedgerStore.open({ path: dir, ...LOCAL }), "CORRUPT");
    } finally {
      cleanup(dir);
    }
  });
  // A thread stopped *inside* a write transaction is not tested: lmdb-js 3.5.6 then deadlocks that thread's own
  // teardown on its environment's write lock (kriszyp/lmdb-js#336), and the lock it keeps blocks every later write
  // of the process (docs/ledger.md §5, "The writer thread inside a transaction"). What the writer can promise is
  // tested here: a thread gone between saves is replaced, and what the earlier threads confirmed stays saved.
  test("a writer thread that dies between saves: the next save runs on a new thread, and nothing it confirmed is lost", async () => {
    const dir = tempDir();
    try {
      const s = openWithGenesis(dir);
      const writer = new BlockSetWriter({ path: dir });
      const stream = (height: number): RecordStream => {
        const w = new RecordStreamWriter();
        w.put("meta", Buffer.from("savedHeight"), Uint8Array.of(0, 0, 0, height));
        return w.finish();
      };
      // the thread, reached the only way a test can: it is private because nothing else may stop it
      const thread = (): Worker => (writer as unknown as { worker: Worker }).worker;
      await writer.write(stream(1));
      const first = thread();
      await first.terminate();
      await writer.write(stream(2)); // a new thread
      assert.notEqual(thread(), first, "the dead thread was replaced");
      await thread().terminate();
      await writer.write(await fullBlockSetStream(s)); // a big save on a third thread
      await writer.write(stream(3));
      await writer.close();
      await s.close();
      const reopened = LedgerStore.open({ path: dir, ...LOCAL });
      assert.equal(reopened.savedHeight(), 3);
      await reopened.close();
    } finally {
      cleanup(dir);
    }
  });

  test("a journal of another database is refused at open; a journal without an id is adopted", async () => {
    const dir = tempDir();
    try {
      for (const name of ["a", "b"]) {
        const s = LedgerStore.open({ path: join(dir, name), ...LOCAL });
        s.initialize({ path: s.path, ...LOCAL }, blockSet(0));
        await s.appendJournal(1, 0, Uint8Array.of(7));
        await s.close();
      }
      // b's data.mdb copied over a, a's journal left in place
      cpSync(join(dir, "b", "data.mdb"), join(dir, "a", "data.mdb"));
      rmSync(join(dir, "a", "lock.mdb"), { force: true });
      const e = expectStoreError(() => LedgerStore.open({ path: join(dir, "a"), ...LOCAL }), "UNKNOWN_FORMAT");
      assert.match(e.message, /journal in .* belongs to another database/);
      // the same directory with b's journal too: one database again
      rmSync(join(dir, "a", "journal"), { recursive: true });
      cpSync(join(dir, "b", "journal"), join(dir, "a", "journal"), { recursive: true });
      const s = LedgerStore.open({ path: join(dir, "a"), ...LOCAL });
      assert.equal(s.journalRecords(1).length, 1);
      await s.close();
      // a journal written before ids existed (none recorded) is taken as this database's
      rmSync(join(dir, "a", "journal", "store-id"));
      const again = LedgerStore.open({ path: join(dir, "a"), ...LOCAL });
      assert.equal(again.journalRecords(1).length, 1);
      await again.close();
      // and from then on it carries the id
      const third = LedgerStore.open({ path: join(dir, "a"), ...LOCAL });
      await third.close();
    } finally {
      cleanup(dir);
    }
  });
});
