/**
 * The `/v2` method table (spec §4.1): method name → handler, grouped by domain. Extras beyond the spec
 * (documented in docs/api.md): tps-rate, and the query extensions chain-entries, search-entries,
 * search-chains, address-history, proof.
 */
import type { RpcContext } from "../context.js";
import type { MethodTable } from "../jsonrpc.js";
import type { Handlers, V2Methods } from "../methods.js";
import { ack, assetAck, entryAck } from "./acks.js";
import { assetBalance, entryCreditBalance, multipleAssetBalances, multipleEcBalances } from "./balances.js";
import {
  ablockByHeight,
  adminBlock,
  assetBlock,
  dblockByHeight,
  directoryBlock,
  directoryBlockHead,
  ecblockByHeight,
  entryBlock,
  entrycreditBlock,
  fblockByHeight,
} from "./blocks.js";
import { chainHead, entry, pendingEntries, receipt } from "./entries.js";
import { currentMinute, entryCreditRate, heights, properties, tpsRate } from "./node.js";
import { proof } from "./proof.js";
import { addressHistory, chainEntriesAnswer, searchChains, searchEntriesAnswer } from "./queries.js";
import { assetSubmit, commitChain, commitEntry, revealChain, revealEntry, sendRawMessage } from "./submit.js";
import { pendingTransactions, rawData, transaction } from "./transactions.js";

/** Every `/v2` method. */
export function v2Methods(): MethodTable {
  const table: Handlers<V2Methods, RpcContext> = {
    // blocks
    "ablock-by-height": ablockByHeight,
    "admin-block": adminBlock,
    "dblock-by-height": dblockByHeight,
    "directory-block": directoryBlock,
    "directory-block-head": directoryBlockHead,
    "ecblock-by-height": ecblockByHeight,
    "entrycredit-block": entrycreditBlock,
    "fblock-by-height": fblockByHeight,
    "asset-block": assetBlock,
    "entry-block": entryBlock,
    // chains and entries
    "chain-head": chainHead,
    entry: entry,
    receipt: receipt,
    "pending-entries": pendingEntries,
    // transactions and raw data
    transaction: transaction,
    "pending-transactions": pendingTransactions,
    "raw-data": rawData,
    // acknowledgements
    ack: ack,
    "entry-ack": entryAck,
    "asset-ack": assetAck,
    // balances and rates
    "entry-credit-balance": entryCreditBalance,
    "asset-balance": assetBalance,
    "multiple-ec-balances": multipleEcBalances,
    "multiple-asset-balances": multipleAssetBalances,
    "entry-credit-rate": entryCreditRate,
    // writes
    "commit-chain": commitChain,
    "commit-entry": commitEntry,
    "reveal-chain": revealChain,
    "reveal-entry": revealEntry,
    "asset-submit": assetSubmit,
    "send-raw-message": sendRawMessage,
    // node
    heights: heights,
    "current-minute": currentMinute,
    properties: properties,
    "tps-rate": tpsRate,
    // query extensions (the node's query index)
    "chain-entries": chainEntriesAnswer,
    "search-entries": searchEntriesAnswer,
    "search-chains": searchChains,
    "address-history": addressHistory,
    // offline-verifiable proof of an entry (protocol/proof.ts)
    proof: proof,
  };
  return new Map(Object.entries(table));
}
