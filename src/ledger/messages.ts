/**
 * The messages of the ledger's log (DESIGN §7): the ledger is a deterministic function of this ordered
 * list. Every time the rules need arrives inside a message (`timeMs`), never from the wall clock.
 *
 * Journal encoding: kind (u8) ‖ timeMs (u48, ms since epoch) ‖ payload, where the payload is the raw
 * commit (136/200 bytes), the marshalled entry, the marshalled transaction, the minute (u8, 0..9) of
 * an end-of-minute, or nothing for a block start.
 */
import { ByteReader, ByteWriter, concat, toHex } from "../protocol/bytes.js";
import {
  CHAIN_COMMIT_SIZE,
  type Commit,
  commitTxId,
  decodeChainCommit,
  decodeEntryCommit,
  ENTRY_COMMIT_SIZE,
} from "../protocol/commit.js";
import { type Entry, entryHash } from "../protocol/entry.js";
import { ProtocolError } from "../protocol/errors.js";
import { decodeTransaction, type Transaction, transactionId } from "../protocol/transaction.js";

/**
 * What a reveal's entry bytes decode to: `unmarshalEntry(entryRaw)`, `entryHash(entryRaw)` and that hash in hex
 * (the answer's `entryhash` and a refusal's: made once, issue 35).
 */
export interface DecodedReveal {
  entry: Entry;
  entryHash: Uint8Array;
  entryHashHex: string;
}

/** A commit's txid and entry hash in hex, as the writer made them for this very commit (for a refusal's text). */
export interface CommitKeys {
  txId: string;
  entryHash: string;
}

/** Kind byte of a journaled message. */
export const MessageKind = {
  commit: 1,
  reveal: 2,
  transaction: 3,
  endOfMinute: 4,
  blockStart: 5,
} as const;

export type LogMessage =
  /**
   * a paid commit (entry or chain). `txId`: `commitTxId(commit)` when the writer already computed it from
   * this very commit (so the rules do not hash it again), and `keys` its txid and entry hash in hex; never
   * journaled, and absent on every message decoded from the journal or the log.
   */
  | { kind: "commit"; timeMs: number; commit: Commit; txId?: Uint8Array; keys?: CommitKeys }
  /**
   * a reveal: the marshalled entry. `decoded`: the entry and its hash when the writer already computed
   * them from these very bytes (so the rules do not decode and hash them again); never journaled, and
   * absent on every message decoded from the journal or the log.
   */
  | { kind: "reveal"; timeMs: number; entryRaw: Uint8Array; decoded?: DecodedReveal }
  /** a signed asset transaction */
  | { kind: "transaction"; timeMs: number; tx: Transaction }
  /** end of minute `minute` (0..9) of the open block; minute 9 closes the block */
  | { kind: "endOfMinute"; timeMs: number; minute: number }
  /** start time of the open block (only before its first end-of-minute) */
  | { kind: "blockStart"; timeMs: number };

/** Bytes of a message's kind and time. */
const MESSAGE_HEAD_BYTES = 7;

/** No bytes: the body of a message that is all head. */
const NO_BODY = new Uint8Array(0);

/**
 * A message's journal bytes in two parts, `head ‖ body`, which the journal packs where the record goes
 * (store/journal.ts): the head (kind, time, an end of minute's minute) is ≤ 8 bytes, on V8's heap; the body is
 * the commit's, entry's or transaction's own bytes, not copied. `encodeMessage` made one buffer of both per
 * message, grown past its first 16 bytes: a malloc'ed store and a copy per write (issue 35, change 13).
 */
export function messageHead(m: LogMessage): Uint8Array {
  // sized exactly: ByteWriter.finish hands the array over as it is (on V8's heap)
  const w = new ByteWriter(m.kind === "endOfMinute" ? MESSAGE_HEAD_BYTES + 1 : MESSAGE_HEAD_BYTES);
  switch (m.kind) {
    case "commit":
      return w.u8(MessageKind.commit).u48(m.timeMs).finish();
    case "reveal":
      return w.u8(MessageKind.reveal).u48(m.timeMs).finish();
    case "transaction":
      return w.u8(MessageKind.transaction).u48(m.timeMs).finish();
    case "endOfMinute":
      return w.u8(MessageKind.endOfMinute).u48(m.timeMs).u8(m.minute).finish();
    case "blockStart":
      return w.u8(MessageKind.blockStart).u48(m.timeMs).finish();
  }
}

/** The rest of a message's journal bytes after `messageHead` (a view of the message's own bytes). */
export function messageBody(m: LogMessage): Uint8Array {
  switch (m.kind) {
    case "commit":
      return m.commit.raw;
    case "reveal":
      return m.entryRaw;
    case "transaction":
      return m.tx.raw;
    case "endOfMinute":
    case "blockStart":
      return NO_BODY;
  }
}

/** Journal bytes of a message (`messageHead` ‖ `messageBody` in one buffer). */
export function encodeMessage(m: LogMessage): Uint8Array {
  return concat(messageHead(m), messageBody(m));
}

/** Decode journal bytes; throws ProtocolError when they are not a message this version wrote. */
export function decodeMessage(bytes: Uint8Array): LogMessage {
  const r = new ByteReader(bytes, "journal message");
  const kind = r.u8("kind");
  const timeMs = r.u48("time");
  const payload = bytes.slice(r.offset);
  switch (kind) {
    case MessageKind.commit:
      if (payload.length === ENTRY_COMMIT_SIZE) return { kind: "commit", timeMs, commit: decodeEntryCommit(payload) };
      if (payload.length === CHAIN_COMMIT_SIZE) return { kind: "commit", timeMs, commit: decodeChainCommit(payload) };
      throw new ProtocolError("BAD_LENGTH", "journal message.commit", `${payload.length} bytes`);
    case MessageKind.reveal:
      return { kind: "reveal", timeMs, entryRaw: payload };
    case MessageKind.transaction:
      return { kind: "transaction", timeMs, tx: decodeTransaction(payload) };
    case MessageKind.endOfMinute:
      if (payload.length !== 1)
        throw new ProtocolError("BAD_LENGTH", "journal message.minute", `${payload.length} bytes`);
      return { kind: "endOfMinute", timeMs, minute: payload[0]! };
    case MessageKind.blockStart:
      if (payload.length !== 0) throw new ProtocolError("TRAILING_BYTES", "journal message", `${payload.length} bytes`);
      return { kind: "blockStart", timeMs };
    default:
      throw new ProtocolError("BAD_VALUE", "journal message.kind", `unknown kind ${kind}`);
  }
}

/** One human-readable line of a message (debug `messages`). */
export function describeMessage(m: LogMessage, height: number, seq: number): string {
  const base = { height, seq, timems: m.timeMs };
  switch (m.kind) {
    case "commit":
      return JSON.stringify({
        ...base,
        type: m.commit.kind === "chain" ? "commitChain" : "commitEntry",
        txid: toHex(commitTxId(m.commit)),
        entryhash: toHex(m.commit.entryHash),
        credits: m.commit.credits,
      });
    case "reveal":
      return JSON.stringify({ ...base, type: "revealEntry", entryhash: toHex(entryHash(m.entryRaw)) });
    case "transaction":
      return JSON.stringify({ ...base, type: "assetTransaction", txid: toHex(transactionId(m.tx)) });
    case "endOfMinute":
      return JSON.stringify({ ...base, type: "endOfMinute", minute: m.minute + 1 });
    case "blockStart":
      return JSON.stringify({ ...base, type: "blockStart" });
  }
}
