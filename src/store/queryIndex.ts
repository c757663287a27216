/**
 * The query index (docs/ledger.md §Query index): what the `/v2` query extensions read (a chain's entries in
 * order, entries and chains by ext IDs, an address's history), kept by the store itself.
 *
 * It is a function of the saved blocks only: `indexHeight` reads one height's blocks (directory, entry, EC,
 * asset) and their entries back from the environment and writes the index records they imply (a save on the
 * writer thread hands it the entry records its transaction just put, the same bytes: JustPutRecords). It runs inside
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
import { CHAIN_COMMIT_SIGNED_SIZE, ENTRY_COMMIT_SIGNED_SIZE } from "../protocol/commit.js";
import { type DirectoryBlock, decodeDirectoryBlock } from "../protocol/dblock.js";
import { DigestIndex } from "../protocol/digestIndex.js";
import { decodeEntryBlock, type EntryBlock, markerMinute } from "../protocol/eblock.js";
import { type CheckedECBlock, checkECBlock, forEachCheckedCommit } from "../protocol/ecblock.js";
import { ProtocolError } from "../protocol/errors.js";
import { type AssetBlock, assetBlockTransactions, decodeAssetBlock } from "../protocol/fblock.js";
import { sha256 } from "../protocol/hash.js";
import { transactionId } from "../protocol/transaction.js";
import { savedHeightOf } from "./blockSet.js";
import { entryRawView, PAID_PART, paidEntryCommitAt } from "./entryRecord.js";
import type { BinDb, Databases, RootEnv } from "./environment.js";
import type { BlockKind as BlockKindType } from "./keys.js";
import { BlockKind, heightKey } from "./keys.js";
import {
  ADDRESS_CHUNK_ITEMS,
  ADDRESS_ITEM_BYTES,
  AddressItem,
  AddressKind,
  addressKey,
  chainHeightKey,
  encodeChainHeightValue,
  entryExtIds,
  extIdKey,
  extIdScope,
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
  /** the EC block, checked (checkECBlock): its commits are walked in place, no object per item */
  ec: CheckedECBlock | undefined;
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
      ec: ecRaw === undefined ? undefined : checkECBlock(ecRaw),
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
 *
 * Split per entry block (`indexEntryBlock`) and per entry (`indexEntryExtIds`): this runs once per block, and as
 * one function holding every loop V8 compiled it inside its first loop and threw that code away at a branch with
 * no type feedback yet, at every block; the per-entry function, called for every entry, is compiled once with
 * complete feedback (docs/history/performance-issue35.md §Deopts per block).
 */
export function indexHeight(dbs: IndexDatabases, height: number, put: IndexPut, justPut?: JustPutRecords): number {
  const decoded = decodeHeight(dbs, height);
  if (decoded === undefined) return 0;
  const at: HeightContext = {
    dbs,
    justPut,
    height,
    timestamp: decoded.dblock.timestamp,
    scopes: new ScopeMemo(),
    extIdRecords: new ExtIdRecords(),
    paid: new PaidTxIds(),
    put,
  };
  let entries = 0;
  for (const eb of decoded.eblocks) entries += indexEntryBlock(at, eb.place, eb.keyMR, eb.eblock);
  at.extIdRecords.putAll(put);
  indexAddresses(height, decoded, at.paid, put);
  return entries;
}

/** What the index records of one height's entry blocks share. */
interface HeightContext {
  readonly dbs: IndexDatabases;
  /** the entry records the save's transaction put, when the caller kept them (else each is read back) */
  readonly justPut: JustPutRecords | undefined;
  readonly height: number;
  /** the directory block's timestamp, minutes */
  readonly timestamp: number;
  readonly scopes: ScopeMemo;
  readonly extIdRecords: ExtIdRecords;
  /** the txids of the commits that paid this height's entries, as their records hold them */
  readonly paid: PaidTxIds;
  readonly put: IndexPut;
}

/**
 * The index records of the entry block at `place` of the directory block; returns its entries. Its items are
 * walked once: a marker's index is kept for the chain's record, an entry indexed under its ext IDs (no object per
 * entry: entriesWithMinutes made one for each, for a minute the index does not keep).
 */
function indexEntryBlock(at: HeightContext, place: number, keyMR: Uint8Array, eblock: EntryBlock): number {
  const chainId = eblock.chainId;
  const items = eblock.items;
  const markers: number[] = [];
  let entries = 0;
  // the chain's first entry (sequence 0, first entry of the block) also indexes the chain under its ext IDs
  let first = eblock.sequence === 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (markerMinute(item) !== 0) {
      markers.push(i);
      continue;
    }
    entries++;
    indexEntryExtIds(at, place, item, i, first ? chainId : undefined);
    first = false;
  }
  if (entries === 0) return 0;
  const value = { entryBlockKeyMR: keyMR, directoryTimestampMinutes: at.timestamp, markers };
  at.put("qChainEntries", chainHeightKey(chainId, at.height), encodeChainHeightValue(value));
  const old = at.dbs.qChainCounts.getBinary(chainId);
  const total = (old === undefined || old.length !== 8 ? 0n : old.readBigUInt64BE(0)) + BigInt(entries);
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64BE(total, 0);
  at.put("qChainCounts", chainId, b);
  return entries;
}

