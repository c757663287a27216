/**
 * The ledger's rules: each log message kind applied to the state (state.ts), as functions. Every
 * stateful rejection is thrown here as a LedgerError, and a rejected message changes nothing. The writer
 * (ledger.ts) keeps only what is not a rule of the log: signatures (BAD_SIGNATURE), the network
 * (NOT_PRODUCING) and the disk (STORAGE_FULL).
 *
 * Deterministic (DESIGN §7): every time a rule reads comes from the message (`timeMs`, ms since epoch).
 */
import { encodeAddress } from "../protocol/address.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { CHAIN_COMMIT_CREDITS, type Commit, commitTxId, ENTRY_COMMIT_CREDITS } from "../protocol/commit.js";
import {
  chainIdFromExtIds,
  type Entry,
  entryCreditCost,
  entryHash,
  unmarshalEntry,
  unmarshalEntryView,
} from "../protocol/entry.js";
import { ProtocolError } from "../protocol/errors.js";
import { sha256, sha256d } from "../protocol/hash.js";
import {
  type Transaction,
  transactionFeeEC,
  transactionFullHash,
  transactionId,
  validateTransaction,
} from "../protocol/transaction.js";
import type { PaidCommit } from "../store/records.js";
import { COMMIT_LIFETIME_MS, MINUTES_PER_BLOCK, TIMESTAMP_WINDOW_MS } from "./constants.js";
import { LedgerError, type LedgerErrorType, REPEATED_COMMIT_INFO } from "./errors.js";
import { checkHoldingRoom } from "./holdingPolicy.js";
import { HoldingQueue } from "./holdingQueue.js";
import type { CommitKeys, DecodedReveal, LogMessage } from "./messages.js";
import type { LedgerState } from "./state.js";

/**
 * The chain ID hash an entry commit's paid-commit record carries: 32 zero bytes, one shared array (never
 * written to) instead of a new one per commit — ~100 bytes of heap per entry of the open block.
 */
const NO_CHAIN_ID_HASH = new Uint8Array(32);

// ───────────────────────────── messages ─────────────────────────────

/**
 * Apply one log message to the state. Throws LedgerError (state unchanged) when a rule rejects it.
 * Returns false when the message needs no journal record (a resubmitted held reveal). The end of the
 * last minute calls `closeBlock(timeMs)`: the writer's close (close.ts), or a follower's.
 */
export function applyMessage(s: LedgerState, msg: LogMessage, closeBlock: (timeMs: number) => void): boolean {
  switch (msg.kind) {
    case "commit":
      applyCommit(s, msg.commit, msg.timeMs, msg.txId, msg.keys);
      return true;
    case "reveal":
      return applyReveal(s, msg.entryRaw, msg.timeMs, msg.decoded);
    case "transaction":
      applyTransaction(s, msg.tx, msg.timeMs);
      return true;
    case "endOfMinute":
      if (applyEndOfMinute(s, msg.minute, msg.timeMs)) closeBlock(msg.timeMs);
      return true;
    case "blockStart":
      applyBlockStart(s, msg.timeMs);
      return true;
  }
}

/**
 * A commit: credits in range, not repeated, pairs with a held reveal, paid from the EC balance. `knownTxId`:
 * the commit's txid when the caller has it already (messages.ts, the commit message's `txId`), `keys` its txid
 * and entry hash in hex (a refusal names the entry hash; the open block's tables are keyed by the bytes).
 */
