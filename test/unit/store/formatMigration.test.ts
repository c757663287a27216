/**
 * The format 1 → 2 migration's edges (formatMigration.ts), beside entryRecords.test.ts's whole migrations, written
 * against the survivors of its first mutation run (docs/testing.md §Mutation testing): which format records it
 * leaves alone, each damaged format-1 directory refused CORRUPT with what is wrong (and left format 1), and its log
 * lines — the start line whole, one progress line per 5 s of the clock at most with what has moved, the end line's
 * duration. Real LMDB directories in a temp directory, made format 1 by the migration's inverse (entryRecordsFixture).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { encodeEntryRecord } from "../../../src/store/entryRecord.js";
import { openBinaryDb, openDatabases, openEnvironment } from "../../../src/store/environment.js";
import { StoreError } from "../../../src/store/errors.js";
import { migrateFormat } from "../../../src/store/formatMigration.js";
import { LEGACY_DB_NAMES, META_KEYS, u32Bytes } from "../../../src/store/keys.js";
import { LedgerStore } from "../../../src/store/store.js";
import { cleanup, tempDir } from "../ledger/harness.js";
import { dump, filled, hash, LOCAL, names, paid, toFormat1 } from "./entryRecordsFixture.js";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const FORMAT_KEY = Buffer.from(META_KEYS.format, "ascii");

/** Run migrateFormat on the directory at `path` directly; its log lines. */
async function migrate(path: string, options: Parameters<typeof migrateFormat>[2] = {}): Promise<string[]> {
  const env = openEnvironment(path);
  const lines: string[] = [];
  try {
    migrateFormat({ path, env, dbs: openDatabases(env) }, (l) => lines.push(l), options);
  } finally {
    await env.close();
  }
  return lines;
}

async function formatOf(path: string): Promise<string | undefined> {
  const env = openEnvironment(path);
  const v = openDatabases(env).meta.getBinary(FORMAT_KEY);
  await env.close();
  return v === undefined ? undefined : hex(v);
}

/** Change raw records of a directory in one transaction. */
async function edit(
  path: string,
  change: (
    dbs: Record<keyof typeof LEGACY_DB_NAMES, ReturnType<typeof openBinaryDb>>,
    meta: ReturnType<typeof openDatabases>["meta"],
  ) => void,
): Promise<void> {
  const env = openEnvironment(path);
  const legacy = Object.fromEntries(
    Object.entries(LEGACY_DB_NAMES).map(([k, n]) => [k, openBinaryDb(env, n)]),
  ) as Record<keyof typeof LEGACY_DB_NAMES, ReturnType<typeof openBinaryDb>>;
  const meta = openDatabases(env).meta;
  env.transactionSync(() => change(legacy, meta));
  await env.close();
}

/** A format-1 directory of entryRecordsFixture's heights, with `damage` done to its format-1 records. */
async function damaged(dir: string, damage: Parameters<typeof edit>[1]): Promise<string> {
  const path = join(dir, "db");
  await filled(path, false);
  await toFormat1(path);
  await edit(path, damage);
  return path;
}

function corrupt(path: string, info: string): (e: unknown) => boolean {
  return (e: unknown) =>
    e instanceof StoreError &&
    e.type.code === "CORRUPT" &&
    e.type.path === path &&
    e.type.info === `format 1 → 2 migration: ${info}`;
}

describe("format 1 → 2 migration: what it leaves alone", () => {
  test("a format record that is not exactly format 1 (another length, another number), or none: nothing done, nothing created", async () => {
    const dir = tempDir();
    try {
      const path = join(dir, "db");
      await filled(path, false);
      const before = await names(path);
      for (const value of [Uint8Array.of(0, 0, 0, 1, 0), Uint8Array.of(0, 0, 1), u32Bytes(3), u32Bytes(2)]) {
        await edit(path, (_legacy, meta) => meta.putSync(FORMAT_KEY, value));
        // (edit opened the legacy databases: drop them again so that nothing is there for the migration to find)
        await edit(path, (legacy) => {
          for (const db of Object.values(legacy)) db.dropSync();
        });
        const want = await dump(path);
        assert.deepEqual(await migrate(path), [], hex(value));
        assert.deepEqual(await dump(path), want, hex(value));
        assert.equal(await formatOf(path), hex(value));
      }
      await edit(path, (legacy, meta) => {
        meta.removeSync(FORMAT_KEY);
        for (const db of Object.values(legacy)) db.dropSync();
      });
      assert.deepEqual(await migrate(path), []);
      assert.deepEqual(await names(path), before);
    } finally {
      cleanup(dir);
    }
  });
});

