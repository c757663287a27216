/**
 * The query extensions' params and results (docs/api.md "Query extensions"; served by rpc/v2/queries.ts and
 * rpc/v2/proof.ts): part of the method contract, re-exported by methods.ts, which lists them in V2Methods.
 * Type-only, as methods.ts.
 */
import type { ProofJson } from "../protocol/proof.js";

/** Paging members of the query extensions: `cursor` is a `nextcursor` of the same method ("" or absent: first page). */
export interface PageParams {
  cursor?: string;
  /** 1..1000, default 100 */
  limit?: number;
}
export interface ChainEntriesParams extends PageParams {
  chainid: string;
  /** "asc" (default) or "desc" */
  order?: "asc" | "desc";
  /** default true; false leaves `content` out */
  content?: boolean;
}
export interface SearchEntriesParams extends PageParams {
  /** hex ext IDs the entry's ext IDs must start with, position by position */
  extids: string[];
  /** "exact" (default): the last ext ID equal; "prefix": the entry's starts with it */
  match?: "exact" | "prefix";
  chainid?: string;
  content?: boolean;
}
export interface SearchChainsParams extends PageParams {
  extids: string[];
  match?: "exact" | "prefix";
}
export interface AddressHistoryParams extends PageParams {
  /** FA… or EC… public address */
  address: string;
  order?: "asc" | "desc";
}
/** An entry of a saved block as the query extensions answer it (hex; timestamp seconds since epoch). */
export interface QueryEntryJson {
  entryhash: string;
  /** search-entries only */
  chainid?: string;
  extids: string[];
  /** absent when asked with content: false */
  content?: string;
  dbheight: number;
  entryblockkeymr: string;
  timestamp: number;
  /** place among the entry block's entries, from 0 */
  position: number;
}
/** The cursors of a page: `nextcursor` "" at the end; `resumecursor` past the last position read, at the end too. */
export interface PageCursors {
  nextcursor: string;
  /** ask again from here once more is saved: exactly what was saved since ("" when nothing was read) */
  resumecursor: string;
}
export interface ChainEntriesResult extends PageCursors {
  entries: QueryEntryJson[];
}
export type SearchEntriesResult = ChainEntriesResult;
export interface SearchChainsResult extends PageCursors {
  chains: { chainid: string; extids: string[]; firstentryhash: string; dbheight: number; entrycount: number }[];
}
export interface AddressHistoryResult extends PageCursors {
  items: {
    kind: "input" | "output" | "ecpurchase" | "commit" | "chaincommit";
    txid: string;
    dbheight: number;
    timestamp: number;
    /** decimal string: base units (input, output) or entry credits (ecpurchase, commit, chaincommit) */
    amount: string;
  }[];
}

/** `proof` (extension, docs/api.md §5.8): an entry hash. */
export interface ProofParams {
  hash: string;
}
/** A self-contained proof of an entry (protocol/proof.ts: format, derivation of the authority set, verifier). */
export type ProofResult = ProofJson;
