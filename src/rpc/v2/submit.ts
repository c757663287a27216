/**
 * Write methods (spec §4.1; reference api-behavior §7; wire-format §7.2): commit-chain, commit-entry,
 * reveal-chain, reveal-entry, asset-submit, send-raw-message. Each decodes its hex (format errors → -32602
 * naming the member), then hands the message to the ledger through the API intake (debug drop/delay).
 * Unlike the reference node, a success means the ledger accepted the message (signature, balance, fee and
 * repeat rules passed) and journaled it durably; a rejection is an error saying why.
 */

import { decodeRecord, RecordKind } from "../../cluster/records.js";
import type { CommitAnswer, RevealAnswer } from "../../ledger/api.js";
import type { CallerAddress } from "../../ledger/holdingPolicy.js";
import { toHex } from "../../protocol/bytes.js";
import {
  CHAIN_COMMIT_SIZE,
  type ChainCommit,
  type Commit,
  decodeChainCommit,
  decodeChainCommitView,
  decodeEntryCommit,
  decodeEntryCommitView,
  ENTRY_COMMIT_SIZE,
  type EntryCommit,
} from "../../protocol/commit.js";
import { type Entry, MAX_ENTRY_SIZE, unmarshalEntryView } from "../../protocol/entry.js";
import {
  decodeTransaction,
  decodeTransactionAt,
  MAX_TRANSACTION_SIZE,
  type Transaction,
} from "../../protocol/transaction.js";
import type { RpcContext } from "../context.js";
import { invalidParams, toRpcError } from "../errors.js";
import { JsonText } from "../jsonrpc.js";
import type { CommitChainResult, CommitEntryResult, RevealResult } from "../methods.js";
import { expectHex } from "../params.js";

function decoded<T>(param: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw toRpcError(e, param);
  }
}

/**
 * The ledger's answer to a commit: called directly when the intake passes messages straight through (no
 * debug delay or drop; intake.ts `direct`), else through `intake.submit`. The write path allocates per
 * request what it must: no closure, async frame or promise of its own here (issue 35).
 */
function submitCommit(ctx: RpcContext, commit: Commit): Promise<CommitAnswer> {
  return ctx.intake.direct("commit")
    ? ctx.ledger.submitCommit(commit)
    : ctx.intake.submit("commit", () => ctx.ledger.submitCommit(commit), ctx.request?.receivedMs);
}

/**
 * A malformed entry is refused (thrown) before any debug delay or drop; the entry decoded here goes to the
 * ledger with the bytes (not decoded again there); the ledger's answer as submitCommit's.
 */
function submitReveal(ctx: RpcContext, raw: Uint8Array, kind?: "chain" | "entry"): Promise<RevealAnswer> {
  // views of the request's own bytes (decoded from its hex): the ledger copies what it keeps
  const entry = unmarshalEntryView(raw);
  // the caller, whose address the ledger reads for the holding queue's per-source share when the reveal is
  // held (ledger/holdingPolicy.ts CallerAddress)
  const request = ctx.request;
  const from = request?.address === undefined ? undefined : (request as CallerAddress);
  const options: { kind?: "chain" | "entry"; from?: CallerAddress; entry: Entry } =
    kind === undefined
      ? from === undefined
        ? { entry }
        : { from, entry }
      : from === undefined
        ? { kind, entry }
        : { kind, from, entry };
  return ctx.intake.direct("reveal")
    ? ctx.ledger.submitReveal(raw, options)
    : ctx.intake.submit("reveal", () => ctx.ledger.submitReveal(raw, options), request?.receivedMs);
}

async function submitTransaction(ctx: RpcContext, tx: Transaction): Promise<{ txid: string }> {
  const r = await ctx.intake.submit("transaction", () => ctx.ledger.submitTransaction(tx), ctx.request?.receivedMs);
  return { txid: toHex(r.txId) };
}

/*
 * The JSON text of a write's answer, as JSON.stringify writes it (the same members in the same order), written
 * by hand: its values are lower-case hex and fixed messages, which need no escapes. Node 20's JSON.stringify
 * took ~2.5 µs an answer here (every 64-character hex scanned for characters to escape), the text ~0.7
 * (issue 35, docs/performance.md §"Signature checks per entry", change 14); test/unit/rpc/writeAnswers.test.ts
 * holds the two to the same text.
 */

/** commit-chain's answer (hex arguments). */
export function commitChainAnswer(txid: string, entryhash: string, chainidhash: string): JsonText<CommitChainResult> {
  return new JsonText(
    `{"message":"Chain Commit Success","txid":"${txid}","entryhash":"${entryhash}","chainidhash":"${chainidhash}"}`,
  );
}

