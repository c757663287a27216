/**
 * The query index (docs/ledger.md §Query index): what the `/v2` query extensions read (a chain's entries in
 * order, entries and chains by ext IDs, an address's history), kept by the store itself.
 *
 * It is a function of the saved blocks only: `indexHeight` reads one height's blocks (directory, entry, EC,
 * asset) and their entries back from the environment and writes the index records they imply. It runs inside
 * the transaction that saves the block set (blockSetWriterTask.ts, and LedgerStore.initialize/saveBlockSet),
 * after the set's own puts, so the index commits with the blocks or not at all and survives a `kill -9` with
 * them; and it runs at start (`catchUpQueryIndex`) over the saved heights the index lacks (a store written
 * before the index existed, an index dropped by an operator, a layout version changed). Every node indexes
 * the blocks it saves, followers included, and the same blocks always make the same records.
 *
 * The `meta` record QUERY_INDEX_MARKER says which layout the index has and the next height it will index; a
 * save indexes its height only when that is the marker's height, so a block set saved twice (a save retried
 * after an unconfirmed commit) is not counted twice.
 */

import { InvariantError } from "../errors.js";
import { commitTxId } from "../protocol/commit.js";
import { type DirectoryBlock, decodeDirectoryBlock } from "../protocol/dblock.js";
import { decodeEntryBlock, type EntryBlock, entriesWithMinutes, markerMinute } from "../protocol/eblock.js";
import { decodeECBlock, type ECBlock } from "../protocol/ecblock.js";
import { ProtocolError } from "../protocol/errors.js";
import { type AssetBlock, assetBlockTransactions, decodeAssetBlock } from "../protocol/fblock.js";
import { transactionId } from "../protocol/transaction.js";
import { entryRawView } from "./entryRecord.js";
import type { BinDb, Databases, RootEnv } from "./environment.js";
import type { BlockKind as BlockKindType } from "./keys.js";
import { BlockKind, heightKey, META_KEYS } from "./keys.js";
import {
  ADDRESS_CHUNK_ITEMS,
  ADDRESS_ITEM_BYTES,
  AddressItem,
  type AddressItemValue,
  AddressKind,
  addressKey,
  chainHeightKey,
  encodeChainHeightValue,
  entryExtIds,
  extIdKey,
  extIdScope,
  putAddressItem,
  QUERY_DB_NAMES,
  QUERY_EXTID_LEVELS,
  type QueryDbName,
} from "./queryIndexKeys.js";

/**
 * Layout version of the index. Bump it when a key or value of queryIndexKeys.ts changes (or what is indexed):
 * a node that finds another version drops the index and rebuilds it from the blocks at start.
 */
export const QUERY_INDEX_VERSION = 2;

/** `meta` key: u32 QUERY_INDEX_VERSION ‖ u32 the next height to index (heights below it are indexed). */
export const QUERY_INDEX_MARKER = "queryIndex";

/**
 * Heights indexed per transaction while catching up at start: small enough that a transaction of busy
 * blocks stays a few hundred MB of dirty pages at most, large enough that the commits (one flush each) do not
 * dominate a rebuild of many quiet blocks.
 */
const CATCH_UP_HEIGHTS_PER_TXN = 64;

/** The scope of every entry's first ext ID (it depends on nothing before it). */
const FIRST_SCOPE = extIdScope([], 0);

/** Where the index records go: one LMDB put each. */
export type IndexPut = (db: QueryDbName, key: Uint8Array, value: Uint8Array) => void;

/** The databases the index reads blocks from and writes itself into. */
export type IndexDatabases = Pick<Databases, "blocks" | "heights" | "entryRecords" | "meta" | QueryDbName>;

function metaKey(): Buffer {
  return Buffer.from(QUERY_INDEX_MARKER, "ascii");
}

/** The marker: layout version and the next height to index; undefined when there is none. */
export function readMarker(dbs: Pick<Databases, "meta">): { version: number; next: number } | undefined {
  const v = dbs.meta.getBinary(metaKey());
  if (v === undefined || v.length !== 8) return undefined;
  return { version: v.readUInt32BE(0), next: v.readUInt32BE(4) };
}