/**
 * One entry's qEntryExtIds items (gathered in `at.extIdRecords`: `item` is its index among the entry block's
 * items), and, for a chain's first entry (`chainId` given), its qChainExtIds records.
 */
function indexEntryExtIds(
  at: HeightContext,
  place: number,
  entryHash: Uint8Array,
  item: number,
  chainId: Uint8Array | undefined,
): void {
  const record = at.justPut?.get(entryHash) ?? readEntryRecord(at.dbs, entryHash);
  if (record === undefined) return;
  at.paid.add(entryHash, record);
  const raw = entryRawView(record);
  const extIds = raw === undefined ? undefined : entryExtIds(raw);
  if (extIds === undefined || extIds.length === 0) return;
  const levels = Math.min(extIds.length, QUERY_EXTID_LEVELS);
  const chainValue = chainId === undefined ? undefined : Buffer.concat([chainId, entryHash]);
  for (let level = 0; level < levels; level++) {
    const scope = level === 0 ? FIRST_SCOPE : at.scopes.of(extIds, level);
    const key = extIdKey(scope, extIds[level]!, at.height, place);
    at.extIdRecords.add(key, item);
    if (chainValue !== undefined) at.put("qChainExtIds", key, chainValue);
  }
}

/**
 * The entry record of `entryHash` as the environment holds it: a view of lmdb-js's reused read buffer (no copy of
 * up to 10 KiB per entry), used (hashed, copied into keys) before the next read of this thread. Its `length` is
 * the value's, its byteLength the whole buffer's (store.ts plain).
 */
function readEntryRecord(dbs: IndexDatabases, entryHash: Uint8Array): Uint8Array | undefined {
  const fast = dbs.entryRecords.getBinaryFast(entryHash);
  return fast === undefined ? undefined : new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
}

/**
 * The entry records a block set's transaction put (blockSetWriterTask.ts), by entry hash, as they were put: the
 * index reads each entry's record for its ext IDs and its paid commit, and searching the environment's B-tree
 * for a value this thread still holds in the save's record stream was ~10 % of the writer thread (perf, twenty-
 * third session). Holds where each value is (its buffer, offset and length), not a view per record; a hash put
 * twice is found at its last put, as the environment holds it. Valid while those buffers are: the transaction.
 */
export class JustPutRecords {
  private readonly ids = new DigestIndex(4096);
  private readonly buffers: ArrayBufferLike[] = [];
  private readonly bufferOf: number[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];

  /** `value` is what the environment now holds under `entryHash` (read no later than the transaction's end). */
  add(entryHash: Uint8Array, value: Uint8Array): void {
    const id = this.ids.add(entryHash);
    let b = this.buffers.length - 1;
    if (b < 0 || this.buffers[b] !== value.buffer) b = this.buffers.push(value.buffer) - 1;
    this.bufferOf[id] = b;
    this.offsets[id] = value.byteOffset;
    this.lengths[id] = value.length;
  }

