/**
 * The JSON of the ledger's process list (`process-list`, docs/ledger.md §7): the typed snapshot of the open
 * block (ledger/api.ts ProcessListSnapshot) with its hashes in hex, as rpc/methods.ts ProcessListView.
 */
import type { ProcessListSnapshot } from "../../ledger/api.js";
import { toHex } from "../../protocol/bytes.js";
import type { ProcessListView } from "../methods.js";

export function processListView(s: ProcessListSnapshot): ProcessListView {
  return {
    dbheight: s.height,
    minute: s.minute,
    blockstartms: s.startMs,
    minutestartms: s.minuteStartMs,
    commits: s.commits.map((c) => ({
      txid: toHex(c.txId),
      entryhash: toHex(c.entryHash),
      credits: c.credits,
      kind: c.kind,
    })),
    entries: s.entries.map((e) => ({ entryhash: toHex(e.entryHash), chainid: toHex(e.chainId) })),
    transactions: s.transactions.map((t) => ({ txid: toHex(t.txId) })),
    entryblocks: s.entryBlocks.map((eb) => ({ chainid: toHex(eb.chainId), items: eb.items, newchain: eb.newChain })),
    held: s.held,
  };
}
