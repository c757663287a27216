/**
 * Node information methods (spec §4.1: heights, current-minute, properties, entry-credit-rate; extra:
 * tps-rate). Params are ignored, as on the reference node.
 */
import { jsonInteger } from "../../protocol/json/transactionJson.js";
import { NODE_API_VERSION, NODE_VERSION } from "../../version.js";
import type { RpcContext } from "../context.js";
import { JsonText } from "../jsonrpc.js";
import type { HeightsResult } from "../methods.js";

/**
 * `heights`: block heights (counts, not times). The answer is a function of the four numbers: kept as answer bytes
 * while they stay the same (answerCache.ts `KeptHeights`), so a read between two blocks writes no JSON.
 */
export function heights(_params: unknown, ctx: RpcContext) {
  const h = ctx.ledger.heights();
  // a cluster node that is catching up reports the network's height, not only its own
  const leaderheight = Math.max(h.leaderHeight, ctx.cluster?.leaderHeight() ?? 0);
  const kept = ctx.heightsAnswer;
  const answer = kept?.get(h.directoryBlockHeight, leaderheight, h.entryBlockHeight, h.entryHeight);
  if (answer !== undefined) return answer;
  const result: HeightsResult = {
    directoryblockheight: h.directoryBlockHeight,
    leaderheight,
    entryblockheight: h.entryBlockHeight,
    entryheight: h.entryHeight,
  };
  if (kept === undefined) return result;
  const remembered = JsonText.remembered(result);
  kept.set(h.directoryBlockHeight, leaderheight, h.entryBlockHeight, h.entryHeight, remembered);
  return remembered;
}

/**
 * `current-minute`. Units: `currentblockstarttime`, `currentminutestarttime`, `currenttime` in nanoseconds
 * since the Unix epoch (exact 19-digit integers); `directoryblockinseconds`, `faulttimeout`, `roundtimeout`
 * in seconds; `minute` 0–9.
 */
export function currentMinute(_params: unknown, ctx: RpcContext) {
  const m = ctx.ledger.currentMinute();
  const leaderHeight = Math.max(m.leaderHeight, ctx.cluster?.leaderHeight() ?? 0);
  return {
    leaderheight: leaderHeight,
    directoryblockheight: m.directoryBlockHeight,
    minute: m.minute,
    currentblockstarttime: m.currentBlockStartTimeNs,
    currentminutestarttime: m.currentMinuteStartTimeNs,
    currenttime: m.currentTimeNs,
    directoryblockinseconds: m.directoryBlockInSeconds,
    // factomd IsStalled: the open minute is overdue, or the saved height is more than 3 behind the leaders
    stalldetected: m.stallDetected || m.directoryBlockHeight < leaderHeight - 3,
    faulttimeout: m.faultTimeoutSeconds,
    roundtimeout: m.roundTimeoutSeconds,
  };
}

/** `properties`: software and API versions. */
export function properties() {
  return { nodeversion: NODE_VERSION, nodeapiversion: NODE_API_VERSION };
}

/** `entry-credit-rate`: base units of the asset per entry credit. */
export function entryCreditRate(_params: unknown, ctx: RpcContext) {
  return { rate: jsonInteger(ctx.ledger.entryCreditRate()) };
}

/**
 * `tps-rate` (extra): messages accepted through this node's API per second — `totaltxrate` averaged since
 * the node started, `instanttxrate` over the last 10 seconds.
 */
export function tpsRate(_params: unknown, ctx: RpcContext) {
  const r = ctx.intake.rates();
  return { totaltxrate: round3(r.total), instanttxrate: round3(r.instant) };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
