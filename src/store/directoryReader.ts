/**
 * Reads a stopped node's data directory without opening it as a store: what `ledgerd-export` streams and
 * `ledgerd verify` checks (history/). Unlike `LedgerStore.open` it writes nothing — no query index caught up, no
 * store id given, no journal moved — so what it reads is exactly what the node left, and a check reports the
 * directory as found. The caller holds the directory's lock (directoryLock.ts) so no node writes meanwhile.
 *
 * Reads return copies (never lmdb-js's reused read buffer), so callers may keep them.
 */

import { entryLocationOf, entryRawView, paidCommitOf } from "./entryRecord.js";
import {
  type Databases,
  type DbName,
  openBinaryDb,
  openCheckedEnvironment,
  openDatabases,
  type RootEnv,
} from "./environment.js";
import { StoreError } from "./errors.js";
import { BlockKind, DB_NAMES, heightKey, LEGACY_DB_NAMES, META_KEYS } from "./keys.js";
import { indexHeight, QUERY_INDEX_VERSION, readMarker } from "./queryIndex.js";
import type { QueryDbName } from "./queryIndexKeys.js";
import {
  type ChainHead,
  type CommitLocation,
  commitLocationAt,
  decodeBalance,
  decodeChainHead,
  decodeTransactionLocation,
  type EntryLocation,
  type PaidCommit,
  type TransactionLocation,
} from "./records.js";
import { STORE_FORMAT_VERSION } from "./store.js";

/** What the `meta` database says the directory is. */
export interface DirectoryIdentity {
  network: string;
  networkId: number;
  savedHeight: number;
  /** start of the open block, ms since epoch */
  openBlockStartMs: number;
}

/** Databases whose keys `keys()` lists (the records a check compares against the blocks). */
export type ListedDb = "assetBalances" | "ecBalances" | "chainHeads";

export class DirectoryReader {
  private constructor(
    readonly path: string,
    private readonly env: RootEnv,
    private readonly dbs: Databases,
  ) {}

  /**
   * Open the environment in `path` for reading. `scan`: read every page first in a child process (a damaged
   * page is then a StoreError CORRUPT here, not a crash later). Throws StoreError (OPEN_FAILED, CORRUPT,
   * UNKNOWN_FORMAT).
   */
  static open(path: string, options: { scan: boolean }): DirectoryReader {
    // a directory of an older format opens (its databases are allowed) only to be refused here, before this
    // version's databases are opened: opening creates those missing, and a directory of the previous format
    // holding them would be refused by the previous version
    const allowed = [...Object.values(DB_NAMES), ...Object.values(LEGACY_DB_NAMES)];
    const env = openCheckedEnvironment(path, "store", allowed, options.scan);
    const format = openBinaryDb(env, DB_NAMES.meta).getBinary(Buffer.from(META_KEYS.format, "ascii"));
    if (format?.length === 4 && format.readUInt32BE(0) < STORE_FORMAT_VERSION) {
      void env.close();
      throw new StoreError({
        code: "UNKNOWN_FORMAT",
        path,
        info:
          `format ${format.readUInt32BE(0)}, this version reads ${STORE_FORMAT_VERSION}: start ledgerd on it once ` +
          "(it migrates an older format at open, docs/ledger.md §4), then run this again",
      });
    }
    return new DirectoryReader(path, env, openDatabases(env));
  }

  /** The directory's network, saved height and open block start. Throws StoreError when they are missing. */
  identity(): DirectoryIdentity {
    const format = this.meta(META_KEYS.format);
    if (format === undefined)
      throw new StoreError({
        code: "UNKNOWN_FORMAT",
        path: this.path,
        info: "no format record: not a node's data directory (or an empty one)",
      });
    if (format.length !== 4 || format.readUInt32BE(0) !== STORE_FORMAT_VERSION)
      throw new StoreError({
        code: "UNKNOWN_FORMAT",
        path: this.path,
        info: `format ${format.toString("hex")}, this version reads ${STORE_FORMAT_VERSION}`,
      });
    const id = this.meta(META_KEYS.networkId);
    const saved = this.meta(META_KEYS.savedHeight);
    const start = this.meta(META_KEYS.openBlockStartMs);
    if (id?.length !== 4 || saved?.length !== 4 || start?.length !== 8)
      throw new StoreError({
        code: "CORRUPT",
        path: this.path,
        info: "the meta records (network id, saved height, open block start) are incomplete",
      });
    return {
      network: this.meta(META_KEYS.network)?.toString("utf8") ?? "?",
      networkId: id.readUInt32BE(0),
      savedHeight: saved.readUInt32BE(0),
      openBlockStartMs: Number(start.readBigUInt64BE(0)),
    };
  }

  /** Primary hash of the block of `kind` at `height`. */
  blockHashAt(kind: BlockKind, height: number): Uint8Array | undefined {
    return this.get("heights", heightKey(kind, height));
  }