export function applyCommit(
  s: LedgerState,
  commit: Commit,
  timeMs: number,
  knownTxId?: Uint8Array,
  keys?: CommitKeys,
): void {
  checkTimestamp("commit", commit.milliTime, timeMs);
  const range = commit.kind === "chain" ? CHAIN_COMMIT_CREDITS : ENTRY_COMMIT_CREDITS;
  if (commit.credits < range.min || commit.credits > range.max)
    throw new LedgerError({
      code: "INVALID",
      info: `${commit.kind} commit credits must be ${range.min}..${range.max}, got ${commit.credits}`,
    });
  const hash = commit.entryHash;
  const existing = livePaidCommit(s, hash, timeMs);
  if (existing !== undefined && existing.credits >= commit.credits)
    throw new LedgerError({
      code: "REPEATED_COMMIT",
      entryHash: keys?.entryHash ?? toHex(hash),
      info: REPEATED_COMMIT_INFO,
    });
  const txId = knownTxId ?? commitTxId(commit);
  const record: PaidCommit = {
    kind: commit.kind,
    credits: commit.credits,
    revealed: false,
    height: s.pl.height,
    milliTime: commit.milliTime,
    txId,
    chainIdHash: commit.kind === "chain" ? commit.chainIdHash : NO_CHAIN_ID_HASH,
  };
  let held = s.holding.get(hash);
  if (held !== undefined && HoldingQueue.expired(held, timeMs)) held = undefined;
  const heldChainHex = held === undefined ? "" : toHex(held.entry.chainId);
  if (held !== undefined) checkPairing(s, held.entry, held.raw, hash, record, heldChainHex);
  const keyHex = toHex(commit.ecPublicKey);
  const saved = savedEC(s, commit.ecPublicKey, keyHex);
  const have = saved + (s.pl.ecDelta.get(keyHex)?.delta ?? 0n);
  if (have < BigInt(commit.credits))
    throw new LedgerError({
      code: "EC_BALANCE_LOW",
      ecPublicKey: encodeAddress("EC", commit.ecPublicKey),
      need: commit.credits,
      have: Number(have),
    });

  // accepted: charge, record, and release a reveal that was waiting for it
  s.pl.changeEC(commit.ecPublicKey, -BigInt(commit.credits), keyHex, saved);
  // the open block's tables take the full hash's bytes (no hex key since change 19)
  s.pl.addCommit(commit, txId, sha256(commit.raw), timeMs, record);
  s.counters.commitsAccepted++;
  if (held !== undefined) {
    s.holding.remove(hash);
    acceptReveal(s, held.raw, hash, record, held.arrivalMs, heldChainHex);
  }
}

/**
 * A reveal: paired with its live commit, or held until one arrives. Returns false when the message needs
 * no journal record (a resubmitted held reveal). `decoded`: the entry and hash of `raw` when the writer has
 * them already (messages.ts), else computed here.
 */
export function applyReveal(s: LedgerState, raw: Uint8Array, timeMs: number, decoded?: DecodedReveal): boolean {
  const entry = decoded?.entry ?? decodeEntry(raw);
  const hash = decoded?.entryHash ?? entryHash(raw);
  // the entry blocks' key, made once (issue 35)
  const chainHex = toHex(entry.chainId);
  const held = s.holding.get(hash);
  if (held !== undefined) {
    if (!HoldingQueue.expired(held, timeMs)) return false; // already waiting: same bytes, same answer
    s.holding.remove(hash);
  }
  const paid = livePaidCommit(s, hash, timeMs);
  if (paid?.revealed === true)
    throw new LedgerError({ code: "DUPLICATE_ENTRY", entryHash: decoded?.entryHashHex ?? toHex(hash) });
  if (paid !== undefined) {
    checkPairing(s, entry, raw, hash, paid, chainHex);
    acceptReveal(s, raw, hash, paid, timeMs, chainHex);
    return true;
  }
  // No commit yet: hold it, unless no commit could ever make it valid.
  if (!chainExists(s, entry.chainId, chainHex) && !bytesEqual(chainIdFromExtIds(entry.extIds), entry.chainId))
    throw new LedgerError({ code: "CHAIN_NOT_FOUND", chainId: chainHex });
  checkHoldingRoom(s.holding, raw.length);
  // held past this message: its own copy, not a view of the request's bytes (submit.ts decodes without one)
  const kept = raw.slice();
  s.holding.add({ entryHash: hash, raw: kept, entry: unmarshalEntryView(kept), arrivalMs: timeMs }, raw);
  s.counters.revealsHeld++;
  return true;
}

/**
 * Would a reveal of `hash` arriving at `timeMs` be held (no live commit pays for it, and it is not held
 * already)? Read-only: the API's per-source admission check (holdingPolicy.ts) asks before the log does.
 */
export function wouldHold(s: LedgerState, hash: Uint8Array, timeMs: number): boolean {
  const held = s.holding.get(hash);
  if (held !== undefined && !HoldingQueue.expired(held, timeMs)) return false;
  return livePaidCommit(s, hash, timeMs) === undefined;
}

/**
 * reveal-chain before its commit: refuse what no chain commit could make valid. (With a live unrevealed
 * commit the pairing rules decide in apply.) Not part of the log: accepted messages are unchanged.
 */
export function checkChainReveal(s: LedgerState, entry: Entry, hash: Uint8Array, timeMs: number): void {
  const paid = livePaidCommit(s, hash, timeMs);
  if (paid !== undefined && !paid.revealed) return;
  const derived = chainIdFromExtIds(entry.extIds);
  if (!bytesEqual(derived, entry.chainId))
    throw new LedgerError({
      code: "CHAIN_ID_MISMATCH",
      chainId: toHex(entry.chainId),
      info: `a chain's first entry must carry the chain ID of its external IDs, ${toHex(derived)}`,
    });
  const chainHex = toHex(entry.chainId);
  if (chainExists(s, entry.chainId, chainHex)) throw new LedgerError({ code: "CHAIN_EXISTS", chainId: chainHex });
}

