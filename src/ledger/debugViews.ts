/**
 * Views of the ledger's state for the /debug methods (spec §4.2), typed (rpc builds their JSON): the holding
 * queue, the process list, the journal as text, the counters. Read-only over a LedgerView (state.ts), like queries.ts.
 */
import type { JournalRecord } from "../store/store.js";
import type { HeldMessage, ProcessListSnapshot } from "./api.js";
import type { BlockSigner } from "./blockBuilder.js";
import { HOLD_EXPIRY_MS } from "./constants.js";
import { decodeMessage, describeMessage } from "./messages.js";
import type { LedgerView } from "./state.js";

/** The holding queue's reveals, with when each expires (ms since epoch). */
export function heldMessages(view: LedgerView): HeldMessage[] {
  return view.holding.list().map((h) => ({
    kind: "reveal",
    hash: h.entryHash,
    receivedMs: h.arrivalMs,
    expiresMs: h.arrivalMs + HOLD_EXPIRY_MS,
  }));
}

/** The open block's process list, in bytes and counts (its JSON: rpc/debug/processList.ts). */
export function processListSnapshot(view: LedgerView): ProcessListSnapshot {
  const pl = view.pl;
  return {
    height: pl.height,
    minute: pl.minute,
    startMs: pl.startMs,
    minuteStartMs: pl.minuteStartMs,
    commits: Array.from({ length: pl.commitCount }, (_, i) => {
      const c = pl.commitAt(i);
      return { txId: c.txId, entryHash: c.commit.entryHash, credits: c.commit.credits, kind: c.commit.kind };
    }),
    entries: Array.from({ length: pl.revealCount }, (_, i) => {
      const r = pl.revealAt(i);
      return { entryHash: r.entryHash, chainId: r.chainId };
    }),
    transactions: pl.transactions.map((t) => ({ txId: t.txId })),
    entryBlocks: [...pl.entryBlocks.values()].map((eb) => ({
      chainId: eb.chainId,
      items: eb.itemCount,
      newChain: eb.newChain,
    })),
    held: view.holding.size,
  };
}

/** Federated servers: on a network this node produces for (LOCAL, CUSTOM), the bootstrap identity alone. */
export function federatedServers(
  producing: boolean,
  signer: BlockSigner,
): { chainId: Uint8Array; name: string; online: boolean; signingKey: Uint8Array }[] {
  if (!producing) return [];
  return [{ chainId: signer.identityChainId.slice(), name: "", online: true, signingKey: signer.publicKey.slice() }];
}

/** Journal records of `height` as human-readable lines (a record that does not decode says why). */
export function journalLines(records: readonly JournalRecord[], height: number): string[] {
  return records.map((r) => {
    try {
      return describeMessage(decodeMessage(r.bytes), height, r.seq);
    } catch (e) {
      return JSON.stringify({ height, seq: r.seq, error: String(e) });
    }
  });
}

/** The counters, with the holding queue's size, the saved height and the open block's minute. */
export function stats(view: LedgerView): Record<string, number> {
  return { ...view.counters, held: view.holding.size, height: view.tip.height, minute: view.pl.minute };
}
