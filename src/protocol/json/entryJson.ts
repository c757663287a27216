// JSON views of entries (spec §2.7; reference api-behavior §4.2, §4.6).
import { toHex } from "../bytes.js";
import type { Entry } from "../entry.js";

/** `entry` method result: hex strings; `extids` is `[]` (never null) when the entry has none. */
export interface EntryJson {
  chainid: string;
  content: string;
  extids: string[];
}

/** The entry variant of the `transaction` method result, with the entry's version (always 0). */
export interface TransactionEntryJson {
  version: number;
  chainid: string;
  extids: string[];
  content: string;
}

/** `{chainid, content, extids}` of the `entry` method (lowercase hex; content "" when empty). */
export function entryToJson(entry: Entry): EntryJson {
  return { chainid: toHex(entry.chainId), content: toHex(entry.content), extids: entry.extIds.map(toHex) };
}

/** `{version, chainid, extids, content}` as the `transaction` method returns an entry. */
export function entryToTransactionJson(entry: Entry): TransactionEntryJson {
  return {
    version: entry.version,
    chainid: toHex(entry.chainId),
    extids: entry.extIds.map(toHex),
    content: toHex(entry.content),
  };
}
