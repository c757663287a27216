/**
 * Reads of the query index (queryIndex.ts; layouts in queryIndexKeys.ts). Each query is one key range; a page
 * is a seek to its start (the range's start, or just past the position a cursor carries) and then at most
 * `limit` matching keys, so a page deep in a huge range costs what the first one costs.
 *
 * The shapes answered are those of ledger/api.ts QueryIndexApi (the store imports nothing of the ledger; the
 * composition root hands this object to the API as that contract, and the compiler checks the fit there).
 */
import { entryRawView } from "./entryRecord.js";
import type { Databases } from "./environment.js";
import {
  ADDRESS_ITEM_NAMES,
  ADDRESS_KEY_LENGTH,
  AddressKind,
  CHAIN_ENTRY_KEY_LENGTH,
  decodeAddressItemValue,
  decodeChainEntryValue,
  EXTID_KEY_BYTES,
  EXTID_KEY_LENGTH,
  EXTID_KEY_POSITION_AT,
  entryExtIds,
  extIdKeyChainEntry,
  extIdKeyLength,
  extIdRange,
  extIdScope,
  positionHeight,
  prefixEnd,
  QUERY_EXTID_LEVELS,
  type QueryDbName,
} from "./queryIndexKeys.js";

/**
 * Most index keys one page reads when candidates are checked (a search filtered by chain, an ext ID longer
 * than a key holds, more ext IDs than are indexed): the page ends there, short, with a cursor at the last key
 * read, so no request scans without bound (~1 µs per key here: a few ms).
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

export class QueryIndexReader {
  constructor(private readonly dbs: Pick<Databases, "entryRecords" | QueryDbName>) {}

  chainEntries(q: { chainId: Uint8Array; after?: Uint8Array; desc: boolean; limit: number }): Page<Entry> {
    return this.page("qChainEntries", q.chainId, CHAIN_ENTRY_KEY_LENGTH, q, (key, value) => {
      const v = decodeChainEntryValue(value);
      return {
        chainId: q.chainId,
        entryHash: v.entryHash,
        entryBlockKeyMR: v.entryBlockKeyMR,
        directoryBlockHeight: positionHeight(key, 32),
        timestamp: v.timestamp,
        position: v.ordinal,
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
    const { prefix, check, minLength } = this.extIdQuery(q.extIds, q.match);
    return this.page("qEntryExtIds", prefix, EXTID_KEY_LENGTH, { ...q, desc: false }, (key, value) => {
      if (extIdKeyLength(key) < minLength) return undefined;
      const chainId = value.slice(0, 32);
      if (q.chainId !== undefined && !bytesEqual(chainId, q.chainId)) return undefined;
      const located = this.dbs.qChainEntries.getBinary(extIdKeyChainEntry(key, chainId));
      if (located === undefined) return undefined;
      const v = decodeChainEntryValue(located);
      if (check && !this.entryMatches(v.entryHash, q.extIds, q.match)) return undefined;
      return {
        chainId,
        entryHash: v.entryHash,
        entryBlockKeyMR: v.entryBlockKeyMR,
        directoryBlockHeight: positionHeight(key, EXTID_KEY_POSITION_AT),
        timestamp: v.timestamp,
        position: v.ordinal,
      };
    });
  }

  searchChains(q: { extIds: Uint8Array[]; match: "exact" | "prefix"; after?: Uint8Array; limit: number }) {
    const { prefix, check, minLength } = this.extIdQuery(q.extIds, q.match);
    return this.page("qChainExtIds", prefix, EXTID_KEY_LENGTH, { ...q, desc: false }, (key, value) => {
      if (extIdKeyLength(key) < minLength) return undefined;
      const chainId = value.slice(0, 32);
      const firstEntryHash = value.slice(32, 64);
      if (check && !this.entryMatches(firstEntryHash, q.extIds, q.match)) return undefined;
      const count = this.dbs.qChainCounts.getBinary(chainId);
      return {
        chainId,
        firstEntryHash,
        directoryBlockHeight: positionHeight(key, EXTID_KEY_POSITION_AT),
        entryCount: count === undefined || count.length !== 8 ? 0n : count.readBigUInt64BE(0),
      };
    });
  }

  addressHistory(q: { kind: "FA" | "EC"; address: Uint8Array; after?: Uint8Array; desc: boolean; limit: number }) {
    const prefix = Buffer.alloc(33);
    prefix[0] = q.kind === "FA" ? AddressKind.asset : AddressKind.ec;
    prefix.set(q.address, 1);
    return this.page("qAddresses", prefix, ADDRESS_KEY_LENGTH, q, (key, value) => {
      const v = decodeAddressItemValue(value);
      return {
        kind: ADDRESS_ITEM_NAMES[v.item] as "input" | "output" | "ecpurchase" | "commit" | "chaincommit",
        txId: v.txId,
        directoryBlockHeight: positionHeight(key, 33),
        timestamp: v.timestamp,
        amount: v.amount,
      };
    });
  }

  /**
   * The key range of a search, and what each candidate must pass: `minLength` (the key's ext ID length, for a
   * prefix within EXTID_KEY_BYTES whose zero padding could match) and `check` (read the entry's ext IDs).
   */
  private extIdQuery(
    extIds: readonly Uint8Array[],
    match: "exact" | "prefix",
  ): { prefix: Buffer; check: boolean; minLength: number } {
    const deep = extIds.length > QUERY_EXTID_LEVELS;
    const level = Math.min(extIds.length, QUERY_EXTID_LEVELS) - 1;
    // deeper than indexed: the deepest indexed ext ID must be equal, the rest is checked per entry
    const levelMatch = deep ? "exact" : match;
    const last = extIds[level]!;
    const range = extIdRange(extIdScope(extIds, level), last, levelMatch);
    const minLength = levelMatch === "prefix" ? Math.min(last.length, EXTID_KEY_BYTES) : 0;
    return { prefix: range.prefix, check: deep || range.needsCheck, minLength };
  }

  private entryMatches(entryHash: Uint8Array, wanted: readonly Uint8Array[], match: "exact" | "prefix"): boolean {
    const record = this.dbs.entryRecords.getBinary(entryHash);
    const raw = record === undefined ? undefined : entryRawView(record);
    const have = raw === undefined ? undefined : entryExtIds(raw);
    return have !== undefined && extIdsMatch(have, wanted, match);
  }

  /**
   * One page of the keys of `db` starting with `prefix` (all `keyLength` bytes long), in key order or reversed,
   * strictly after `q.after`: each key and value through `accept`, which returns the item or undefined (not a
   * match). At most `limit` items and MAX_KEYS_PER_PAGE keys read.
   */
  private page<T>(
    db: QueryDbName,
    prefix: Uint8Array,
    keyLength: number,
    q: { after?: Uint8Array; desc: boolean; limit: number },
    accept: (key: Uint8Array, value: Uint8Array) => T | undefined,
  ): Page<T> {
    const after = q.after;
    if (after !== undefined && (after.length !== keyLength || !startsWith(after, prefix)))
      return { refused: "it was made for another query (its position is outside this query's range)" };
    const end = prefixEnd(prefix);
    // strictly after the cursor's position (exclusiveStart), in either direction
    const range = q.desc
      ? { reverse: true, start: after ?? end, end: prefix, exclusiveStart: after !== undefined }
      : { start: after ?? prefix, end, exclusiveStart: after !== undefined };
    const items: T[] = [];
    let lastKey: Uint8Array | undefined;
    let read = 0;
    for (const { key, value } of this.dbs[db].getRange(range)) {
      const k = key as Uint8Array;
      if (!startsWith(k, prefix)) continue;
      if (items.length === q.limit || read === MAX_KEYS_PER_PAGE) {
        // a key is left: the next page starts after the last one taken (or read)
        return { items, next: lastKey, last: lastKey };
      }
      read++;
      lastKey = Buffer.from(k);
      const item = accept(lastKey, value as Uint8Array);
      if (item !== undefined) items.push(item);
    }
    return { items, next: undefined, last: lastKey };
  }
}
