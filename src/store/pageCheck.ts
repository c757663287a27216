/**
 * The start-up look at an environment's B-trees, in JavaScript, before LMDB maps the file: for the newer meta
 * page (the one LMDB opens), the root database's tree and every named database's tree are followed from
 * their root along their first and last child down to the leaves, and every page on the way must be what
 * its parent says: its own page number, a branch or a leaf as its depth says, its node offsets and sizes
 * within the page, its children's page numbers within the file. A few pages per database, whatever the size
 * of the store: O(depth), ~2 × 4 pages per database at 10,000,000 entries.
 *
 * Why: LMDB trusts its pages; a damaged one crashes the process on first touch. The pages a start touches
 * first are these spines (the names, `meta`, the tip's heights and blocks sit at either end or near a root),
 * so a file damaged there (garbage over the pages, a copy cut short) is a `CORRUPT` refusal before LMDB
 * reads it. The rest of the pages are read by the background scrub (scrub.ts) — this replaced the full
 * read-through of every page at each start (docs/ledger.md §5).
 *
 * Page layout of the LMDB 1.0 in lmdb-js (liblmdb/mdb.c, MDB_page_header and MDB_node): header 24 bytes =
 * page number u64, txn id u64, pad u16, flags u16, lower u16, upper u16; then the node offsets u16 (relative
 * to the header's end, as `lower` and `upper`); a node = lo u16, hi u16, flags u16, key size u16, key, data.
 * A branch node's child page number is lo | hi << 16 | flags << 32; a leaf's data size is lo | hi << 16, its
 * data an overflow page number (u64) when F_BIGDATA, a database record (48 bytes) when F_SUBDATA.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { StoreError } from "./errors.js";
import { newerMeta } from "./fileCheck.js";

const HEADER = 24;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
/** A node's header: lo, hi, flags, key size. */
const NODE_HEADER = 8;
/** Bytes of a database record (MDB_db): pad u32, flags u16, depth u16, 4 × u64 counts, root u64. */
const DB_RECORD = 48;
const DB_DEPTH_AT = 6;
const DB_ROOT_AT = 40;
/** LMDB's P_INVALID: an empty database's root. */
const NO_ROOT = 0xffff_ffff_ffff_ffffn;
/** Deepest tree accepted: LMDB's own CURSOR_STACK is 32. */
const MAX_DEPTH = 32;

/** What the check read, for the start-up log. */
export interface SpineReport {
  databases: number;
  pages: number;
}

/**
 * Follow every tree of the environment in `dir` along its first and last child (module comment). Throws
 * StoreError CORRUPT naming the page and what was wrong. A missing `data.mdb` is fine (a new environment).
 * checkDataFile must have passed first (the meta pages parse).
 */
export function checkTreeSpines(dir: string): SpineReport {
  const file = join(dir, "data.mdb");
  const meta = newerMeta(dir);
  if (meta === undefined) return { databases: 0, pages: 0 };
  const fd = openSync(file, "r");
  try {
    const spines = new Spines(dir, fd, fstatSync(fd).size, meta.pageSize);
    // the root database (our databases' names) is the meta page's second record
    if (meta.mainRoot !== NO_ROOT) spines.tree("(names)", meta.mainRoot, meta.mainDepth, true);
    return { databases: spines.databases, pages: spines.pages };
  } finally {
    closeSync(fd);
  }
}

class Spines {
  databases = 0;
  pages = 0;
  private readonly lastPage: bigint;

  constructor(
    private readonly dir: string,
    private readonly fd: number,
    fileSize: number,
    private readonly pageSize: number,
  ) {
    this.lastPage = BigInt(Math.floor(fileSize / pageSize)) - 1n;
  }

  private corrupt(db: string, pgno: bigint, what: string): StoreError {
    return new StoreError({
      code: "CORRUPT",
      path: this.dir,
      info: `the LMDB database is damaged: database ${db}, page ${pgno}: ${what}`,
    });
  }

  private read(db: string, pgno: bigint): Buffer {
    if (pgno < 2n || pgno > this.lastPage)
      throw this.corrupt(db, pgno, `page number outside the file's pages 2..${this.lastPage}`);
    const page = Buffer.alloc(this.pageSize);
    const got = readSync(this.fd, page, 0, this.pageSize, Number(pgno) * this.pageSize);
    if (got !== this.pageSize) throw this.corrupt(db, pgno, "the file ends inside the page");
    this.pages++;
    return page;
  }

