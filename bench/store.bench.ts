/**
 * lmdb-js as the store uses it (raw byte keys and values, DESIGN §4): random reads, batched writes in
 * one transaction, and one durable commit per write — the cost a journal write pays before an answer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";
import { sha256 } from "../src/protocol/hash.js";
import { Journal } from "../src/store/journal.js";
import type { BenchRow } from "./row.js";
import { type BenchCase, guarded, runCases, type SkippedCase } from "./suite.js";

/** Keys preloaded before reads: enough that the tree is 3 levels deep, small enough to load in < 1 s. */
export const STORE_KEYS = 100_000;
/** Value size, bytes: about an entry-block index record. */
export const STORE_VALUE_BYTES = 128;
/** Puts per write transaction in the batched case (a block close writes thousands). */
export const STORE_BATCH = 1000;
/** Journal appends in flight in the group-commit case: the load generator's default concurrency. */
export const JOURNAL_APPENDERS = 64;

export async function storeRows(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-bench-lmdb-"));
  let db: RootDatabase<Buffer, Buffer> | undefined;
  let journal: Journal | undefined;
  try {
    const keys: Buffer[] = Array.from({ length: STORE_KEYS }, (_, i) =>
      Buffer.from(sha256(Uint8Array.of(i & 0xff, (i >> 8) & 0xff, i >> 16))),
    );
    const value = Buffer.alloc(STORE_VALUE_BYTES, 0x5a);
    const cases: (BenchCase | SkippedCase)[] = [];
    cases.push(
      await guarded(
        "store.lmdb.get",
        `lmdb random get (${STORE_KEYS / 1000} k keys, ${STORE_VALUE_BYTES} B values)`,
        () => {
          db = open<Buffer, Buffer>({ path: dir, keyEncoding: "binary", encoding: "binary", compression: false });
          const d = db;
          d.transactionSync(() => {
            for (const k of keys) d.putSync(k, value);
          });
          let i = 0;
          return {
            fn: () => {
              // Keys are hashes, so index order is random tree order; the prime stride also defeats the CPU cache.
              i = (i + 7919) % STORE_KEYS;
              const v = d.getBinary(keys[i]!);
              if (v === undefined) throw new Error("a stored key was not found");
              return v;
            },
          };
        },
      ),
    );
    let batch = 0;
    cases.push(
      await guarded(
        "store.lmdb.put.batched",
        `lmdb put, ${STORE_BATCH} random existing keys per transaction (durable commit)`,
        () => {
          if (db === undefined) throw new Error("the database did not open");
          const d = db;
          return {
            fn: () => {
              batch++;
              d.transactionSync(() => {
                for (let k = 0; k < STORE_BATCH; k++) d.putSync(keys[(batch * STORE_BATCH + k) % STORE_KEYS]!, value);
              });
            },
            itemsPerOp: STORE_BATCH,
            itemUnit: "put",
            note: "random keys: each put copies a different 4 KiB page (copy-on-write) — blocks and entries by hash",
          };
        },
      ),
    );
    let next = 0;
    cases.push(
      await guarded(
        "store.lmdb.put.append",
        `lmdb put, ${STORE_BATCH} ascending new keys per transaction (durable commit)`,
        () => {
          if (db === undefined) throw new Error("the database did not open");
          const d = db;
          const key = Buffer.alloc(9, 0xff); // 0xff ‖ u64 BE counter: after every hash key, in order
          return {
            fn: () => {
              d.transactionSync(() => {
                for (let k = 0; k < STORE_BATCH; k++) {
                  key.writeBigUInt64BE(BigInt(next++), 1);
                  d.putSync(key, value);
                }
              });
            },
            itemsPerOp: STORE_BATCH,
            itemUnit: "put",
            note: "appends fill one page after another (height indexes, journal)",
          };
        },
      ),
    );
    let single = 0;
    cases.push(
      await guarded("store.lmdb.put.single", "lmdb put, one durable commit each (await put + flushed)", () => {
        if (db === undefined) throw new Error("the database did not open");
        const d = db;
        return {
          fn: async () => {
            await d.put(keys[single++ % STORE_KEYS]!, value);
            await d.flushed;
          },
          note: "bounded by the disk's fsync latency",
        };
      }),
    );
    let seq = 0;
    cases.push(
      await guarded(
        "store.journal.group",
        `journal: ${JOURNAL_APPENDERS} appends of 140 bytes at once, answered by their group commit (store/journal.ts)`,
        () => {
          journal = Journal.open(join(dir, "node"), { verify: false });
          const j = journal;
          const record = new Uint8Array(140).fill(0x5a);
          return {
            fn: async () => {
              const all: Promise<void>[] = [];
              for (let k = 0; k < JOURNAL_APPENDERS; k++) all.push(j.append(1, seq++, record));
              await Promise.all(all);
            },
            itemsPerOp: JOURNAL_APPENDERS,
            itemUnit: "append",
            note: "one LMDB transaction and one flush for the whole group: what 64 writes in flight share",
          };
        },
      ),
    );
    return await runCases("store", cases);
  } finally {
    await (db as RootDatabase<Buffer, Buffer> | undefined)?.close();
    await (journal as Journal | undefined)?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