function writeMarker(dbs: Pick<Databases, "meta">, next: number): void {
  const b = Buffer.allocUnsafe(8);
  b.writeUInt32BE(QUERY_INDEX_VERSION, 0);
  b.writeUInt32BE(next, 4);
  dbs.meta.putSync(metaKey(), b);
}

/** Raw bytes of a saved block (without the kind byte), by primary hash. */
function blockRaw(dbs: IndexDatabases, primary: Uint8Array): Uint8Array | undefined {
  const v = dbs.blocks.getBinary(primary);
  return v === undefined ? undefined : v.subarray(1);
}

function blockAt(dbs: IndexDatabases, kind: BlockKindType, height: number): Uint8Array | undefined {
  const primary = dbs.heights.getBinary(heightKey(kind, height));
  return primary === undefined ? undefined : blockRaw(dbs, primary);
}

/** One height's blocks, decoded: everything the index records are made of (entries are read as they are written). */
interface DecodedHeight {
  dblock: DirectoryBlock;
  /** entry blocks with their keyMR and place in the directory block */
  eblocks: { place: number; keyMR: Uint8Array; eblock: EntryBlock }[];
  asset: AssetBlock | undefined;
  ec: ECBlock | undefined;
}

/**
 * Read and decode saved height `height`'s blocks (inside the transaction that saved them, their puts are
 * visible). Undefined when a block is missing or does not decode: the store does not validate blocks (the
 * ledger did), and the index must not fail a block save; such a height (never one the ledger built; the store's
 * own tests save opaque bytes) gets no index records, the same on every node and at every rebuild. Decoding
 * everything first makes the index of a height all or nothing without holding its records in memory.
 */
