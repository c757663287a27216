/**
 * Acknowledgement methods (spec §4.1.1, §2.9, §3; reference api-behavior §8): ack, and the deprecated
 * entry-ack and asset-ack.
 *
 * Time units follow the reference node, which mixes them (docs/api.md lists each):
 * - `ack` chain `f`, `asset-ack`, `entry-ack`: every date in milliseconds;
 * - `ack` chain `c`: commitdata.transactiondate, commitdata.blockdate, entrydata.blockdate in seconds;
 * - `ack` entry chain: entrydata.blockdate in seconds; commitdata.transactiondate in milliseconds once the
 *   entry is DBlockConfirmed, in seconds before.
 * The `…datestring` forms are "YYYY-MM-DD hh:mm:ss" in the node's local time zone. Date members are left
 * out when unknown; `status` is always present.
 */
import type { CommitAck, EntryAck, TransactionAck } from "../../ledger/api.js";
import { AckStatus } from "../../ledger/api.js";
import { toHex } from "../../protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../protocol/chains.js";
import { type Commit, commitTxId, parseChainCommit, parseEntryCommit } from "../../protocol/commit.js";
import { entryHash, unmarshalEntry } from "../../protocol/entry.js";
import { ProtocolError } from "../../protocol/errors.js";
import { decodeTransaction, transactionId } from "../../protocol/transaction.js";
import type { RpcContext } from "../context.js";
import { invalidParams, toRpcError } from "../errors.js";
import { expectHex, expectString, hashFromText, Params } from "../params.js";

const EC_CHAIN = toHex(EC_CHAIN_ID);
const ASSET_CHAIN = toHex(ASSET_CHAIN_ID);
const ADMIN_CHAIN = toHex(ADMIN_CHAIN_ID);

/** `data` texts of the reference node for `ack` (they name the member already). */
const CHAIN_ID_TEXT = "ChainID must be 64 hex encoded characters";
const HASH_TEXT = "Hash must be 64 hex encoded characters";
const ADMIN_TEXT = "ChainID cannot be admin chain";

/** "YYYY-MM-DD hh:mm:ss" in the node's local time zone (the reference's format, no zone). */
export function dateString(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

type Unit = "s" | "ms";

/** `{<name>date, <name>datestring}` for a time in ms, expressed in `unit`; nothing when unknown. */
function date<N extends "transaction" | "block">(name: N, ms: number | undefined, unit: Unit): DateMembers<N> {
  if (ms === undefined || ms === 0) return {};
  return {
    [`${name}date`]: unit === "ms" ? ms : Math.floor(ms / 1000),
    [`${name}datestring`]: dateString(ms),
  } as DateMembers<N>;
}

/** `<name>date` (a number in the method's unit) and `<name>datestring`, both absent when unknown. */
type DateMembers<N extends string> = { [K in `${N}date`]?: number } & { [K in `${N}datestring`]?: string };

/** The asset-transaction acknowledgement (spec §2.9), dates in ms. */
function assetAckJson(a: TransactionAck) {
  return {
    txid: toHex(a.txId),
    ...date("transaction", a.transactionTimeMs, "ms"),
    ...date("block", a.blockTimeMs, "ms"),
    status: a.status,
  };
}

/** Bytes of a commit or an entry (ack's `fulltransaction` for chain `c` or an entry chain). */
function commitOrEntry(bytes: Uint8Array): { commit: Commit } | { entryHash: Uint8Array } {
  try {
    if (bytes.length === 200) return { commit: parseChainCommit(bytes) };
    if (bytes.length === 136) return { commit: parseEntryCommit(bytes) };
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
  }
  unmarshalEntry(bytes);
  return { entryHash: entryHash(bytes) };
}

/**
 * Decode the non-empty `fulltransaction` hex member; the data names the first character that is not hex,
 * or an odd length.
 */
function fullTransactionBytes(text: string): Uint8Array {
  return Uint8Array.from(expectHex({ fulltransaction: text }, "fulltransaction"));
}

function withParam<T>(param: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw toRpcError(e, param);
  }
}

/** The hash an ack looks up: `hash`, or derived from `fulltransaction` when `hash` is empty. */
function ackHash(p: Params, chain: string): Uint8Array {
  const hash = expectString(p, "hash") ?? "";
  const full = expectString(p, "fulltransaction") ?? "";
  if (hash === "" && full !== "") {
    const bytes = fullTransactionBytes(full);
    return withParam("fulltransaction", () => {
      if (chain === ASSET_CHAIN) return transactionId(decodeTransaction(bytes));
      const item = commitOrEntry(bytes);
      if (chain === EC_CHAIN) {
        if (!("commit" in item))
          throw invalidParams("fulltransaction: not a chain commit (200 bytes) or an entry commit (136 bytes)");
        return commitTxId(item.commit);
      }
      return "commit" in item ? item.commit.entryHash : item.entryHash;
    });
  }
  if (hash.length !== 64 || !/^[0-9a-fA-F]*$/.test(hash)) throw invalidParams(HASH_TEXT);
  return hashFromText(hash, "hash");
}

