/**
 * The JSON events of the live feed (docs/api.md, "Live event feed"): how a saved block, an accepted
 * message or a status looks on the wire. Hashes are lower-case hex, addresses human-readable (FA…/EC…),
 * amounts base units, times seconds since the epoch (as the API's block JSON).
 */
import type { BlockAnchor } from "../../anchor/index.js";
import { AckStatus, type LedgerApi } from "../../ledger/api.js";
import { toHex } from "../../protocol/bytes.js";
import type { DirectoryBlock } from "../../protocol/dblock.js";
import { directoryBlockHashes } from "../../protocol/dblock.js";
import { entriesWithMinutes } from "../../protocol/eblock.js";
import type { Entry } from "../../protocol/entry.js";
import { assetBlockTransactions } from "../../protocol/fblock.js";
import { type TxIoJson, txIoJson } from "../../protocol/json/transactionJson.js";
import { type Transaction, transactionId } from "../../protocol/transaction.js";

/** Directory block entries before the entry blocks: admin, EC and asset block. */
const SYSTEM_BLOCKS = 3;

/** A saved block: sent to every connection. */
export interface BlockEvent {
  event: "block";
  height: number;
  keymr: string;
  /** directory block time, seconds since the epoch */
  timestamp: number;
  entryblocks: number;
  entries: number;
  transactions: number;
}

/** The end of a minute of the open block (subscription `minutes`). */
export interface MinuteEvent {
  event: "minute";
  /** the open block's height */
  height: number;
  /** the minute that ended, 1..10 (10 closed the block) */
  minute: number;
}

/** An entry acknowledged or confirmed (subscription `chains`). */
export interface EntryEvent {
  event: "entry";
  status: typeof AckStatus.TransactionACK | typeof AckStatus.DBlockConfirmed;
  entryhash: string;
  chainid: string;
  /** directory block height: the open block when acknowledged, the saved block when confirmed */
  height: number;
  /** with subscription `content`: the entry's external IDs and content, hex */
  extids?: string[];
  content?: string;
}

/** An asset transaction acknowledged or confirmed (subscription `addresses`, any input or output). */
export interface TransactionEvent {
  event: "transaction";
  status: typeof AckStatus.TransactionACK | typeof AckStatus.DBlockConfirmed;
  txid: string;
  height: number;
  inputs: TxIoJson[];
  outputs: TxIoJson[];
  ecoutputs: TxIoJson[];
}

/** A subscribed hash (entry hash or transaction ID) changed status (subscription `hashes`). */
export interface StatusEvent {
  event: "status";
  hash: string;
  status: AckStatus;
  height?: number;
}

/** The node's health changed (subscription `health`); also sent once when subscribing. */
export interface HealthEvent {
  event: "health";
  /** booted, taking writes and not stalled */
  healthy: boolean;
  booted: boolean;
  /** why writes are refused (storage full), absent while they are taken */
  writesrefused?: string;
  /** no minute ended for several minute lengths on a producing node */
  stalled: boolean;
}

export type FeedEvent = BlockEvent | MinuteEvent | EntryEvent | TransactionEvent | StatusEvent | HealthEvent;

/** The items of a saved block the feed reports: its summary, its entries and its transactions. */
export interface SavedBlockItems {
  summary: BlockEvent;
  /** entry hash hex → chain ID hex, block order */
  entries: { entryHash: string; chainId: string }[];
  transactions: Transaction[];
}

