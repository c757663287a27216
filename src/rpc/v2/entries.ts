/**
 * Chain and entry methods (spec §4.1; reference api-behavior §4): entry, chain-head, receipt,
 * pending-entries.
 */
import { bytesEqual, toHex } from "../../protocol/bytes.js";
import { entryToJson } from "../../protocol/json/entryJson.js";
import { receiptToJson } from "../../protocol/json/receiptJson.js";
import type { RpcContext } from "../context.js";
import { missingChainHead, notFound, receiptCreationError } from "../errors.js";
import { JsonText } from "../jsonrpc.js";
import type { ChainHeadResult } from "../methods.js";
import { expectBool, expectHash, expectString, Params } from "../params.js";

/**
 * Free bytes before a kept entry answer for `{"jsonrpc":"2.0","id":<id>,"result":` — ids of up to 18 bytes
 * (numbers below 10^18, short strings) are written in place; a longer id takes the text path. The default
 * 128 would be ~30 % of a small entry's kept answer (283 bytes in the read benchmark).
 */
const ENTRY_ANSWER_HEADROOM = 48;

/**
 * `entry` {hash}: an entry as soon as the node has acknowledged it (before it is in a block).
 * `extids` is `[]` when the entry has none. Answers of saved entries are kept by the hash text asked for
 * (answerCache.ts): a hit reads neither the param's hex nor the store.
 */
export function entry(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const cache = ctx.entryAnswers;
  const asked = p.get("hash");
  if (cache !== undefined && typeof asked === "string") {
    const kept = cache.get(asked);
    if (kept !== undefined) return kept;
  }
  const found = ctx.ledger.entry(expectHash(p, "hash"));
  if (found === undefined) throw notFound("Entry");
  if (cache === undefined || found.committed !== true) return entryToJson(found.entry);
  const view = JsonText.remembered(entryToJson(found.entry), ENTRY_ANSWER_HEADROOM);
  // the param passed expectHash: `asked` is a valid hash text
  cache.set(asked as string, view);
  return view;
}

/**
 * `chain-head` {chainid}: keyMR of the chain's last saved entry block; `chainhead` is "" for a chain that so
 * far exists only in the process list. Unknown chain → -32009.
 *
 * The answer is kept as answer bytes by the chain ID text asked for (with the ID it parses into), and sent again
 * only while the ledger's answer is the same: the ledger is asked on every call (it remembers saved heads until
 * a block is shown, queries.ts), so the answer changes in the turn the block that extends the chain becomes
 * visible, and with the open block. A hit skips the hex parse, the chain ID's and the head's hex, the JSON text
 * and the answer's string (docs/performance.md §Reads).
 */
export function chainHead(params: unknown, ctx: RpcContext) {
  const cache = ctx.chainHeadAnswers;
  const p = new Params(params);
  const asked = p.get("chainid");
  const kept = cache !== undefined && typeof asked === "string" ? cache.get(asked) : undefined;
  const chainId = kept?.chainId ?? expectHash(p, "chainid");
  const chainIdHex = kept?.chainIdHex ?? toHex(chainId);
  const { head, inProcessList } = ctx.ledger.chainHead(chainId, chainIdHex);
  if (head === undefined && !inProcessList) throw missingChainHead();
  if (kept !== undefined && kept.inProcessList === inProcessList && sameHead(kept.head, head)) return kept.answer;
  const result: ChainHeadResult = {
    chainhead: head === undefined ? "" : toHex(head),
    chaininprocesslist: inProcessList,
  };
  if (cache === undefined) return result;
  const answer = JsonText.remembered(result, CHAIN_HEAD_ANSWER_HEADROOM);
  // the param passed expectHash (now or when `kept` was kept): `asked` is a valid hash text
  const key = asked as string;
  if (kept !== undefined) cache.delete(key);
  cache.set(key, { chainId, chainIdHex, head, inProcessList, answer, heldBytes: answer.heldBytes + 2 * 32 + 64 });
  return answer;
}

/** Free bytes before a kept chain-head answer, as for entries: ids of up to 18 bytes are written in place. */
const CHAIN_HEAD_ANSWER_HEADROOM = ENTRY_ANSWER_HEADROOM;

function sameHead(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && bytesEqual(a, b));
}

/**
 * `receipt` {hash, includerawentry}: Merkle proof from the entry to its directory block. Only for entries in a
 * saved block (else -32010). `entry.timestamp` is seconds since epoch (end of the entry's minute). Once a
 * record in the anchor chain covers the block, the anchor fields and `ethereum` (anchor/index.ts) are filled.
 */
export function receipt(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const hash = expectHash(p, "hash");
  const includeRaw = expectBool(p, "includerawentry");
  const r = ctx.ledger.receipt(hash);
  if (r === undefined) throw receiptCreationError();
  const anchor = ctx.anchors?.index.forHeight(r.directoryBlockHeight);
  if (!includeRaw) return { receipt: receiptToJson(r, { anchor }) };
  const e = ctx.ledger.entry(hash);
  if (e === undefined) throw receiptCreationError();
  return { receipt: receiptToJson(r, { raw: e.raw, anchor }) };
}

/**
 * `pending-entries`: entries and commits acknowledged but not yet in a saved block. `chainid` is null for a
 * commit whose reveal has not arrived. The `chainid` param is accepted and, as on the reference, not used
 * as a filter.
 */
export function pendingEntries(params: unknown, ctx: RpcContext) {
  expectString(new Params(params), "chainid");
  return ctx.ledger.pendingEntries().map((e) => ({
    entryhash: toHex(e.entryHash),
    chainid: e.chainId === undefined ? null : toHex(e.chainId),
    status: e.status,
  }));
}
