/**
 * Start-up independent of the store's size (docs/ledger.md §5): the O(depth) look at each B-tree's first and
 * last spine before LMDB maps the file (store/pageCheck.ts), and the background scrub that reads every other
 * page in a child process, resumable, flagging the store when a page is damaged (store/scrub.ts). Real LMDB
 * files damaged for real: a zeroed leaf page in the middle of a database (the start does not read it, the scrub
 * finds it) and at the end of one (the start refuses it).
 */
import assert from "node:assert/strict";
import { closeSync, cpSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Registry } from "prom-client";
import { registerScrubMetrics } from "../../../src/monitor/scrubMetrics.js";
import { networkId } from "../../../src/protocol/network.js";
import { StoreError } from "../../../src/store/errors.js";
import { BlockKind } from "../../../src/store/keys.js";
import { checkTreeSpines } from "../../../src/store/pageCheck.js";
import { SCRUB_FILE, StoreScrub } from "../../../src/store/scrub.js";
import { type BlockSetWrite, LedgerStore } from "../../../src/store/store.js";
import { noOtherRecords } from "../../support/blockSetWrites.js";
import { waitFor } from "../../support/waitFor.js";
import { cleanup, MemoryLog, tempDir } from "../ledger/harness.js";

const LOCAL = { network: "LOCAL" as const, networkId: networkId("LOCAL") };
const PAGE = 4096;
/** Entries of the filled store: enough for tens of leaf pages in `entryRecords` (a tree of depth 2 or more). */
const ENTRIES = 4000;
/** Bytes of each stored entry. */
const ENTRY_VALUE = 5;
/**
 * Value bytes of its record (entryRecord.ts: flags, location, the commit's txid as no paid commit names it, the
 * entry): a leaf node of `entryRecords` is told by its key (32) and value size.
 */
const ENTRY_RECORD_VALUE = 1 + 36 + 32 + ENTRY_VALUE;

function set(height: number, entries: BlockSetWrite["entries"] = []): BlockSetWrite {
  return {
    height,
    openBlockStartMs: 1_700_000_000_000 + height,
    blocks: [
      {
        kind: BlockKind.directory,
        primary: new Uint8Array(32).fill(height + 1),
        raw: Uint8Array.of(height, 1, 2),
        height,
      },
    ],
    ...noOtherRecords(),
    entries,
  };
}

/** A store of genesis plus one block set of ENTRIES entries, written in one transaction (no stale page copies). */
async function filledStore(dir: string): Promise<string> {
  const path = join(dir, "db");
  const s = LedgerStore.open({ path, ...LOCAL });
  s.initialize({ path, ...LOCAL }, set(0));
  const entries = Array.from({ length: ENTRIES }, (_, i) => {
    const entryHash = new Uint8Array(32).fill(0x5a);
    new DataView(entryHash.buffer).setUint32(0, i);
    return {
      entryHash,
      raw: new Uint8Array(ENTRY_VALUE).fill(i & 0xff),
      location: { entryBlockKeyMR: new Uint8Array(32), height: 1, commitTxId: new Uint8Array(32) },
    };
  });
  s.saveBlockSet(set(1, entries));
  await s.close();
  return path;
}

/** The leaf pages of `entryRecords` in `data.mdb` (own page number, leaf flag, first node's sizes), in key order. */
function entryLeaves(path: string): number[] {
  const file = readFileSync(join(path, "data.mdb"));
  const leaves: { pgno: number; first: number }[] = [];
  for (let p = 2; (p + 1) * PAGE <= file.length; p++) {
    const page = file.subarray(p * PAGE, (p + 1) * PAGE);
    if (page.readBigUInt64LE(0) !== BigInt(p) || (page.readUInt16LE(18) & 0x07) !== 0x02) continue;
    if (page.readUInt16LE(20) === 0) continue;
    const node = 24 + page.readUInt16LE(24);
    if (page.readUInt16LE(node + 6) !== 32 || page.readUInt16LE(node) !== ENTRY_RECORD_VALUE) continue;
    leaves.push({ pgno: p, first: page.readUInt32BE(node + 8) });
  }
  return leaves.sort((a, b) => a.first - b.first).map((l) => l.pgno);
}

