/**
 * Where a data directory's bytes go (docs/performance.md §Disk): per named database of the main environment,
 * its records, pages (branch, leaf, overflow: LMDB's `mdb_stat`), the bytes its keys and values hold, and
 * the page fill (those bytes plus LMDB's 8-byte node header and 2-byte pointer per record, over the leaf pages'
 * room); then the pages in use against the file's allocated blocks (the rest: free pages and LMDB's slack).
 * Read-only; run it on a stopped node's directory.
 *
 *   node dist/bench/storeStats.js DIR/local/db [--per N]   # N: divide the bytes by N (e.g. the stored entries)
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { open } from "lmdb";

/** LMDB's per-record cost on a leaf page: the node header (8) and its pointer (2). */
const NODE_OVERHEAD = 10;
/** LMDB's page header, bytes. */
const PAGE_HEADER = 24;

interface DbStat {
  pageSize: number;
  treeDepth: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { per: { type: "string" } } });
const dir = positionals[0];
if (dir === undefined) {
  process.stderr.write("usage: storeStats.js <environment directory> [--per N]\n");
  process.exit(2);
}
const per = Number(values.per ?? "0");
const env = open<Uint8Array, Uint8Array>({
  path: dir,
  readOnly: true,
  maxDbs: 64,
  keyEncoding: "binary",
  encoding: "binary",
});
const names = [...env.getKeys()].map((k) => Buffer.from(k).toString("latin1").replace(/\0$/, ""));
const rows: string[] = [];
let pagesInUse = 0;
let pageSize = 4096;
const perCol = per > 0 ? " | bytes per entry" : "";
rows.push(
  `| database | records | depth | branch | leaf | overflow | MiB in pages | key+value MiB | leaf fill${perCol} |`,
);
rows.push(`|---|---|---|---|---|---|---|---|---|${per > 0 ? "---|" : ""}`);
for (const name of names) {
  const db = env.openDB<Uint8Array, Uint8Array>(name, { keyEncoding: "binary", encoding: "binary" });
  const s = db.getStats() as DbStat;
  pageSize = s.pageSize;
  // bytes the leaf pages hold (records, with LMDB's per-record cost) and the keys' and values' own bytes
  let inline = 0;
  let kv = 0;
  for (const { key, value } of db.getRange({})) {
    kv += key.length + value.length;
    // a value too large for a leaf page goes to overflow pages; the leaf keeps its key and page number
    const overflow = key.length + value.length > (pageSize - PAGE_HEADER) / 2;
    inline += NODE_OVERHEAD + key.length + (overflow ? 8 : value.length);
  }
  const pages = s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages;
  pagesInUse += pages;
  const bytes = pages * pageSize;
  const fill = s.treeLeafPageCount > 0 ? inline / (s.treeLeafPageCount * (pageSize - PAGE_HEADER)) : 0;
  rows.push(
    `| ${name} | ${s.entryCount} | ${s.treeDepth} | ${s.treeBranchPageCount} | ${s.treeLeafPageCount} | ${s.overflowPages} | ${(bytes / 2 ** 20).toFixed(1)} | ${(kv / 2 ** 20).toFixed(1)} | ${(fill * 100).toFixed(0)} %${per > 0 ? ` | ${(bytes / per).toFixed(0)}` : ""} |`,
  );
}
const root = env.getStats() as DbStat & { free?: { entryCount?: number }; lastPageNumber?: number };
const file = statSync(join(dir, "data.mdb"));
const allocated = file.blocks * 512;
process.stdout.write(`${rows.join("\n")}\n\n`);
process.stdout.write(
  `pages in the databases: ${pagesInUse} (${((pagesInUse * pageSize) / 2 ** 20).toFixed(1)} MiB); ` +
    `last page ${root.lastPageNumber ?? "?"}; data.mdb allocated ${(allocated / 2 ** 20).toFixed(1)} MiB ` +
    `(length ${(file.size / 2 ** 20).toFixed(0)} MiB, sparse); free-list records ${root.free?.entryCount ?? "?"}\n`,
);
if (per > 0)
  process.stdout.write(
    `per entry: databases ${((pagesInUse * pageSize) / per).toFixed(0)} B, data.mdb allocated ${(allocated / per).toFixed(0)} B\n`,
  );
await env.close();
