/**
 * Reads of the query index (queryIndex.ts; layouts in queryIndexKeys.ts). Each query is one key range of
 * records, each record a block's worth of items; a page is a seek to its start (the range's start, or the
 * record a cursor names, then a binary search for the item after the cursor's in it) and then at most `limit`
 * items, so a page deep in a huge range costs what the first one costs. An entry's hash is read from its entry
 * block's body in place (32 bytes at a fixed offset), not held by the index.
 *
 * The shapes answered are those of ledger/api.ts QueryIndexApi (the store imports nothing of the ledger; the
 * composition root hands this object to the API as that contract, and the compiler checks the fit there).
 */
import { DIRECTORY_BLOCK_ENTRY_SIZE, DIRECTORY_BLOCK_HEADER_SIZE } from "../protocol/dblock.js";
import { ENTRY_BLOCK_HEADER_SIZE, entryTimestampSeconds, MINUTES_PER_BLOCK, markerMinute } from "../protocol/eblock.js";
import { entryRawView } from "./entryRecord.js";
import type { Databases } from "./environment.js";
import { BlockKind, heightKey } from "./keys.js";
import {
  ADDRESS_ITEM_BYTES,
  ADDRESS_ITEM_NAMES,
  ADDRESS_KEY_LENGTH,
  AddressKind,
  addressItemNumber,
  CHAIN_HEIGHT_KEY_LENGTH,
  type ChainHeightValue,
  chainHeightKey,
  copyOf,
  decodeAddressItem,
  decodeChainHeightValue,
  entryExtIds,
  extIdKeyBlock,
  extIdRange,
  extIdScope,
  ITEM_BYTES,
  itemPosition,
  prefixEnd,
  QUERY_EXTID_LEVELS,
  type QueryDbName,
} from "./queryIndexKeys.js";

/**
 * Most candidate items one page reads when candidates are checked (a search filtered by chain, an ext ID longer
 * than a key holds, more ext IDs than are indexed): the page ends there, short, with a cursor at the last one
 * read, so no request scans without bound (~1 µs per candidate here: a few ms). A record skipped as a whole (an
 * entry block of another chain) counts as one.
 */
export const MAX_KEYS_PER_PAGE = 5000;

type Page<T> = { items: T[]; next: Uint8Array | undefined; last: Uint8Array | undefined } | { refused: string };

interface Entry {
  chainId: Uint8Array;
  entryHash: Uint8Array;
  entryBlockKeyMR: Uint8Array;
  directoryBlockHeight: number;
  timestamp: number;
  position: number;
}

/**
 * The items of one index record, in ledger order: `count` of them, item k with the item index `id(k)`
 * (ascending in k: what a cursor holds after the record's key) and its answer `item(k)` (undefined: a candidate
 * that is no match). A record that is no match as a whole expands to undefined.
 */
interface Group<T> {
  count: number;
  id(k: number): number;
  item(k: number): T | undefined;
}

/** A position's last 4 bytes: the item index after the record's key. */
function itemOf(position: Uint8Array): number {
  return Buffer.from(position.buffer, position.byteOffset, position.byteLength).readUInt32BE(position.length - 4);
}