/** commit-entry's answer (hex arguments). */
export function commitEntryAnswer(txid: string, entryhash: string): JsonText<CommitEntryResult> {
  return new JsonText(`{"message":"Entry Commit Success","txid":"${txid}","entryhash":"${entryhash}"}`);
}

/** reveal-entry's and reveal-chain's answer (hex arguments). */
export function revealAnswer(entryhash: string, chainid: string): JsonText<RevealResult> {
  return new JsonText(`{"message":"Entry Reveal Success","entryhash":"${entryhash}","chainid":"${chainid}"}`);
}

async function commitChainMessage(ctx: RpcContext, commit: ChainCommit) {
  const r = await submitCommit(ctx, commit);
  // The commit carries only sha256d(chain id), so that is what is returned (spec §4.1 says "chainid").
  return commitChainAnswer(
    r.hex?.txId ?? toHex(r.txId),
    r.hex?.entryHash ?? toHex(r.entryHash),
    toHex(commit.chainIdHash),
  );
}

async function commitEntryMessage(ctx: RpcContext, commit: EntryCommit) {
  const r = await submitCommit(ctx, commit);
  // the ledger's hex (made once with the hashes), else made here
  return commitEntryAnswer(r.hex?.txId ?? toHex(r.txId), r.hex?.entryHash ?? toHex(r.entryHash));
}

/** `commit-chain` {message}: a signed 200-byte chain commit. */
export function commitChain(params: unknown, ctx: RpcContext) {
  const bytes = expectHex(params, "message", { maxBytes: CHAIN_COMMIT_SIZE });
  return commitChainMessage(
    ctx,
    // views of the request's own bytes (decoded from its hex): the ledger copies what it keeps
    decoded("message", () => decodeChainCommitView(bytes)),
  );
}

/** `commit-entry` {message}: a signed 136-byte entry commit. */
export function commitEntry(params: unknown, ctx: RpcContext) {
  const bytes = expectHex(params, "message", { maxBytes: ENTRY_COMMIT_SIZE });
  let commit: EntryCommit;
  try {
    // views of the request's own bytes (decoded from its hex): the ledger copies what it keeps
    commit = decodeEntryCommitView(bytes);
  } catch (e) {
    throw toRpcError(e, "message");
  }
  return commitEntryMessage(ctx, commit);
}

/**
 * `reveal-entry` {entry}: a marshalled entry. The ledger tells from its commit whether it starts a chain
 * (the reference accepts a chain's first entry here too).
 */
export function revealEntry(params: unknown, ctx: RpcContext) {
  return reveal(params, ctx, undefined);
}

/**
 * `reveal-chain` {entry}: a chain's first entry. Declared as such, a wrong chain ID or an existing chain is
 * refused at once, even before its commit arrives.
 */
export function revealChain(params: unknown, ctx: RpcContext) {
  return reveal(params, ctx, "chain");
}

async function reveal(params: unknown, ctx: RpcContext, kind: "chain" | undefined) {
  const raw = expectHex(params, "entry", { maxBytes: MAX_ENTRY_SIZE });
  let r: RevealAnswer;
  try {
    r = await submitReveal(ctx, raw, kind);
  } catch (e) {
    throw toRpcError(e, "entry");
  }
  return revealAnswer(r.hex?.entryHash ?? toHex(r.entryHash), toHex(r.chainId));
}

async function decodedAsync<T>(param: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw toRpcError(e, param);
  }
}

/** `asset-submit` {transaction}: a signed asset transaction. */
export async function assetSubmit(params: unknown, ctx: RpcContext) {
  const bytes = expectHex(params, "transaction", { maxBytes: MAX_TRANSACTION_SIZE });
  const tx = decoded("transaction", () => decodeTransaction(bytes));
  const r = await submitTransaction(ctx, tx);
  return { message: "Successfully submitted the transaction", txid: r.txid };
}

/** Wire message types send-raw-message routes (wire-format §7.2). */
export const RawMessageType = {
  chainCommit: 0x05,
  entryCommit: 0x06,
  transaction: 0x09,
  reveal: 0x0d,
  /** a cluster's skeleton-signed add-server message (cluster/records.ts addServer; docs/cluster.md) */
  addServer: 0x16,
  /** a skeleton-signed promote / demote / remove (cluster/records.ts authorityChange; docs/cluster.md) */
  authorityChange: 0x17,
  /** a server's key rotation signed with its key in force (cluster/records.ts rotateKey) */
  rotateKey: 0x18,
  /** a new entry-credit rate from a height, signed by the rate authority (cluster/records.ts setEcRate) */
  setEcRate: 0x19,
} as const;

/** Bytes of a message's signature (32-byte public key ‖ 64-byte signature) that may follow its payload. */
const MESSAGE_SIGNATURE_SIZE = 96;

