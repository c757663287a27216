// JSON view of an entry-credit block (spec §2.4; reference api-behavior §4.6, §5.5; wire-format §7.4).
import { toHex } from "../bytes.js";
import { EC_CHAIN_ID } from "../chains.js";
import type { ChainCommit, Commit, EntryCommit } from "../commit.js";
import { type ECBlock, type ECBlockItem, ecBlockHashes, encodeECBlockBody } from "../ecblock.js";

/**
 * A commit as the reference node prints it: `millitime` is the 6 timestamp bytes as 12 hex characters
 * (milliseconds since epoch, big-endian), `credits` in entry credits.
 */
export interface EntryCommitJson {
  version: number;
  millitime: string;
  entryhash: string;
  credits: number;
  ecpubkey: string;
  sig: string;
}
/** A chain commit as the reference node prints it (EntryCommitJson plus chainidhash and weld). */
export interface ChainCommitJson {
  version: number;
  millitime: string;
  chainidhash: string;
  weld: string;
  entryhash: string;
  credits: number;
  ecpubkey: string;
  sig: string;
}
/** Legacy (M1) balance increase: `index` is the asset transaction's output index, `numec` entry credits. */
export interface BalanceIncreaseJson {
  ecpubkey: string;
  txid: string;
  index: number;
  numec: number;
}
/** Body items are untagged; clients tell them apart by their keys. */
export type ECBlockItemJson =
  | { serverindexnumber: number }
  | { number: number } // minute 1..10
  | EntryCommitJson
  | ChainCommitJson
  | BalanceIncreaseJson;

/** The `ecblock` object of `ecblock-by-height` / `entrycredit-block` (the rpc layer adds `rawdata`). */
export interface ECBlockJson {
  header: {
    bodyhash: string;
    prevheaderhash: string;
    prevfullhash: string;
    dbheight: number;
    /** hex of the header expansion area ("" when empty, which is always for blocks this node builds) */
    headerexpansionarea: string;
    /** number of body items, minute markers included */
    objectcount: number;
    /** body bytes */
    bodysize: number;
    chainid: string;
    ecchainid: string;
  };
  body: { entries: ECBlockItemJson[] };
  /** sha256(header): the hash the directory block lists ("keymr") */
  headerhash: string;
  /** sha256(header ‖ body) */
  fullhash: string;
}

function entryCommitToJson(c: EntryCommit): EntryCommitJson {
  return {
    version: c.version,
    millitime: toHex(c.raw.subarray(1, 7)),
    entryhash: toHex(c.entryHash),
    credits: c.credits,
    ecpubkey: toHex(c.ecPublicKey),
    sig: toHex(c.signature),
  };
}

function chainCommitToJson(c: ChainCommit): ChainCommitJson {
  return {
    version: c.version,
    millitime: toHex(c.raw.subarray(1, 7)),
    chainidhash: toHex(c.chainIdHash),
    weld: toHex(c.weld),
    entryhash: toHex(c.entryHash),
    credits: c.credits,
    ecpubkey: toHex(c.ecPublicKey),
    sig: toHex(c.signature),
  };
}

/** A commit as printed in EC block bodies and as the `ectransaction` of the `transaction` method. */
export function commitToJson(commit: EntryCommit): EntryCommitJson;
export function commitToJson(commit: ChainCommit): ChainCommitJson;
export function commitToJson(commit: Commit): EntryCommitJson | ChainCommitJson;
export function commitToJson(commit: Commit): EntryCommitJson | ChainCommitJson {
  return commit.kind === "entry" ? entryCommitToJson(commit) : chainCommitToJson(commit);
}

/**
 * One body item. A balance increase's u64 `index`/`numec` become JSON numbers (exact up to 2^53; the item is
 * legacy and never produced by this node).
 */
export function ecBlockItemToJson(item: ECBlockItem): ECBlockItemJson {
  switch (item.type) {
    case "serverIndex":
      return { serverindexnumber: item.number };
    case "minute":
      return { number: item.number };
    case "entryCommit":
      return entryCommitToJson(item.commit);
    case "chainCommit":
      return chainCommitToJson(item.commit);
    case "balanceIncrease":
      return {
        ecpubkey: toHex(item.ecPublicKey),
        txid: toHex(item.txId),
        index: Number(item.index),
        numec: Number(item.numEC),
      };
  }
}

/** The `ecblock` object (header, body entries, headerhash, fullhash), lowercase hex throughout. */
export function ecBlockToJson(block: ECBlock): ECBlockJson {
  const { headerHash, fullHash } = ecBlockHashes(block);
  const chainId = toHex(EC_CHAIN_ID);
  return {
    header: {
      bodyhash: toHex(block.bodyHash),
      prevheaderhash: toHex(block.prevHeaderHash),
      prevfullhash: toHex(block.prevFullHash),
      dbheight: block.dbHeight,
      headerexpansionarea: toHex(block.headerExpansion),
      objectcount: block.items.length,
      bodysize: encodeECBlockBody(block.items).length,
      chainid: chainId,
      ecchainid: chainId,
    },
    body: { entries: block.items.map(ecBlockItemToJson) },
    headerhash: toHex(headerHash),
    fullhash: toHex(fullHash),
  };
}