/** Does commit `paid` pay for revealing `entry` (whose chain ID is `chainHex` in hex)? Throws the rule that fails. */
function checkPairing(
  s: LedgerState,
  entry: Entry,
  raw: Uint8Array,
  hash: Uint8Array,
  paid: PaidCommit,
  chainHex: string,
): void {
  const exists = chainExists(s, entry.chainId, chainHex);
  // Never throws here: it refuses only an entry above the size limit, and `raw` was decoded (unmarshalEntry
  // refuses those) before any rule holds or pairs it — by the writer, by applyReveal, or by the replay.
  const need = entryCreditCost(raw.length, paid.kind === "chain");
  if (paid.kind === "chain") {
    const derived = chainIdFromExtIds(entry.extIds);
    if (!bytesEqual(derived, entry.chainId))
      throw new LedgerError({
        code: "CHAIN_ID_MISMATCH",
        chainId: chainHex,
        info: `a chain's first entry must carry the chain ID of its external IDs, ${toHex(derived)}`,
      });
    if (!bytesEqual(sha256d(entry.chainId), paid.chainIdHash))
      throw new LedgerError({
        code: "CHAIN_ID_MISMATCH",
        chainId: chainHex,
        info: "the chain commit pays for a different chain ID",
      });
    if (exists) throw new LedgerError({ code: "CHAIN_EXISTS", chainId: chainHex });
  } else if (!exists) {
    throw new LedgerError({ code: "CHAIN_NOT_FOUND", chainId: chainHex });
  }
  if (paid.credits < need)
    throw new LedgerError({ code: "CREDITS_TOO_LOW", entryHash: toHex(hash), need, paid: paid.credits });
}

function acceptReveal(
  s: LedgerState,
  raw: Uint8Array,
  hash: Uint8Array,
  paid: PaidCommit,
  timeMs: number,
  chainHex: string,
): void {
  s.pl.addReveal(raw, hash, paid, timeMs, chainHex);
  s.counters.revealsAccepted++;
}

/** An asset transaction: shape and fee, not repeated, every input covered by its address's balance. */
export function applyTransaction(s: LedgerState, tx: Transaction, timeMs: number): void {
  checkTimestamp("transaction", tx.milliTimestamp, timeMs);
  const rate = s.pl.exchangeRate ?? s.tip.exchangeRate;
  checkTransactionShape(tx, rate, s.formerExchangeRate ?? s.tip.exchangeRate);
  const txId = transactionId(tx);
  if (s.pl.transactionsByHash.has(toHex(txId)) || s.saved.transactionLocation(txId) !== undefined)
    throw new LedgerError({ code: "DUPLICATE_TRANSACTION", txId: toHex(txId) });
  // An address may appear in several inputs: their sum must be covered (wire-format §4.3 rule 5).
  const spend = new Map<string, { address: Uint8Array; amount: bigint }>();
  for (const i of tx.inputs) {
    const k = toHex(i.address);
    const sp = spend.get(k);
    if (sp === undefined) spend.set(k, { address: i.address, amount: i.amount });
    else sp.amount += i.amount;
  }
  for (const sp of spend.values()) {
    const have = assetAck(s, sp.address);
    if (have < sp.amount)
      throw new LedgerError({
        code: "ASSET_BALANCE_LOW",
        address: encodeAddress("FA", sp.address),
        need: sp.amount,
        have,
      });
  }
  for (const i of tx.inputs) s.pl.changeAsset(i.address, -i.amount);
  for (const o of tx.outputs) s.pl.changeAsset(o.address, o.amount);
  // EC purchases: floor(amount / rate) entry credits; the remainder is burned (wire-format §4.3 rule 6).
  for (const o of tx.ecOutputs) s.pl.changeEC(o.address, rate > 0n ? o.amount / rate : 0n);
  s.pl.addTransaction({ tx, txId, fullHash: transactionFullHash(tx), timeMs });
  s.counters.transactionsAccepted++;
}

/**
 * The end of the open block's `minute` (0-based) at `timeMs`: in order, sweeps expired held reveals.
 * Returns true when it ended the last minute: the writer then closes the block.
 */