function zeroPage(path: string, pgno: number): void {
  const fd = openSync(join(path, "data.mdb"), "r+");
  writeSync(fd, Buffer.alloc(PAGE), 0, PAGE, pgno * PAGE);
  closeSync(fd);
}

function expectCorrupt(f: () => unknown, message: RegExp): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof StoreError, String(e));
    assert.equal(e.type.code, "CORRUPT");
    assert.match(e.message, message);
    return true;
  });
}

function scrubOf(path: string, log: MemoryLog, damages: string[]): StoreScrub {
  return new StoreScrub(
    { paths: [path, join(path, "journal")], intervalMs: 3_600_000 },
    { log, now: () => 1_800_000_000_000, onDamage: (r) => damages.push(r) },
  );
}

describe("start-up checks and the background scrub", () => {
  test("the start reads a few pages per database whatever the size; a pass reads every record and is saved", async () => {
    const dir = tempDir();
    try {
      const path = await filledStore(dir);
      const leaves = entryLeaves(path);
      assert.ok(leaves.length >= 20, `entries spans ${leaves.length} leaf pages`);
      const spines = checkTreeSpines(path);
      assert.ok(spines.pages < leaves.length, `the start read ${spines.pages} pages, fewer than entries' leaves alone`);
      const log = new MemoryLog();
      const damages: string[] = [];
      const scrub = scrubOf(path, log, damages);
      scrub.start();
      await waitFor("a complete pass", () => scrub.status().passes === 1 || undefined, 120_000);
      await scrub.stop();
      assert.deepEqual(damages, []);
      const status = scrub.status();
      // both environments' records: at least the entries' (one record each)
      assert.ok(status.recordsWalked >= ENTRIES, `walked ${status.recordsWalked}`);
      assert.equal(status.lastCompleteMs, 1_800_000_000_000);
      const saved = JSON.parse(readFileSync(join(path, SCRUB_FILE), "utf8")) as Record<string, unknown>;
      // stopped: no `running` mark left (one would make the next start read every page again)
      assert.deepEqual(saved, { passes: 1, env: 0, db: "", lastCompleteMs: 1_800_000_000_000 });
      assert.ok(log.lines.some((l) => l.msg === "store scrub progress" && l.fields?.database === "entryRecords"));
      const registry = new Registry();
      registerScrubMetrics(registry, scrub);
      const text = await registry.metrics();
      assert.match(text, /^ledgerd_store_scrub_passes_total 1$/m);
      assert.match(text, /^ledgerd_store_scrub_progress_ratio 1$/m);
      assert.match(text, /^ledgerd_store_scrub_damaged 0$/m);
      assert.match(text, /^ledgerd_store_scrub_last_complete_timestamp_seconds 1800000000$/m);
      assert.match(text, new RegExp(`^ledgerd_store_scrub_records_total ${status.recordsWalked}$`, "m"));
    } finally {
      cleanup(dir);
    }
  });

  test("a pass cut short resumes at the database it was in", async () => {
    const dir = tempDir();
    try {
      const path = await filledStore(dir);
      // as a stop after `entryRecords` leaves it: the next pass begins after it
      writeFileSync(
        join(path, SCRUB_FILE),
        JSON.stringify({ passes: 3, env: 0, db: "entryRecords", lastCompleteMs: 5 }),
      );
      const log = new MemoryLog();
      const scrub = scrubOf(path, log, []);
      scrub.start();
      await waitFor("the resumed pass", () => scrub.status().passes === 4 || undefined, 120_000);
      await scrub.stop();
      const walked = log.lines.filter((l) => l.msg === "store scrub progress").map((l) => String(l.fields?.database));
      assert.ok(!walked.includes("commitPlaces") && !walked.includes("entryRecords"), walked.join(","));
      assert.ok(walked.includes("heights") && walked.includes("meta"), walked.join(","));
      const started = log.lines.find((l) => l.msg === "store scrub started");
      assert.match(String(started?.fields?.resumedAfter), /entryRecords/);
      // a run that ended without a stop (a crash: maybe a read of a page this pass had walked) starts over
      writeFileSync(
        join(path, SCRUB_FILE),
        JSON.stringify({ passes: 4, env: 0, db: "entryRecords", lastCompleteMs: 5, running: true }),
      );
      const again = new MemoryLog();
      const after = scrubOf(path, again, []);
      after.start();
      await waitFor("the pass after a crash", () => after.status().passes === 5 || undefined, 120_000);
      await after.stop();
      const all = again.lines.filter((l) => l.msg === "store scrub progress").map((l) => String(l.fields?.database));
      assert.ok(all.includes("commitPlaces") && all.includes("entryRecords"), all.join(","));
      assert.equal(again.lines.find((l) => l.msg === "store scrub started")?.fields?.resumedAfter, undefined);
    } finally {
      cleanup(dir);
    }
  });

  test("a damaged page in the middle of a database: the start opens, the scrub flags it, writes are refused, the next start refuses", async () => {
    const dir = tempDir();
    try {
      const path = await filledStore(dir);
      const leaves = entryLeaves(path);
      zeroPage(path, leaves[Math.floor(leaves.length / 2)]!);
      const store = LedgerStore.open({ path, ...LOCAL, verify: true });
      try {
        const log = new MemoryLog();
        const damages: string[] = [];
        const scrub = new StoreScrub(
          { paths: [path, join(path, "journal")] },
          {
            log,
            now: Date.now,
            onDamage: (r) => {
              damages.push(r);
              store.markDamaged(r);
            },
          },
        );
        scrub.start();
        await waitFor("the scrub's verdict", () => damages.length > 0 || undefined, 120_000);
        await scrub.stop();
        assert.match(damages[0]!, /database entryRecords: .*walk read \d+ of its 4000 records|crashed LMDB/);
        assert.equal(scrub.status().damaged, damages[0]);
        assert.ok(log.lines.some((l) => l.level === "error" && /damaged page/.test(l.msg)));
        expectCorrupt(() => store.assertWritable(), /background scrub found a damaged page.*writes are refused/);
        // reads of the pages it did not touch go on
        assert.equal(store.savedHeight(), 1);
      } finally {
        await store.close();
      }
      expectCorrupt(() => LedgerStore.open({ path, ...LOCAL, verify: true }), /background scrub found a damaged page/);
      assert.ok(existsSync(join(path, SCRUB_FILE)));
    } finally {
      cleanup(dir);
    }
  });

  test("a damaged page on a database's first or last spine, or its root: refused at start, before LMDB maps it", async () => {
    const dir = tempDir();
    try {
      const pristine = await filledStore(dir);
      const leaves = entryLeaves(pristine);
      for (const [name, pgno] of [
        ["first leaf", leaves[0]!],
        ["last leaf", leaves[leaves.length - 1]!],
      ] as const) {
        const path = join(dir, name.replace(" ", "-"));
        cpSync(pristine, path, { recursive: true });
        zeroPage(path, pgno);
        const before = readFileSync(join(path, "data.mdb"));
        expectCorrupt(
          () => LedgerStore.open({ path, ...LOCAL, verify: true }),
          new RegExp(`database entryRecords, page ${pgno}: it names itself page 0`),
        );
        assert.ok(readFileSync(join(path, "data.mdb")).equals(before), `${name}: data.mdb untouched`);
      }
    } finally {
      cleanup(dir);
    }
  });
});