  get(entryHash: Uint8Array): Uint8Array | undefined {
    const id = this.ids.find(entryHash);
    if (id < 0) return undefined;
    return new Uint8Array(this.buffers[this.bufferOf[id]!]!, this.offsets[id]!, this.lengths[id]!);
  }
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
function indexAddresses(height: number, decoded: DecodedHeight, paid: PaidTxIds, put: IndexPut): void {
  const items = new AddressItems();
  if (decoded.asset !== undefined) {
    const rate = decoded.asset.exchangeRate;
    for (const tx of assetBlockTransactions(decoded.asset)) {
      const txId = transactionId(tx);
      const timestamp = Math.floor(tx.milliTimestamp / 1000);
      for (const io of tx.inputs)
        items.add(AddressKind.asset, io.address, AddressItem.input, txId, io.amount, timestamp);
      for (const io of tx.outputs)
        items.add(AddressKind.asset, io.address, AddressItem.output, txId, io.amount, timestamp);
      for (const io of tx.ecOutputs) {
        const credits = rate > 0n ? io.amount / rate : 0n;
        items.add(AddressKind.ec, io.address, AddressItem.ecPurchase, txId, credits, timestamp);
      }
    }
  }
  if (decoded.ec !== undefined)
    forEachCheckedCommit(decoded.ec, (chain, body, at) => addCommit(items, paid, chain, body, at));
  items.putAll(height, put);
}

/**
 * Byte offsets in a commit (protocol/commit.ts): version 1 ‖ milliTime 6 ‖ [chain: chain ID hash 32 ‖ weld 32 ‖]
 * entry hash 32 ‖ credits 1 ‖ EC public key 32 ‖ signature 64.
 */
const COMMIT_MILLITIME_AT = 1;
const ENTRY_COMMIT_HASH_AT = 7;
const ENTRY_COMMIT_CREDITS_AT = 39;
const CHAIN_COMMIT_CREDITS_AT = 103;

/** The EC block's commit at `at` of `body` (forEachCheckedCommit), as an address item of its EC key. */
function addCommit(items: AddressItems, paid: PaidTxIds, chain: boolean, body: Uint8Array, at: number): void {
  // 6 bytes big-endian, as 2 + 4 (no Buffer made per commit)
  const t = at + COMMIT_MILLITIME_AT;
  const milliTime =
    ((body[t]! << 8) | body[t + 1]!) * 2 ** 32 +
    (((body[t + 2]! << 24) | (body[t + 3]! << 16) | (body[t + 4]! << 8) | body[t + 5]!) >>> 0);
  const credits = body[at + (chain ? CHAIN_COMMIT_CREDITS_AT : ENTRY_COMMIT_CREDITS_AT)]!;
  const keyAt = at + (chain ? CHAIN_COMMIT_CREDITS_AT : ENTRY_COMMIT_CREDITS_AT) + 1;
  const txId =
    (chain
      ? undefined
      : paid.txIdOf(body.subarray(at + ENTRY_COMMIT_HASH_AT, at + ENTRY_COMMIT_HASH_AT + 32), milliTime, credits)) ??
    sha256(body.subarray(at, at + (chain ? CHAIN_COMMIT_SIGNED_SIZE : ENTRY_COMMIT_SIGNED_SIZE)));
  const kind = chain ? AddressItem.chainCommit : AddressItem.entryCommit;
  items.addCommit(body.subarray(keyAt, keyAt + 32), kind, txId, credits, Math.floor(milliTime / 1000));
}

/**
 * The txids of the entry commits that paid a height's entries, read from the entries' records (entryRecord.ts: the
 * latest commit that paid the hash, its txid as the ledger computed it) while the entries are indexed, so that the
 * EC block's commits need not be hashed again: a sha256 per commit was a fifth of the index's CPU (~5 µs each).
 * Exact, not a guess: an entry commit's txid is sha256 of its first 40 bytes, version 0 ‖ milliTime ‖ entry hash ‖
 * credits, so a commit with the same entry hash, milliTime and credits as the record's has the record's txid; any
 * other (a commit of a hash paid again since, an entry revealed in a later block) is hashed as before.
 */
class PaidTxIds {
  /** entry hash → slot (protocol/digestIndex.ts: no Map entry, number key or view kept per entry) */
  private readonly slots = new DigestIndex();
  private readonly milliTimes: number[] = [];
  private readonly credits: number[] = [];
  /** 32 bytes per slot */
  private txIds = Buffer.allocUnsafe(32 * 1024);

  /** The paid commit of `record` (the entry record of `entryHash`, a view: read now), when it is an entry commit's. */
  add(entryHash: Uint8Array, record: Uint8Array): void {
    const at = paidEntryCommitAt(record);
    if (at < 0) return;
    const slot = this.slots.add(entryHash);
    if (32 * slot + 32 > this.txIds.length) {
      const bigger = Buffer.allocUnsafe(2 * this.txIds.length);
      this.txIds.copy(bigger, 0, 0, 32 * slot);
      this.txIds = bigger;
    }
    const b = Buffer.from(record.buffer, record.byteOffset, record.length);
    // an entry hash met again (revealed twice in the height): its latest record, as the Map before it kept
    this.credits[slot] = b[at + PAID_PART.credits]!;
    this.milliTimes[slot] = b.readUIntBE(at + PAID_PART.milliTime, 6);
    b.copy(this.txIds, 32 * slot, at + PAID_PART.txId, at + PAID_PART.txId + 32);
  }

  /** The txid of the entry commit (entryHash, milliTime, credits), when a record gave it; else undefined. */
  txIdOf(entryHash: Uint8Array, milliTime: number, credits: number): Uint8Array | undefined {
    const slot = this.slots.find(entryHash);
    if (slot < 0 || this.milliTimes[slot] !== milliTime || this.credits[slot] !== credits) return undefined;
    return this.txIds.subarray(32 * slot, 32 * slot + 32);
  }
}

/**
 * The items of one height by address (kind ‖ address), numbered in the order added, each written at once as the
 * qAddresses value bytes it becomes (ADDRESS_ITEM_BYTES each, queryIndexKeys.ts putAddressItem's layout): no object
 * per item — a busy block's EC block is one commit per entry, mostly paid by a few keys.
 */
class AddressItems {
  private readonly byAddress = new Map<string, AddressLog>();
  private number = 0;
  /** the log of the last address added to (commits of one key come in runs: no map lookup for those) */
  private last: AddressLog | undefined;