export function applyEndOfMinute(s: LedgerState, minute: number, timeMs: number): boolean {
  if (minute !== s.pl.minute)
    throw new LedgerError({
      code: "INVALID",
      info: `end of minute ${minute + 1} out of order: the open block is in minute ${s.pl.minute + 1}`,
    });
  s.counters.revealsExpired += s.holding.sweep(timeMs);
  s.pl.endMinute(timeMs);
  return minute === MINUTES_PER_BLOCK - 1;
}

/** The open block starts at `timeMs`: only in its first minute. */
export function applyBlockStart(s: LedgerState, timeMs: number): void {
  if (s.pl.minute !== 0) throw new LedgerError({ code: "INVALID", info: "block start after the first minute" });
  s.pl.startMs = timeMs;
  s.pl.minuteStartMs = timeMs;
}

// ───────────────────────────── state the rules read ─────────────────────────────

/**
 * The latest commit paid for `hash` if it is still live at `nowMs` (COMMIT_LIFETIME_MS after its timestamp).
 */
function livePaidCommit(s: LedgerState, hash: Uint8Array, nowMs: number): PaidCommit | undefined {
  const rec = s.pl.paidCommit(hash) ?? s.saved.paidCommitLiveAt(hash, nowMs);
  if (rec === undefined || nowMs - rec.milliTime > COMMIT_LIFETIME_MS) return undefined;
  return rec;
}

function chainExists(s: LedgerState, chainId: Uint8Array, chainHex: string): boolean {
  return s.pl.newChains.has(chainHex) || s.saved.chainExists(chainId, chainHex);
}

/**
 * Entry credits of `publicKey` (`keyHex` in hex) in the saved state: the open block's own reading when it has
 * one (process list `ecDelta`'s `saved`: the saved state does not change while a block is open), else the
 * saved state's (an LMDB read).
 */
function savedEC(s: LedgerState, publicKey: Uint8Array, keyHex: string): bigint {
  return s.pl.ecDelta.get(keyHex)?.saved ?? s.saved.ecBalance(publicKey, keyHex) ?? 0n;
}

/** Base units of `address` after the open block's messages. */
function assetAck(s: LedgerState, address: Uint8Array): bigint {
  return (s.saved.assetBalance(address) ?? 0n) + (s.pl.assetDelta.get(toHex(address))?.delta ?? 0n);
}

// ───────────────────────────── stateless checks ─────────────────────────────

/** |timestampMs − nowMs| must be within TIMESTAMP_WINDOW_MS (both ms since epoch). */
export function checkTimestamp(what: string, timestampMs: number, nowMs: number): void {
  if (Math.abs(timestampMs - nowMs) > TIMESTAMP_WINDOW_MS)
    throw new LedgerError({ code: "TIMESTAMP_OUT_OF_WINDOW", what, timestampMs, nowMs, windowMs: TIMESTAMP_WINDOW_MS });
}

/**
 * Stateless transaction rules at `rate` base units per EC: structure (validateTransaction without the
 * fee) → INVALID naming the rule; then inputs ≥ outputs + EC outputs + fee → INSUFFICIENT_FEE.
 */
export function checkTransactionShape(tx: Transaction, rate: bigint, previousRate: bigint = rate): void {
  try {
    validateTransaction(tx, 0n);
  } catch (e) {
    throw asLedgerError(e);
  }
  const sum = (l: readonly { amount: bigint }[]): bigint => l.reduce((a, io) => a + io.amount, 0n);
  const surplus = sum(tx.inputs) - sum(tx.outputs) - sum(tx.ecOutputs);
  const fee = BigInt(transactionFeeEC(tx)) * rate;
  if (surplus >= fee) return;
  // priced at the rate the previous block paid, after a change (cluster/ecRate.ts): say so, naming both rates
  if (previousRate !== rate && surplus >= BigInt(transactionFeeEC(tx)) * previousRate)
    throw new LedgerError({
      code: "INSUFFICIENT_FEE",
      need: fee,
      have: surplus,
      rates: { inForce: rate, previous: previousRate },
    });
  throw new LedgerError({ code: "INSUFFICIENT_FEE", need: fee, have: surplus });
}

/** An entry's bytes decoded; a malformed entry is INVALID. */
export function decodeEntry(raw: Uint8Array): Entry {
  try {
    return unmarshalEntry(raw);
  } catch (e) {
    throw asLedgerError(e);
  }
}

/** A ProtocolError met inside a ledger rule becomes LedgerError INVALID with its message. */
export function asLedgerError(e: unknown): unknown {
  if (e instanceof ProtocolError)
    return new LedgerError({ code: "INVALID", info: e.message } satisfies LedgerErrorType);
  return e;
}