describe("format 1 → 2 migration: a damaged format-1 directory is refused CORRUPT and stays format 1", () => {
  test("an entry without its location record", async () => {
    const dir = tempDir();
    try {
      const path = await damaged(dir, (legacy) => legacy.entryLocations.removeSync(hash(2, 5)));
      assert.throws(
        () => LedgerStore.open({ path, ...LOCAL }),
        corrupt(path, `entry ${hex(hash(2, 5))} has no location record`),
      );
      assert.equal(await formatOf(path), hex(u32Bytes(1)));
    } finally {
      cleanup(dir);
    }
  });
  test("an entry location without its entry", async () => {
    const dir = tempDir();
    try {
      const stray = hash(9, 1);
      const path = await damaged(dir, (legacy) => legacy.entryLocations.putSync(stray, new Uint8Array(68)));
      assert.throws(
        () => LedgerStore.open({ path, ...LOCAL }),
        corrupt(path, `an entry location without its entry (${hex(stray)})`),
      );
      assert.equal(await formatOf(path), hex(u32Bytes(1)));
    } finally {
      cleanup(dir);
    }
  });
  test("a commit location of 39 or 41 bytes", async () => {
    for (const length of [39, 41]) {
      const dir = tempDir();
      try {
        const key = hash(17, 3);
        const path = await damaged(dir, (legacy) => legacy.commitLocations.putSync(key, new Uint8Array(length)));
        assert.throws(
          () => LedgerStore.open({ path, ...LOCAL }),
          corrupt(path, `the commit location ${hex(key)} has ${length} bytes, not 40`),
        );
        assert.equal(await formatOf(path), hex(u32Bytes(1)));
      } finally {
        cleanup(dir);
      }
    }
  });
});

describe("format 1 → 2 migration: its log lines", () => {
  test("the start line, a progress line at most every 5 s of the clock with what moved, the end line's duration", async () => {
    const dir = tempDir();
    // The clock the migration reads (performance.now) moved on by 5 s after every odd chunk and not after the even ones:
    // a line after each odd chunk, none after an even one (unless that chunk of 50 records took 5 s itself).
    const realNow = performance.now.bind(performance);
    let offset = 0;
    let chunks = 0;
    try {
      const path = join(dir, "db");
      await filled(path, false);
      // 60 more commits never revealed: 61 paid commits without an entry, moved in two chunks
      const env = openEnvironment(path);
      const dbs = openDatabases(env);
      env.transactionSync(() => {
        for (let i = 0; i < 60; i++)
          dbs.entryRecords.putSync(hash(30, i), encodeEntryRecord({ paid: paid(2, hash(31, i)) }));
      });
      await env.close();
      const want = await dump(path);
      await toFormat1(path);
      const t0 = realNow();
      performance.now = () => realNow() + offset;
      const lines = await migrate(path, {
        chunk: 50,
        afterChunk: () => {
          if (++chunks % 2 === 1) offset += 5000;
        },
      });
      performance.now = realNow;
      const elapsed = (realNow() - t0 + offset) / 1000;
      assert.equal(
        lines[0],
        `store ${path}: format 1 → 2, moving 360 entries, 301 paid commits and 480 commit locations into one record per entry hash (resumable: a stop goes on at the next start)`,
      );
      // chunks 1–8 move the 360 entries (50 each, the 8th 10) with 240 of the paid commits, 9–10 the 61 paid commits
      // left without an entry (50, 11), 11–20 the 480 commit locations: a line after chunks 1, 3, 5, 7, 9, 11, …, 19
      const moved = [
        "50 of 360 entries",
        "150 of 360 entries",
        "250 of 360 entries",
        "350 of 360 entries",
        "290 of 301 paid commits",
        "50 of 480 commit locations",
        "150 of 480 commit locations",
        "250 of 480 commit locations",
        "350 of 480 commit locations",
        "450 of 480 commit locations",
      ];
      const progress = lines.slice(1, -1);
      assert.equal(chunks, 20);
      assert.deepEqual(
        progress.map((l) => l.replace(/, \d+ s$/, "")),
        moved.map((m) => `store ${path}: format migration, ${m}`),
      );
      // each line's seconds: the clock since the start, at least the 5 s steps before it, at most the whole run
      progress.forEach((l, i) => {
        const s = Number(/, (\d+) s$/.exec(l)?.[1]);
        assert.ok(s >= 5 * (i + 1) && s <= Math.ceil(elapsed), `${l} (run: ${elapsed.toFixed(1)} s)`);
      });
      const end = /^store (.*): format 2, migrated in (\d+\.\d) s$/.exec(lines.at(-1) ?? "");
      assert.ok(end !== null && end[1] === path, lines.at(-1));
      assert.ok(Number(end[2]) >= 50 && Number(end[2]) <= elapsed + 0.1, `${end[2]} s of ${elapsed.toFixed(1)} s`);
      assert.deepEqual(await dump(path), want);
    } finally {
      performance.now = realNow;
      cleanup(dir);
    }
  });
});