/** Commit part, dates in `unit`. */
function commitData(c: CommitAck, unit: Unit) {
  return { ...date("transaction", c.transactionTimeMs, unit), ...date("block", c.blockTimeMs, unit), status: c.status };
}

/** Reveal part: blockdate only once confirmed, in `unit`. */
function entryData(e: EntryAck, unit: Unit) {
  return { ...(e.status === AckStatus.DBlockConfirmed ? date("block", e.blockTimeMs, unit) : {}), status: e.status };
}

/**
 * `ack` {hash, chainid, fulltransaction?}: chainid `f` → asset transaction acknowledgement; `c` → commit by
 * txid (or full hash); any other 64-hex chain id → entry by entry hash.
 */
export function ack(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  // Only the lower-case one-letter forms expand, as on the reference; 64-hex ids in either case.
  let chain = expectString(p, "chainid") ?? "";
  if (chain === "c") chain = EC_CHAIN;
  else if (chain === "f") chain = ASSET_CHAIN;
  if (chain.length !== 64 || !/^[0-9a-fA-F]*$/.test(chain)) throw invalidParams(CHAIN_ID_TEXT);
  chain = chain.toLowerCase();
  if (chain === ADMIN_CHAIN) throw invalidParams(ADMIN_TEXT);
  const hash = ackHash(p, chain);

  if (chain === ASSET_CHAIN) return assetAckJson(ctx.ledger.transactionAck(hash));

  if (chain === EC_CHAIN) {
    const c = ctx.ledger.commitAck(hash);
    if (c.commit === undefined) {
      return {
        committxid: toHex(c.txId ?? hash),
        entryhash: "",
        commitdata: commitData(c, "s"),
        entrydata: { status: "" as const },
      };
    }
    const e = ctx.ledger.entryAck(c.commit.entryHash).entry;
    return {
      committxid: toHex(c.txId ?? hash),
      entryhash: toHex(c.commit.entryHash),
      commitdata: commitData(c, "s"),
      entrydata: entryData(e, "s"),
    };
  }

  const { commit, entry } = ctx.ledger.entryAck(hash);
  const confirmed = entry.status === AckStatus.DBlockConfirmed;
  return {
    committxid: commit.txId === undefined ? "" : toHex(commit.txId),
    entryhash: toHex(hash),
    commitdata: { ...date("transaction", commit.transactionTimeMs, confirmed ? "ms" : "s"), status: commit.status },
    entrydata: entryData(entry, "s"),
  };
}

/** The `txid`/`fulltransaction` pair of the deprecated acks; one is required. */
function legacyAckParams(params: unknown): { txid?: Uint8Array; full?: Uint8Array } {
  const p = new Params(params);
  const txid = expectString(p, "txid") ?? "";
  const full = expectString(p, "fulltransaction") ?? "";
  if (txid !== "") return { txid: hashFromText(txid, "txid") };
  if (full !== "") return { full: fullTransactionBytes(full) };
  throw invalidParams("txid: required (or fulltransaction)");
}

/** `asset-ack` {txid | fulltransaction} (deprecated; `ack` with chainid `f`): dates in ms. */
export function assetAck(params: unknown, ctx: RpcContext) {
  const { txid, full } = legacyAckParams(params);
  const id = txid ?? withParam("fulltransaction", () => transactionId(decodeTransaction(full!)));
  return assetAckJson(ctx.ledger.transactionAck(id));
}

/**
 * `entry-ack` {txid | fulltransaction} (deprecated; use `ack`): `txid` may be an entry hash or a commit's
 * txid; all dates in ms. Nothing known → empty ids and `Unknown` statuses.
 */
export function entryAck(params: unknown, ctx: RpcContext) {
  const { txid, full } = legacyAckParams(params);
  let hash: Uint8Array;
  if (txid !== undefined) {
    hash = ctx.ledger.commit(txid)?.commit.entryHash ?? txid;
  } else {
    const item = withParam("fulltransaction", () => commitOrEntry(full!));
    hash = "commit" in item ? item.commit.entryHash : item.entryHash;
  }
  const { commit, entry } = ctx.ledger.entryAck(hash);
  if (commit.status === AckStatus.Unknown && entry.status === AckStatus.Unknown) {
    return {
      committxid: "",
      entryhash: "",
      commitdata: { status: AckStatus.Unknown },
      entrydata: { status: AckStatus.Unknown },
    };
  }
  return {
    committxid: commit.txId === undefined ? "" : toHex(commit.txId),
    entryhash: toHex(hash),
    commitdata: commitData(commit, "ms"),
    entrydata: entryData(entry, "ms"),
  };
}