/** The first k of `g` whose item index is above `item` (g.count when none): a binary search, ids ascending. */
function firstAbove(g: Group<unknown>, item: number): number {
  let lo = 0;
  let hi = g.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (g.id(mid) > item) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * An entry block's body read in place: the item index of entry k (markers skipped), its hash, its minute (the
 * next marker's, MINUTES_PER_BLOCK without one). `body` is lmdb-js's read buffer (a view: read it before the
 * next read of this thread). lmdb-js copies a value into it whole (below 16 MiB; a view of the map above), so a
 * page costs a copy of its entry block: ~640 KB for a block of 20,000 entries of one chain, tens of µs.
 */
class BlockEntries {
  constructor(
    readonly record: ChainHeightValue,
    readonly count: number,
  ) {}

  static of(record: ChainHeightValue, body: Uint8Array | undefined): BlockEntries | undefined {
    if (body === undefined) return undefined;
    const items = Math.floor((body.length - ENTRY_BLOCK_HEADER_SIZE) / 32);
    return new BlockEntries(record, Math.max(0, items - record.markers.length));
  }

  /** Item index (in the body, markers counted) of entry k. */
  id(k: number): number {
    let index = k;
    for (const m of this.record.markers) {
      if (m > index) break;
      index++;
    }
    return index;
  }

  entry(
    body: Uint8Array,
    k: number,
  ): { entryHash: Uint8Array; entryBlockKeyMR: Uint8Array; timestamp: number; position: number } {
    const index = this.id(k);
    const at = ENTRY_BLOCK_HEADER_SIZE + 32 * index;
    let minute = MINUTES_PER_BLOCK;
    const next = this.record.markers.find((m) => m > index);
    if (next !== undefined) {
      const found = markerMinute(
        body.subarray(ENTRY_BLOCK_HEADER_SIZE + 32 * next, ENTRY_BLOCK_HEADER_SIZE + 32 * next + 32),
      );
      if (found !== 0) minute = found;
    }
    return {
      entryHash: copyOf(body, at, at + 32),
      entryBlockKeyMR: this.record.entryBlockKeyMR,
      timestamp: entryTimestampSeconds(this.record.directoryTimestampMinutes, minute),
      position: k,
    };
  }
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** Do the ext IDs of an entry start with `wanted` (the last one equal, or starting with it)? */
function extIdsMatch(have: readonly Uint8Array[], wanted: readonly Uint8Array[], match: "exact" | "prefix"): boolean {
  if (have.length < wanted.length) return false;
  const last = wanted.length - 1;
  for (let i = 0; i < last; i++) if (!bytesEqual(have[i]!, wanted[i]!)) return false;
  return match === "exact" ? bytesEqual(have[last]!, wanted[last]!) : startsWith(have[last]!, wanted[last]!);
}

function u32At(b: Uint8Array, at: number): number {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).readUInt32BE(at);
}

export class QueryIndexReader {
  constructor(
    private readonly dbs: Pick<Databases, "entryRecords" | "blocks" | "heights" | QueryDbName>,
    /** where a background rebuild stands (queryIndexRebuild.ts); absent: the index is always current */
    private readonly state?: { rebuilding(): { nextHeight: number; savedHeight: number } | undefined },
  ) {}

  /** Where a background rebuild stands; undefined once every saved height is indexed (QueryIndexApi). */
  rebuilding(): { nextHeight: number; savedHeight: number } | undefined {
    return this.state?.rebuilding();
  }

  chainEntries(q: { chainId: Uint8Array; after?: Uint8Array; desc: boolean; limit: number }): Page<Entry> {
    return this.page("qChainEntries", q.chainId, CHAIN_HEIGHT_KEY_LENGTH, q, (key, value) => {
      const record = decodeChainHeightValue(value);
      const height = u32At(key, 32);
      // the body stays valid while this record's items are read: nothing else is read meanwhile
      const body = this.entryBlockBody(record.entryBlockKeyMR);
      const block = BlockEntries.of(record, body);
      if (block === undefined || body === undefined) return undefined;
      return {
        count: block.count,
        id: (k) => block.id(k),
        item: (k) => ({ chainId: q.chainId, directoryBlockHeight: height, ...block.entry(body, k) }),
      };
    });
  }

  searchEntries(q: {
    extIds: Uint8Array[];
    match: "exact" | "prefix";
    chainId?: Uint8Array;
    after?: Uint8Array;
    limit: number;
  }): Page<Entry> {
    const { prefix, check } = this.extIdQuery(q.extIds, q.match);
    return this.page("qEntryExtIds", prefix, undefined, { ...q, desc: false }, (key, value) => {
      // the item list first: the reads below reuse the buffer the range handed it in
      const items = Buffer.from(value);
      const { height, place } = extIdKeyBlock(key);
      const located = this.entryBlockAt(height, place);
      if (located === undefined) return undefined;
      const { chainId, keyMR } = located;
      if (q.chainId !== undefined && !bytesEqual(chainId, q.chainId)) return undefined;
      const recordValue = this.dbs.qChainEntries.getBinary(chainHeightKey(chainId, height));
      if (recordValue === undefined) return undefined;
      const record = decodeChainHeightValue(recordValue);
      const body = this.entryBlockBody(keyMR);
      const block = BlockEntries.of(record, body);
      if (block === undefined || body === undefined) return undefined;
      // entry k of the block from its item index: item index minus the markers before it
      const entryOf = (index: number): number => {
        let before = 0;
        for (const m of record.markers) if (m < index) before++;
        return index - before;
      };
      return {
        count: items.length / 4,
        id: (k) => items.readUInt32BE(4 * k),
        item: (k) => {
          // a check reads the entry through the read buffer the body is in: then the body is read again
          const from = check ? this.entryBlockBody(keyMR) : body;
          if (from === undefined) return undefined;
          const e = block.entry(from, entryOf(items.readUInt32BE(4 * k)));
          if (check && !this.entryMatches(e.entryHash, q.extIds, q.match)) return undefined;
          return { chainId, directoryBlockHeight: height, ...e };
        },
      };
    });
  }

  searchChains(q: { extIds: Uint8Array[]; match: "exact" | "prefix"; after?: Uint8Array; limit: number }) {
    const { prefix, check } = this.extIdQuery(q.extIds, q.match);
    return this.page("qChainExtIds", prefix, undefined, { ...q, desc: false }, (key, value) => {
      const chainId = copyOf(value, 0, 32);
      const firstEntryHash = copyOf(value, 32, 64);
      return {
        count: 1,
        id: () => 0,
        item: () => {
          if (check && !this.entryMatches(firstEntryHash, q.extIds, q.match)) return undefined;
          const count = this.dbs.qChainCounts.getBinary(chainId);
          return {
            chainId,
            firstEntryHash,
            directoryBlockHeight: extIdKeyBlock(key).height,
            entryCount: count === undefined || count.length !== 8 ? 0n : count.readBigUInt64BE(0),
          };
        },
      };
    });
  }

  addressHistory(q: { kind: "FA" | "EC"; address: Uint8Array; after?: Uint8Array; desc: boolean; limit: number }) {
    const prefix = Buffer.alloc(33);
    prefix[0] = q.kind === "FA" ? AddressKind.asset : AddressKind.ec;
    prefix.set(q.address, 1);
    return this.page(
      "qAddresses",
      prefix,
      ADDRESS_KEY_LENGTH,
      q,
      (key, value) => {
        // nothing else is read while this record's items are: the value is used in place
        const height = u32At(key, 33);
        return {
          count: Math.floor(value.length / ADDRESS_ITEM_BYTES),
          id: (k) => addressItemNumber(value, k),
          item: (k) => {
            const v = decodeAddressItem(value, k);
            return {
              kind: ADDRESS_ITEM_NAMES[v.item] as "input" | "output" | "ecpurchase" | "commit" | "chaincommit",
              txId: v.txId,
              directoryBlockHeight: height,
              timestamp: v.timestamp,
              amount: v.amount,
            };
          },
        };
      },
      true,
    );
  }

  /**
   * A saved entry's marshalled bytes by hash, read in place: lmdb-js's reused read buffer, valid until the next read
   * of this thread (the answer writer, rpc/v2/entryPageText.ts, writes them out first). Undefined when not saved.
   */
  entryBytes(entryHash: Uint8Array): Uint8Array | undefined {
    const v = this.dbs.entryRecords.getBinaryFast(entryHash);
    // the buffer's `length` is the value's (store.ts plain)
    return v === undefined ? undefined : entryRawView(new Uint8Array(v.buffer, v.byteOffset, v.length));
  }

  /** A saved entry block's raw bytes (without the store's kind byte), read in place (BlockEntries). */
  private entryBlockBody(keyMR: Uint8Array): Uint8Array | undefined {
    const v = this.dbs.blocks.getBinaryFast(keyMR);
    return v === undefined ? undefined : new Uint8Array(v.buffer, v.byteOffset + 1, v.length - 1);
  }

  /** Chain ID and keyMR of the entry block at `place` of height `height`'s directory block (64 bytes in place). */
  private entryBlockAt(height: number, place: number): { chainId: Uint8Array; keyMR: Uint8Array } | undefined {
    const primary = this.dbs.heights.getBinary(heightKey(BlockKind.directory, height));
    if (primary === undefined) return undefined;
    const fast = this.dbs.blocks.getBinaryFast(primary);
    const raw = fast === undefined ? undefined : new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
    // the kind byte, then the directory block
    const at = 1 + DIRECTORY_BLOCK_HEADER_SIZE + DIRECTORY_BLOCK_ENTRY_SIZE * place;
    if (raw === undefined || raw.length < at + DIRECTORY_BLOCK_ENTRY_SIZE) return undefined;
    return { chainId: copyOf(raw, at, at + 32), keyMR: copyOf(raw, at + 32, at + 64) };
  }

  /**
   * The key range of a search, and whether each candidate is checked against its entry's ext IDs (`check`: more
   * ext IDs than are indexed, or an ext ID longer than a key holds).
   */
  private extIdQuery(extIds: readonly Uint8Array[], match: "exact" | "prefix"): { prefix: Buffer; check: boolean } {
    const deep = extIds.length > QUERY_EXTID_LEVELS;
    const level = Math.min(extIds.length, QUERY_EXTID_LEVELS) - 1;
    // deeper than indexed: the deepest indexed ext ID must be equal, the rest is checked per entry
    const range = extIdRange(extIdScope(extIds, level), extIds[level]!, deep ? "exact" : match);
    return { prefix: range.prefix, check: deep || range.needsCheck };
  }

  private entryMatches(entryHash: Uint8Array, wanted: readonly Uint8Array[], match: "exact" | "prefix"): boolean {
    const record = this.dbs.entryRecords.getBinary(entryHash);
    const raw = record === undefined ? undefined : entryRawView(record);
    const have = raw === undefined ? undefined : entryExtIds(raw);
    return have !== undefined && extIdsMatch(have, wanted, match);
  }

  /**
   * One page of the records of `db` whose keys start with `prefix` (all `keyLength` bytes long, when fixed), in
   * key order or reversed, each expanded into its items (`expand`), strictly after the position `q.after`. At
   * most `limit` items and MAX_KEYS_PER_PAGE candidates read; `next` and `last` are the position of the last item
   * read. A position is a record's key ‖ u32 item index — or, for `chunked` records (qAddresses: several records
   * per group, each key ending with its last item's index), the group's key ‖ u32 item index, as long as a key.
   */
  private page<T>(
    db: QueryDbName,
    prefix: Uint8Array,
    keyLength: number | undefined,
    q: { after?: Uint8Array; desc: boolean; limit: number },
    expand: (key: Buffer, value: Uint8Array) => Group<T> | undefined,
    chunked = false,
  ): Page<T> {
    const after = q.after;
    // the group the cursor's item is in: its record's key, or (chunked) the key without its last 4 bytes
    const afterGroup = after?.subarray(0, after.length - ITEM_BYTES);
    if (
      after !== undefined &&
      afterGroup !== undefined &&
      ((keyLength !== undefined && (chunked ? after.length : afterGroup.length) !== keyLength) ||
        afterGroup.length <= prefix.length ||
        !startsWith(after, prefix))
    )
      return { refused: "it was made for another query (its position is outside this query's range)" };
    const groupOf = (key: Buffer): Buffer => (chunked ? key.subarray(0, key.length - ITEM_BYTES) : key);
    const afterItem = after === undefined ? 0 : itemOf(after);
    const end = prefixEnd(prefix);
    // from the record holding the cursor's item (inclusive: its items after the cursor's), in either direction
    const range = q.desc
      ? { reverse: true, start: this.startBefore(db, after, afterGroup, chunked) ?? end, end: prefix }
      : { start: (chunked ? after : afterGroup) ?? prefix, end };
    const items: T[] = [];
    let lastPosition: Uint8Array | undefined;
    let read = 0;
    const full = (): boolean => items.length === q.limit || read === MAX_KEYS_PER_PAGE;
    // keys only, each value read by getBinaryFast: a value read by the range would be copied whether used or not
    for (const key of this.dbs[db].getKeys(range)) {
      const k = key as Uint8Array;
      if (!startsWith(k, prefix) || (keyLength !== undefined && k.length !== keyLength)) continue;
      // a record is left: the next page starts after the last item taken (or read)
      if (full()) return { items, next: lastPosition, last: lastPosition };
      const recordKey = Buffer.from(k);
      const fast = this.dbs[db].getBinaryFast(recordKey);
      // lmdb-js's reused read buffer has the value's `length`, not its byteLength: a view of exactly the value
      const value = fast === undefined ? undefined : new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
      const group = value === undefined ? undefined : expand(recordKey, value);
      if (group === undefined || group.count === 0) {
        // no match as a whole (or nothing in it): passed over in one step (chunked records always expand)
        read++;
        if (!chunked) lastPosition = itemPosition(recordKey, q.desc ? 0 : 0xffffffff);
        continue;
      }
      const atCursor = afterGroup !== undefined && bytesEqual(groupOf(recordKey), afterGroup);
      const step = q.desc ? -1 : 1;
      let i = q.desc
        ? (atCursor ? firstAbove(group, afterItem - 1) : group.count) - 1
        : atCursor
          ? firstAbove(group, afterItem)
          : 0;
      for (; i >= 0 && i < group.count; i += step) {
        if (full()) return { items, next: lastPosition, last: lastPosition };
        read++;
        lastPosition = itemPosition(groupOf(recordKey), group.id(i));
        const item = group.item(i);
        if (item !== undefined) items.push(item);
      }
    }
    return { items, next: undefined, last: lastPosition };
  }

  /**
   * Where a descending page starts: the cursor's record (inclusive). Chunked, that is the first record of the
   * cursor's group whose key (ending with its last item) is at or after the position, when there is one; else
   * the position itself (the records before it).
   */
  private startBefore(
    db: QueryDbName,
    after: Uint8Array | undefined,
    afterGroup: Uint8Array | undefined,
    chunked: boolean,
  ): Uint8Array | undefined {
    if (after === undefined || afterGroup === undefined) return undefined;
    if (!chunked) return afterGroup;
    for (const key of this.dbs[db].getKeys({ start: after, limit: 1 })) {
      const k = key as Uint8Array;
      if (startsWith(k, afterGroup) && k.length === after.length) return Buffer.from(k);
    }
    return after;
  }
}