/** Bytes of the millisecond timestamp before the entry of a reveal message. */
const REVEAL_TIMESTAMP_SIZE = 6;

function payloadEnd(bytes: Uint8Array, end: number, what: string): Uint8Array {
  const rest = bytes.length - end;
  if (rest < 0) throw invalidParams(`message: ${what} needs ${end} bytes with its type byte, got ${bytes.length}`);
  if (rest !== 0 && rest !== MESSAGE_SIGNATURE_SIZE)
    throw invalidParams(
      `message: ${rest} byte(s) after the ${what}; only a ${MESSAGE_SIGNATURE_SIZE}-byte message signature may follow`,
    );
  return bytes.subarray(1, end);
}

/**
 * `send-raw-message` {message}: a network message (type byte ‖ payload ‖ optional 96-byte signature, which
 * is not checked). Routed exactly as the matching API call: 05 chain commit → commit-chain, 06 entry commit
 * → commit-entry, 09 transaction → asset-submit, 0d 6-byte timestamp ‖ entry → reveal-entry. Other
 * message types are refused (they belong to server-to-server traffic).
 */
export async function sendRawMessage(params: unknown, ctx: RpcContext) {
  const bytes = expectHex(params, "message", { maxBytes: 1 + REVEAL_TIMESTAMP_SIZE + MAX_ENTRY_SIZE });
  const type = bytes[0]!;
  switch (type) {
    case RawMessageType.chainCommit: {
      const payload = payloadEnd(bytes, 1 + CHAIN_COMMIT_SIZE, "chain commit");
      await commitChainMessage(
        ctx,
        decoded("message", () => decodeChainCommit(payload)),
      );
      break;
    }
    case RawMessageType.entryCommit: {
      const payload = payloadEnd(bytes, 1 + ENTRY_COMMIT_SIZE, "entry commit");
      await commitEntryMessage(
        ctx,
        decoded("message", () => decodeEntryCommit(payload)),
      );
      break;
    }
    case RawMessageType.transaction: {
      const { size } = decoded("message", () => decodeTransactionAt(bytes, 1));
      const payload = payloadEnd(bytes, 1 + size, "transaction");
      await submitTransaction(
        ctx,
        decoded("message", () => decodeTransaction(payload)),
      );
      break;
    }
    case RawMessageType.reveal: {
      if (bytes.length <= 1 + REVEAL_TIMESTAMP_SIZE)
        throw invalidParams(`message: a reveal message needs a ${REVEAL_TIMESTAMP_SIZE}-byte timestamp and an entry`);
      const raw = bytes.subarray(1 + REVEAL_TIMESTAMP_SIZE);
      await decodedAsync("message", () => submitReveal(ctx, raw));
      break;
    }
    case RawMessageType.addServer: {
      if (ctx.cluster === undefined)
        throw invalidParams("message: an add-server message (0x16) needs a cluster node; this is a single node");
      const body = Uint8Array.of(RecordKind.addServer, ...bytes.subarray(1));
      const rec = decoded("message", () => decodeRecord(body));
      if (rec.kind !== "addServer") throw invalidParams("message: not an add-server message");
      try {
        await ctx.cluster.submitAddServer(rec);
      } catch (e) {
        throw toRpcError(e);
      }
      break;
    }
    case RawMessageType.authorityChange:
    case RawMessageType.rotateKey:
    case RawMessageType.setEcRate: {
      const kind =
        type === RawMessageType.authorityChange
          ? "authorityChange"
          : type === RawMessageType.rotateKey
            ? "rotateKey"
            : "setEcRate";
      const name =
        kind === "authorityChange" ? "an authority-change" : kind === "rotateKey" ? "a rotate-key" : "a set-ec-rate";
      if (ctx.cluster === undefined)
        throw invalidParams(
          `message: ${name} message (0x${type.toString(16)}) needs a cluster node; this is a single node`,
        );
      const body = Uint8Array.of(RecordKind[kind], ...bytes.subarray(1));
      const rec = decoded("message", () => decodeRecord(body));
      if (rec.kind !== kind) throw invalidParams(`message: not ${name} message`);
      try {
        await ctx.cluster.submitOperatorRecord(rec);
      } catch (e) {
        throw toRpcError(e);
      }
      break;
    }
    default:
      throw invalidParams(
        `message: type 0x${type.toString(16).padStart(2, "0")} is not accepted here; send 0x05 (chain commit), ` +
          (ctx.cluster === undefined
            ? "0x06 (entry commit), 0x09 (transaction) or 0x0d (entry reveal)"
            : "0x06 (entry commit), 0x09 (transaction), 0x0d (entry reveal), 0x16 (add server), 0x17 (authority change), 0x18 (rotate key) or 0x19 (set entry-credit rate)"),
      );
  }
  return { message: "Successfully sent the message" };
}