function decodeHeight(dbs: IndexDatabases, height: number): DecodedHeight | undefined {
  try {
    const dRaw = blockAt(dbs, BlockKind.directory, height);
    if (dRaw === undefined) return undefined;
    const dblock = decodeDirectoryBlock(dRaw);
    const eblocks: DecodedHeight["eblocks"] = [];
    // entry blocks: every body entry after the admin, EC and asset blocks
    for (let place = 3; place < dblock.entries.length; place++) {
      const keyMR = dblock.entries[place]!.keyMR;
      const raw = blockRaw(dbs, keyMR);
      if (raw === undefined) return undefined;
      eblocks.push({ place, keyMR, eblock: decodeEntryBlock(raw, { verifyBodyMR: false }) });
    }
    const fRaw = blockAt(dbs, BlockKind.asset, height);
    const ecRaw = blockAt(dbs, BlockKind.ec, height);
    return {
      dblock,
      eblocks,
      asset: fRaw === undefined ? undefined : decodeAssetBlock(fRaw),
      ec: ecRaw === undefined ? undefined : decodeECBlock(ecRaw, { verifyBodyHash: false }),
    };
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * Most bytes of ext IDs before a level for which ScopeMemo keeps the scope: applications tag with short
 * types and ids (tens of bytes); a longer prefix is hashed each time rather than held in memory.
 */
const SCOPE_MEMO_MAX_BYTES = 64;

/**
 * The scopes (extIdScope: a sha256 each) of one height's entries, by the ext IDs before the level. Entries of a
 * busy height share their first ext IDs (a type, an application's tag), and the hash was ~a fifth of the index's
 * CPU per entry (bench/queryRows.ts, docs/performance.md §"Query rows"): each distinct prefix is hashed once per
 * height. Lives for one indexHeight call, so it holds at most one height's distinct prefixes.
 */
class ScopeMemo {
  private readonly scopes = new Map<string, Buffer>();

  of(extIds: readonly Uint8Array[], level: number): Buffer {
    let size = 0;
    for (let i = 0; i < level; i++) size += extIds[i]!.length;
    if (size > SCOPE_MEMO_MAX_BYTES) return extIdScope(extIds, level);
    // length-prefixed, so that ["ab","c"] and ["a","bc"] differ
    let key = "";
    for (let i = 0; i < level; i++) {
      const id = extIds[i]!;
      key += `${id.length}:${Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString("latin1")}`;
    }
    let scope = this.scopes.get(key);
    if (scope === undefined) {
      scope = extIdScope(extIds, level);
      this.scopes.set(key, scope);
    }
    return scope;
  }
}

/**
 * The qEntryExtIds records of one height, gathered before they are put: an ext ID shared by many entries of an
 * entry block is one record listing their item indexes. Keyed by the record key's latin1 text; each list grows
 * in item order (ascending, as the reader's binary search needs), and the records are put once the height's
 * blocks are all read.
 */
class ExtIdRecords {
  private readonly items = new Map<string, { key: Buffer; items: number[] }>();

  add(key: Buffer, item: number): void {
    const id = key.toString("latin1");
    const found = this.items.get(id);
    if (found === undefined) this.items.set(id, { key, items: [item] });
    else found.items.push(item);
  }

  putAll(put: IndexPut): void {
    for (const { key, items } of this.items.values()) {
      const v = Buffer.allocUnsafe(4 * items.length);
      for (let i = 0; i < items.length; i++) v.writeUInt32BE(items[i]!, 4 * i);
      put("qEntryExtIds", key, v);
    }
  }
}

/**
 * Write the index records of saved height `height` through `put`. Entry counts per chain are
 * read-modify-written, so each height must be indexed once, in height order (the marker sees to it). Returns
 * the entries indexed (0 for a height whose blocks do not decode: decodeHeight).
 */
export function indexHeight(dbs: IndexDatabases, height: number, put: IndexPut): number {
  const decoded = decodeHeight(dbs, height);
  if (decoded === undefined) return 0;
  const { dblock } = decoded;
  const scopes = new ScopeMemo();
  const extIdRecords = new ExtIdRecords();
  let entries = 0;
  for (const { place, keyMR, eblock } of decoded.eblocks) {
    const chainId = eblock.chainId;
    let first = eblock.sequence === 0;
    const inBlock = entriesWithMinutes(eblock);
    if (inBlock.length === 0) continue;
    const markers: number[] = [];
    for (let i = 0; i < eblock.items.length; i++) if (markerMinute(eblock.items[i]!) !== 0) markers.push(i);
    const value = { entryBlockKeyMR: keyMR, directoryTimestampMinutes: dblock.timestamp, markers };
    put("qChainEntries", chainHeightKey(chainId, height), encodeChainHeightValue(value));
    for (let ordinal = 0; ordinal < inBlock.length; ordinal++) {
      const e = inBlock[ordinal]!;
      entries++;
      // lmdb-js's reused read buffer (no copy of up to 10 KiB per entry): the ext IDs are views into it, used
      // (hashed, copied into keys) before the next read of this thread. Its `length` is the value's, its
      // byteLength the whole buffer's (store.ts plain).
      const fast = dbs.entryRecords.getBinaryFast(e.entryHash);
      const raw =
        fast === undefined ? undefined : entryRawView(new Uint8Array(fast.buffer, fast.byteOffset, fast.length));
      const extIds = raw === undefined ? undefined : entryExtIds(raw);
      if (extIds !== undefined && extIds.length > 0) {
        const levels = Math.min(extIds.length, QUERY_EXTID_LEVELS);
        const chainValue = first ? Buffer.concat([chainId, e.entryHash]) : undefined;
        for (let level = 0; level < levels; level++) {
          const key = extIdKey(level === 0 ? FIRST_SCOPE : scopes.of(extIds, level), extIds[level]!, height, place);
          extIdRecords.add(key, e.index);
          if (chainValue !== undefined) put("qChainExtIds", key, chainValue);
        }
      }
      first = false;
    }
    const old = dbs.qChainCounts.getBinary(chainId);
    const total = (old === undefined || old.length !== 8 ? 0n : old.readBigUInt64BE(0)) + BigInt(inBlock.length);
    const b = Buffer.allocUnsafe(8);
    b.writeBigUInt64BE(total, 0);
    put("qChainCounts", chainId, b);
  }
  extIdRecords.putAll(put);
  indexAddresses(height, decoded, put);
  return entries;
}

/**
 * Asset inputs, outputs and EC purchases (in transaction order), then the EC block's commits, of one height,
 * numbered in that order; the qAddresses records of each address of the height hold its items in that order,
 * ADDRESS_CHUNK_ITEMS at most each. A purchase
 * is read from the transaction's EC output (entry credits = base units / the block's exchange rate, rounded
 * down, as the ledger credits them: rules.ts applyTransaction): the EC blocks this node builds carry no
 * balance-increase items (ECID 04), so the EC block's own such items are not read, which also keeps a purchase
 * from being counted twice in a block that had both.
 */
function indexAddresses(height: number, decoded: DecodedHeight, put: IndexPut): void {
  let number = 0;
  const byAddress = new Map<string, { kind: AddressKind; address: Uint8Array; items: AddressItemValue[] }>();
  const add = (kind: AddressKind, address: Uint8Array, v: Omit<AddressItemValue, "number">): void => {
    const id = `${kind}${Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString("latin1")}`;
    const item = { number: number++, ...v };
    const found = byAddress.get(id);
    if (found === undefined) byAddress.set(id, { kind, address, items: [item] });
    else found.items.push(item);
  };
  if (decoded.asset !== undefined) {
    const rate = decoded.asset.exchangeRate;
    for (const tx of assetBlockTransactions(decoded.asset)) {
      const txId = transactionId(tx);
      const timestamp = Math.floor(tx.milliTimestamp / 1000);
      for (const io of tx.inputs)
        add(AddressKind.asset, io.address, { item: AddressItem.input, txId, amount: io.amount, timestamp });
      for (const io of tx.outputs)
        add(AddressKind.asset, io.address, { item: AddressItem.output, txId, amount: io.amount, timestamp });
      for (const io of tx.ecOutputs) {
        const credits = rate > 0n ? io.amount / rate : 0n;
        add(AddressKind.ec, io.address, { item: AddressItem.ecPurchase, txId, amount: credits, timestamp });
      }
    }
  }
  for (const it of decoded.ec?.items ?? []) {
    if (it.type !== "entryCommit" && it.type !== "chainCommit") continue;
    const c = it.commit;
    add(AddressKind.ec, c.ecPublicKey, {
      item: c.kind === "chain" ? AddressItem.chainCommit : AddressItem.entryCommit,
      txId: commitTxId(c),
      amount: BigInt(c.credits),
      timestamp: Math.floor(c.milliTime / 1000),
    });
  }
  for (const { kind, address, items } of byAddress.values()) {
    for (let from = 0; from < items.length; from += ADDRESS_CHUNK_ITEMS) {
      const chunk = items.slice(from, from + ADDRESS_CHUNK_ITEMS);
      const v = Buffer.allocUnsafe(ADDRESS_ITEM_BYTES * chunk.length);
      for (let k = 0; k < chunk.length; k++) putAddressItem(v, k * ADDRESS_ITEM_BYTES, chunk[k]!);
      put("qAddresses", addressKey(kind, address, height, chunk[chunk.length - 1]!.number), v);
    }
  }
}

/** A put into the named query database of `dbs`, synchronously (inside a transaction). */
export function putInto(dbs: Pick<Databases, QueryDbName>): IndexPut {
  return (db, key, value) => {
    (dbs[db] as BinDb).putSync(key, value);
  };
}

/**
 * Inside the transaction that just saved height `height`'s block set: index it when it is the next height the
 * marker expects (a fresh store's genesis too), and move the marker. Does nothing when the height is indexed
 * already (a set saved again) or the index is behind or of another version (the next start catches up).
 * Returns whether it indexed.
 */
export function indexSavedHeight(dbs: IndexDatabases, height: number): boolean {
  const marker = readMarker(dbs);
  const expected =
    marker === undefined ? (height === 0 ? 0 : -1) : marker.version === QUERY_INDEX_VERSION ? marker.next : -1;
  if (expected !== height) return false;
  indexHeight(dbs, height, putInto(dbs));
  writeMarker(dbs, height + 1);
  return true;
}

/** Where a rebuild of the index stands (docs/ledger.md §Query index, "Rebuild"). */
export interface RebuildProgress {
  /** the next height to index: heights below it are indexed */
  next: number;
  /** the saved height when this was read: the rebuild is done once `next` passes it */
  savedHeight: number;
  /** entries indexed by this step */
  entries: number;
  /** heights indexed by this step */
  heights: number;
  /** true when every saved height is indexed (saves keep it so from here on) */
  done: boolean;
}

/**
 * Whether the index lacks a saved height: no marker on a store with blocks, another layout version, or a marker
 * behind `savedHeight`. A store with no blocks (fresh) lacks nothing: its genesis save indexes height 0.
 */
export function queryIndexBehind(dbs: Pick<Databases, "meta">, savedHeight: number | undefined): boolean {
  if (savedHeight === undefined) return false;
  const marker = readMarker(dbs);
  return marker === undefined || marker.version !== QUERY_INDEX_VERSION || marker.next <= savedHeight;
}

/**
 * A missing marker or another layout version: drop every index database and write a marker at height 0. Each
 * clear is a transaction of its own: a start cut short among them finds no valid marker and clears again.
 * Returns whether it dropped anything.
 */
export function resetQueryIndexIfForeign(env: RootEnv, dbs: IndexDatabases): boolean {
  const marker = readMarker(dbs);
  if (marker !== undefined && marker.version === QUERY_INDEX_VERSION) return false;
  for (const name of Object.keys(QUERY_DB_NAMES) as QueryDbName[]) dbs[name].clearSync();
  env.transactionSync(() => writeMarker(dbs, 0));
  return true;
}

/** The saved height as the store's meta record holds it (inside a transaction: that transaction's view). */
function savedHeightOf(dbs: Pick<Databases, "meta">): number | undefined {
  const v = dbs.meta.getBinary(SAVED_HEIGHT_KEY);
  return v === undefined || v.length !== 4 ? undefined : v.readUInt32BE(0);
}

const SAVED_HEIGHT_KEY = Buffer.from(META_KEYS.savedHeight, "ascii");

/**
 * One step of a rebuild, in ONE transaction: from the marker's height (read inside the transaction, so a save
 * that indexed its own height since is not indexed again), index heights up to the saved height until
 * `budgetMs` of this step is spent or `maxHeights` are done (at least one height: a height's records are all or
 * nothing), then move the marker. The index must be of this layout (resetQueryIndexIfForeign first).
 */
export function rebuildStep(env: RootEnv, dbs: IndexDatabases, budgetMs: number, maxHeights: number): RebuildProgress {
  return env.transactionSync(() => {
    const marker = readMarker(dbs);
    if (marker === undefined || marker.version !== QUERY_INDEX_VERSION)
      throw new InvariantError("query index rebuild step without a marker of this layout");
    const saved = savedHeightOf(dbs) ?? -1;
    const started = performance.now();
    const put = putInto(dbs);
    let next = marker.next;
    let entries = 0;
    while (next <= saved && next - marker.next < maxHeights) {
      entries += indexHeight(dbs, next, put);
      next++;
      if (performance.now() - started >= budgetMs) break;
    }
    if (next !== marker.next) writeMarker(dbs, next);
    return { next, savedHeight: saved, entries, heights: next - marker.next, done: next > saved };
  });
}

/**
 * Bring the index up to the saved height at once, on this thread (tools and tests; the node rebuilds in the
 * background on the writer thread: blockSetWriterTask.ts). A missing marker or another layout version drops
 * the index first. Runs in transactions of CATCH_UP_HEIGHTS_PER_TXN heights, each moving the marker, so a run
 * cut short resumes where it stopped. Returns the heights indexed.
 */
export function catchUpQueryIndex(
  env: RootEnv,
  dbs: IndexDatabases,
  onProgress: (p: RebuildProgress) => void = () => {},
): number {
  resetQueryIndexIfForeign(env, dbs);
  let heights = 0;
  for (;;) {
    const p = rebuildStep(env, dbs, Number.POSITIVE_INFINITY, CATCH_UP_HEIGHTS_PER_TXN);
    heights += p.heights;
    onProgress(p);
    if (p.done) return heights;
  }
}