/** Read a saved block's summary and items; undefined when `height` is not saved. */
export function savedBlockItems(
  ledger: Pick<LedgerApi, "directoryBlockByHeight" | "entryBlockByHash" | "assetBlockByHeight">,
  height: number,
): SavedBlockItems | undefined {
  const d = ledger.directoryBlockByHeight(height);
  if (d === undefined) return undefined;
  const dblock: DirectoryBlock = d.block;
  const entries: SavedBlockItems["entries"] = [];
  for (const e of dblock.entries.slice(SYSTEM_BLOCKS)) {
    const eb = ledger.entryBlockByHash(e.keyMR);
    if (eb === undefined) continue;
    const chainId = toHex(e.chainId);
    for (const item of entriesWithMinutes(eb.block)) entries.push({ entryHash: toHex(item.entryHash), chainId });
  }
  const asset = ledger.assetBlockByHeight(height);
  const transactions = asset === undefined ? [] : assetBlockTransactions(asset.block);
  return {
    summary: {
      event: "block",
      height,
      keymr: toHex(directoryBlockHashes(dblock).keyMR),
      timestamp: dblock.timestamp * 60,
      entryblocks: dblock.entries.length - SYSTEM_BLOCKS,
      entries: entries.length,
      transactions: transactions.length,
    },
    entries,
    transactions,
  };
}

/** An entry event; `entry` adds its ext IDs and content. */
export function entryEvent(
  status: EntryEvent["status"],
  entryHash: string,
  chainId: string,
  height: number,
  entry?: Entry,
): EntryEvent {
  const e: EntryEvent = { event: "entry", status, entryhash: entryHash, chainid: chainId, height };
  if (entry !== undefined) {
    e.extids = entry.extIds.map(toHex);
    e.content = toHex(entry.content);
  }
  return e;
}

export function transactionEvent(
  status: TransactionEvent["status"],
  tx: Transaction,
  height: number,
): TransactionEvent {
  return {
    event: "transaction",
    status,
    txid: toHex(transactionId(tx)),
    height,
    inputs: tx.inputs.map((io) => txIoJson(io, "FA")),
    outputs: tx.outputs.map((io) => txIoJson(io, "FA")),
    ecoutputs: tx.ecOutputs.map((io) => txIoJson(io, "EC")),
  };
}

/** The address keys (RCD hash or EC public key, hex) a transaction touches, each once. */
export function transactionAddressKeys(tx: Transaction): Set<string> {
  const keys = new Set<string>();
  for (const io of [...tx.inputs, ...tx.outputs, ...tx.ecOutputs]) keys.add(toHex(io.address));
  return keys;
}

/** An `anchored` event: an anchor record covering new heights, with its external transaction. */
export function anchoredEvent(a: BlockAnchor): Record<string, unknown> {
  const r = a.record;
  return {
    event: "anchored",
    dbheightmin: r.dbHeightMin,
    dbheightmax: r.dbHeightMax,
    windowmr: toHex(r.windowMR),
    recordheight: r.recordHeight,
    anchorrecordentryhash: toHex(a.entryHash),
    contractaddress: r.ethereum.contractAddress,
    txid: r.ethereum.txId,
    blockheight: r.ethereum.blockHeight,
    blockhash: r.ethereum.blockHash,
    txindex: r.ethereum.txIndex,
  };
}

/** The events a replay holds back while it runs (the rest — hello, subscribed, errors — go out at once). */
const QUEUED_EVENTS = new Set(["block", "minute", "entry", "transaction", "status", "health"]);
export function isFeedEvent(e: FeedEvent | Record<string, unknown>): e is FeedEvent {
  return QUEUED_EVENTS.has(e.event as string);
}

/** An event a replay of saved blocks also produces (a block, or a confirmation in one). */
export function isBlockDerived(e: FeedEvent): e is FeedEvent & { height: number } {
  return (
    e.event === "block" ||
    ((e.event === "entry" || e.event === "transaction" || e.event === "status") &&
      "status" in e &&
      e.status === AckStatus.DBlockConfirmed)
  );
}

/** The status of an entry, commit or transaction hash now: what a new `hashes` subscriber starts from. */
export function currentStatusEvent(ledger: Pick<LedgerApi, "entryAck" | "transactionAck">, hash: string): FeedEvent {
  const bytes = Buffer.from(hash, "hex");
  const { commit, entry } = ledger.entryAck(bytes);
  if (entry.status !== AckStatus.Unknown) return { event: "status", hash, status: entry.status };
  if (commit.status !== AckStatus.Unknown) return { event: "status", hash, status: AckStatus.NotConfirmed };
  return { event: "status", hash, status: ledger.transactionAck(bytes).status };
}