  add(kind: AddressKind, address: Uint8Array, item: AddressItem, txId: Uint8Array, amount: bigint, timestamp: number) {
    const at = this.logOf(kind, address).next();
    const v = at.bytes;
    v.writeUInt32BE(this.number++, at.offset);
    v[at.offset + 4] = item;
    v.set(txId, at.offset + 5);
    v.writeBigUInt64BE(amount, at.offset + 37);
    v.writeUInt32BE(timestamp, at.offset + 45);
  }

  /** An EC commit: `credits` (a byte) written as the u64 amount without a bigint. */
  addCommit(ecPublicKey: Uint8Array, item: AddressItem, txId: Uint8Array, credits: number, timestamp: number) {
    const at = this.logOf(AddressKind.ec, ecPublicKey).next();
    const v = at.bytes;
    v.writeUInt32BE(this.number++, at.offset);
    v[at.offset + 4] = item;
    v.set(txId, at.offset + 5);
    v.writeUInt32BE(0, at.offset + 37);
    v.writeUInt32BE(credits, at.offset + 41);
    v.writeUInt32BE(timestamp, at.offset + 45);
  }

  private logOf(kind: AddressKind, address: Uint8Array): AddressLog {
    const last = this.last;
    if (last !== undefined && last.kind === kind && bytesEqual(last.address, address)) return last;
    const id = `${kind}${Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString("latin1")}`;
    let log = this.byAddress.get(id);
    if (log === undefined) {
      log = new AddressLog(kind, address);
      this.byAddress.set(id, log);
    }
    this.last = log;
    return log;
  }

  /** Each address's items in records of ADDRESS_CHUNK_ITEMS at most, keyed by their last item's number. */
  putAll(height: number, put: IndexPut): void {
    for (const log of this.byAddress.values()) {
      for (let from = 0; from < log.count; from += ADDRESS_CHUNK_ITEMS) {
        const to = Math.min(log.count, from + ADDRESS_CHUNK_ITEMS);
        const value = log.bytes.subarray(from * ADDRESS_ITEM_BYTES, to * ADDRESS_ITEM_BYTES);
        const lastNumber = log.bytes.readUInt32BE((to - 1) * ADDRESS_ITEM_BYTES);
        put("qAddresses", addressKey(log.kind, log.address, height, lastNumber), value);
      }
    }
  }
}

/** One address's items of a height as value bytes, grown as added. */
class AddressLog {
  bytes = Buffer.allocUnsafe(ADDRESS_ITEM_BYTES * 4);
  count = 0;
  constructor(
    readonly kind: AddressKind,
    readonly address: Uint8Array,
  ) {}

  /** Room for one more item: where to write it. */
  next(): { bytes: Buffer; offset: number } {
    const offset = this.count * ADDRESS_ITEM_BYTES;
    if (offset + ADDRESS_ITEM_BYTES > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(2 * this.bytes.length);
      this.bytes.copy(bigger, 0, 0, offset);
      this.bytes = bigger;
    }
    this.count++;
    return { bytes: this.bytes, offset };
  }
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The put of each databases object (`putInto`), made once: a new closure per height made V8's code of the
 * per-entry functions, which inlines the one call target it saw, fail at the next height ("wrong call target")
 * and be compiled again at every block.
 */
const putsByDatabases = new WeakMap<Pick<Databases, QueryDbName>, IndexPut>();

/** A put into the named query database of `dbs`, synchronously (inside a transaction). */
export function putInto(dbs: Pick<Databases, QueryDbName>): IndexPut {
  let put = putsByDatabases.get(dbs);
  if (put === undefined) {
    put = (db, key, value) => {
      (dbs[db] as BinDb).putSync(key, value);
    };
    putsByDatabases.set(dbs, put);
  }
  return put;
}

/**
 * Inside the transaction that just saved height `height`'s block set: index it when it is the next height the
 * marker expects (a fresh store's genesis too), and move the marker. Does nothing when the height is indexed
 * already (a set saved again) or the index is behind or of another version (the next start catches up).
 * Returns whether it indexed.
 */
export function indexSavedHeight(dbs: IndexDatabases, height: number, justPut?: JustPutRecords): boolean {
  const marker = readMarker(dbs);
  const expected =
    marker === undefined ? (height === 0 ? 0 : -1) : marker.version === QUERY_INDEX_VERSION ? marker.next : -1;
  if (expected !== height) return false;
  indexHeight(dbs, height, putInto(dbs), justPut);
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
