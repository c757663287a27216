/**
 * Debug methods about the node's state (spec §4.2): holding-queue, process-list, summary, messages.
 * Params are ignored.
 */
import { toHex } from "../../protocol/bytes.js";
import { NODE_VERSION } from "../../version.js";
import type { RpcContext } from "../context.js";
import { serverError } from "../errors.js";
import type { ProcessListResult } from "../methods.js";
import { processListView } from "./processList.js";

/**
 * `holding-queue`: {Messages: [{Type, Hash, ReceivedMs, ExpiresMs}] | null} — messages waiting (e.g. a reveal
 * whose commit has not arrived); null when empty, as the spec says. Times in ms since epoch.
 */
export function holdingQueue(_params: unknown, ctx: RpcContext) {
  const held = ctx.ledger.holdingQueue();
  return {
    Messages:
      held.length === 0
        ? null
        : held.map((m) => ({ Type: m.kind, Hash: toHex(m.hash), ReceivedMs: m.receivedMs, ExpiresMs: m.expiresMs })),
  };
}

/** `process-list`: {ProcessList: the open block's process list} (processList.ts; shape in docs/ledger.md §7). */
export function processList(_params: unknown, ctx: RpcContext): ProcessListResult {
  const view = processListView(ctx.ledger.processList());
  if (ctx.cluster === undefined) return { ProcessList: view };
  // a cluster node adds the federation's part of the open block: who signed it, who is suspected, the votes
  const s = ctx.cluster.status();
  const faults = ctx.cluster.faultView();
  return {
    ProcessList: {
      ...view,
      Federation: {
        Height: s.height,
        AppliedSequence: s.appliedSequence,
        Servers: s.federated.map((id) => ({
          ChainID: id,
          Signed: s.signatures.includes(id),
          Online: faults.get(id)?.online ?? true,
          Replace: faults.get(id)?.replace ?? null,
        })),
        Audit: s.audit,
        FaultVotes: s.faultVotes,
      },
    },
  };
}

/**
 * `summary`: {Summary: one line} — version, network, heights, API intake counters, the drop rate and delay
 * in force, and the ledger's counters.
 */
export function summary(_params: unknown, ctx: RpcContext) {
  const config = ctx.getConfig();
  const h = ctx.ledger.heights();
  const m = ctx.ledger.currentMinute();
  const i = ctx.intake.stats();
  const ledger = Object.entries(ctx.ledger.stats())
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const parts = [
    `ledgerd ${NODE_VERSION} ${config.network}`,
    `saved=${h.directoryBlockHeight} leader=${h.leaderHeight} minute=${m.minute}`,
    `intake received=${i.received} accepted=${i.accepted} rejected=${i.rejected} dropped=${i.dropped}`,
    `droprate=${ctx.intake.dropRatePerMille}permille delay=${ctx.intake.delayMs}ms`,
    `holding=${ctx.ledger.holdingQueue().length}`,
  ];
  if (ledger !== "") parts.push(`ledger ${ledger}`);
  // the query index's background rebuild (store/queryIndexRebuild.ts): the query methods refuse until it ends
  const rebuilding = ctx.queries?.rebuilding?.();
  if (rebuilding !== undefined)
    parts.push(`queryindex rebuilding height=${rebuilding.nextHeight} of=${rebuilding.savedHeight}`);
  if (ctx.cluster !== undefined) {
    const c = ctx.cluster.status();
    parts.push(
      `cluster ${c.role} seq=${c.appliedSequence} synced=${c.synced} federated=${c.federated.length} ` +
        `audit=${c.audit.length} signed=${c.signatures.length}/${c.federated.length} ` +
        `badsignatures=${c.badSignatureWrites}`,
    );
    if (c.forked) parts.push("FORKED: a majority of federated servers signed a different block; writes refused");
  }
  if (ctx.anchors !== undefined)
    parts.push(
      `anchor ${Object.entries(ctx.anchors.stats())
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}`,
    );
  return { Summary: parts.join(" | ") };
}

/**
 * `messages`: {Messages: [string]} — the message journal. Only with journaling on (flag -journaling=true);
 * otherwise error -32000 saying so (the reference answers {Messages: null}, which reads as "no messages").
 */
export function messages(_params: unknown, ctx: RpcContext) {
  if (!ctx.getConfig().journaling)
    throw serverError("Journaling disabled", "messages needs the node started with -journaling=true");
  return { Messages: ctx.ledger.journalMessages() };
}