  /**
   * Check the tree of database `db` whose root is `root` (`depth` levels): each level's first and last page.
   * `names`: the root database, whose leaves name the others (each followed in turn).
   */
  tree(db: string, root: bigint, depth: number, names: boolean): void {
    this.databases++;
    if (depth < 1 || depth > MAX_DEPTH) throw this.corrupt(db, root, `tree depth ${depth}`);
    const ends: bigint[] = [root];
    for (let level = 1; level <= depth; level++) {
      const leaf = level === depth;
      const next: bigint[] = [];
      for (const pgno of new Set(ends)) {
        const page = this.read(db, pgno);
        const nodes = this.nodes(db, pgno, page, leaf ? P_LEAF : P_BRANCH);
        if (!leaf) {
          // the first and last children: the spines
          for (const at of new Set([nodes[0]!, nodes[nodes.length - 1]!])) next.push(this.child(db, pgno, page, at));
          continue;
        }
        for (const at of nodes) this.leafNode(db, pgno, page, at, names);
      }
      ends.length = 0;
      // one spine per side: the leftmost child of the leftmost page, the rightmost of the rightmost
      ends.push(next[0] ?? root, next[next.length - 1] ?? root);
    }
  }

  /** The node offsets of a page of `kind`, each checked to lie within the page. */
  private nodes(db: string, pgno: bigint, page: Buffer, kind: number): number[] {
    const own = page.readBigUInt64LE(0);
    if (own !== pgno) throw this.corrupt(db, pgno, `it names itself page ${own}`);
    const flags = page.readUInt16LE(18);
    if ((flags & (P_BRANCH | P_LEAF | P_OVERFLOW)) !== kind)
      throw this.corrupt(db, pgno, `flags 0x${flags.toString(16)}, expected a ${kind === P_LEAF ? "leaf" : "branch"}`);
    const lower = page.readUInt16LE(20);
    const upper = page.readUInt16LE(22);
    const room = this.pageSize - HEADER;
    if (lower % 2 !== 0 || lower > upper || upper > room)
      throw this.corrupt(db, pgno, `free space bounds ${lower}..${upper} outside the page`);
    const count = lower / 2;
    if (count === 0) throw this.corrupt(db, pgno, "no nodes");
    const offsets: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = page.readUInt16LE(HEADER + 2 * i);
      if (at < upper || at + NODE_HEADER > room) throw this.corrupt(db, pgno, `node ${i} at ${at} outside the page`);
      const keySize = page.readUInt16LE(HEADER + at + 6);
      if (at + NODE_HEADER + keySize > room) throw this.corrupt(db, pgno, `node ${i}'s key runs past the page`);
      offsets.push(HEADER + at);
    }
    return offsets;
  }

  private child(db: string, pgno: bigint, page: Buffer, at: number): bigint {
    const child =
      BigInt(page.readUInt16LE(at)) |
      (BigInt(page.readUInt16LE(at + 2)) << 16n) |
      (BigInt(page.readUInt16LE(at + 4)) << 32n);
    if (child < 2n || child > this.lastPage)
      throw this.corrupt(db, pgno, `a child page number ${child} outside the file's pages 2..${this.lastPage}`);
    return child;
  }

  private leafNode(db: string, pgno: bigint, page: Buffer, at: number, names: boolean): void {
    const size = page.readUInt16LE(at) | (page.readUInt16LE(at + 2) << 16);
    const flags = page.readUInt16LE(at + 4);
    const keySize = page.readUInt16LE(at + 6);
    const data = at + NODE_HEADER + keySize;
    if (flags & F_BIGDATA) {
      if (data + 8 > this.pageSize) throw this.corrupt(db, pgno, "an overflow reference runs past the page");
      const first = page.readBigUInt64LE(data);
      const pages = BigInt(Math.ceil((size + HEADER) / this.pageSize));
      if (first < 2n || first + pages - 1n > this.lastPage)
        throw this.corrupt(db, pgno, `a value on pages ${first}..${first + pages - 1n}, outside the file`);
      return;
    }
    if (data + size > this.pageSize) throw this.corrupt(db, pgno, "a value runs past the page");
    if (!names) return;
    // the root database: each of our names holds a database record
    const name = page
      .subarray(at + NODE_HEADER, data)
      .toString("latin1")
      .replace(/\0$/, "");
    if (!(flags & F_SUBDATA) || size !== DB_RECORD) return; // not a database: checkRootNames refuses it later
    const root = page.readBigUInt64LE(data + DB_ROOT_AT);
    if (root === NO_ROOT) return;
    this.tree(name, root, page.readUInt16LE(data + DB_DEPTH_AT), false);
  }
}