  /** A block by its primary or secondary hash: its kind, raw bytes and primary hash. */
  block(hash: Uint8Array): { kind: BlockKind; raw: Uint8Array; primary: Uint8Array } | undefined {
    let primary = hash;
    let v = this.get("blocks", primary);
    if (v === undefined) {
      const alias = this.get("blockAlias", hash);
      if (alias === undefined) return undefined;
      primary = alias;
      v = this.get("blocks", primary);
      if (v === undefined) return undefined;
    }
    if (v.length < 1) return undefined;
    return { kind: v[0] as BlockKind, raw: v.subarray(1), primary };
  }

  /** The primary hash a secondary hash (full hash, back-reference hash, ledger keyMR) points at. */
  alias(secondary: Uint8Array): Uint8Array | undefined {
    return this.get("blockAlias", secondary);
  }

  entryRaw(hash: Uint8Array): Uint8Array | undefined {
    const v = this.get("entryRecords", hash);
    return v === undefined ? undefined : entryRawView(v);
  }
  entryLocation(hash: Uint8Array): EntryLocation | undefined {
    return this.decoded("entryRecords", hash, entryLocationOf);
  }
  transactionLocation(hash: Uint8Array): TransactionLocation | undefined {
    return this.decoded("transactionLocations", hash, decodeTransactionLocation);
  }
  commitLocation(hash: Uint8Array): CommitLocation | undefined {
    const v = this.get("commitPlaces", hash);
    return v === undefined ? undefined : commitLocationAt(v, (h) => this.blockHashAt(BlockKind.ec, h));
  }
  paidCommit(entryHash: Uint8Array): PaidCommit | undefined {
    return this.decoded("entryRecords", entryHash, paidCommitOf);
  }
  chainHead(chainId: Uint8Array): ChainHead | undefined {
    return this.decoded("chainHeads", chainId, decodeChainHead);
  }
  assetBalance(address: Uint8Array): bigint | undefined {
    return this.decoded("assetBalances", address, decodeBalance);
  }
  ecBalance(publicKey: Uint8Array): bigint | undefined {
    return this.decoded("ecBalances", publicKey, decodeBalance);
  }

  /** Every key of `db`, in key order (copies). */
  *keys(db: ListedDb): Generator<Uint8Array> {
    for (const key of this.dbs[db].getKeys()) yield new Uint8Array(key as Uint8Array);
  }

  /**
   * The query index's marker: its layout version matches this program's, and the next height it would index
   * (heights below are indexed). Undefined when there is none.
   */
  queryIndexMarker(): { current: boolean; next: number } | undefined {
    const m = readMarker(this.dbs);
    return m === undefined ? undefined : { current: m.version === QUERY_INDEX_VERSION, next: m.next };
  }

  /**
   * The first query-index record of `height` that is missing or differs from what the height's saved blocks
   * imply (queryIndex.ts indexHeight), as a sentence; undefined when all are there. Entry counts per chain
   * (qChainCounts) are totals over all heights: compare them with `queryChainCount` once at the end.
   */
  queryIndexProblem(height: number): string | undefined {
    // gathered first: indexHeight reads entries through lmdb-js's reused buffer, which a read here would clobber
    const expected: [QueryDbName, Uint8Array, Uint8Array][] = [];
    indexHeight(this.dbs, height, (db, key, value) => {
      if (db !== "qChainCounts") expected.push([db, Buffer.from(key), Buffer.from(value)]);
    });
    for (const [db, key, value] of expected) {
      const stored = this.get(db, key);
      if (stored === undefined) return `the query index lacks its ${db} record ${Buffer.from(key).toString("hex")}`;
      if (!Buffer.from(stored).equals(value))
        return `the query index's ${db} record ${Buffer.from(key).toString("hex")} differs from the blocks'`;
    }
    return undefined;
  }

  /** The query index's count of a chain's entries (qChainCounts); undefined when it has none. */
  queryChainCount(chainId: Uint8Array): bigint | undefined {
    const v = this.get("qChainCounts", chainId);
    return v === undefined || v.length !== 8 ? undefined : Buffer.from(v).readBigUInt64BE(0);
  }

  async close(): Promise<void> {
    await this.env.close();
  }

  private meta(name: string): Buffer | undefined {
    const v = this.get("meta", Buffer.from(name, "ascii"));
    return v === undefined ? undefined : Buffer.from(v);
  }

  private get(db: DbName, key: Uint8Array): Uint8Array | undefined {
    const v = this.dbs[db].getBinary(key);
    return v === undefined ? undefined : new Uint8Array(v);
  }

  private decoded<T>(db: DbName, key: Uint8Array, decode: (b: Uint8Array) => T): T | undefined {
    const v = this.get(db, key);
    if (v === undefined) return undefined;
    try {
      return decode(v);
    } catch (e) {
      throw new StoreError({
        code: "CORRUPT",
        path: this.path,
        info: `the ${db} record ${Buffer.from(key).toString("hex")} does not decode: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }
}
