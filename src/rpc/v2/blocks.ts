/**
 * Block methods (spec §4.1; reference api-behavior §5): by height and by key (primary or secondary hash).
 * `rawdata` is the block's binary as hex; with `noraw: true` it is left out, except in the `ecblock`
 * wrapper where it stays as "" (reference quirk kept for clients that read it unconditionally).
 */
import type { Stored } from "../../ledger/api.js";
import { toHex } from "../../protocol/bytes.js";
import { directoryBlockHashes } from "../../protocol/dblock.js";
import { adminBlockJson } from "../../protocol/json/adminBlockJson.js";
import { assetBlockJson } from "../../protocol/json/assetBlockJson.js";
import { directoryBlockJson, directoryBlockSimpleJson } from "../../protocol/json/directoryBlockJson.js";
import { ecBlockToJson } from "../../protocol/json/ecBlockJson.js";
import type { RpcContext } from "../context.js";
import { internalError, notFound } from "../errors.js";
import { JsonText } from "../jsonrpc.js";
import { expectBool, expectHash, expectHeight, Params } from "../params.js";
import { entryBlockAnswer, entryBlockHeight } from "./entryBlockText.js";

function found<B>(stored: Stored<B> | undefined): Stored<B> {
  if (stored === undefined) throw notFound("Block");
  return stored;
}

/** `{<key>: json, rawdata}`; rawdata omitted with noraw. */
function wrap<K extends string, J>(
  key: K,
  json: J,
  raw: Uint8Array,
  noraw: boolean,
): { [k in K]: J } & { rawdata?: string } {
  const wrapped = { [key]: json } as { [k in K]: J } & { rawdata?: string };
  if (!noraw) wrapped.rawdata = toHex(raw);
  return wrapped;
}

/** `directory-block-head`: keymr of the highest saved directory block. */
export function directoryBlockHead(_params: unknown, ctx: RpcContext) {
  return { keymr: toHex(directoryBlockHashes(ctx.ledger.directoryBlockHead().block).keyMR) };
}

/** `directory-block` {keymr}: simplified shape, header.timestamp in seconds. `noraw` is accepted and ignored. */
export function directoryBlock(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const keymr = expectHash(p, "keymr");
  expectBool(p, "noraw");
  const { block } = found(ctx.ledger.directoryBlockByHash(keymr));
  return ctx.views.get(block, "directory-block", () => JsonText.remembered(directoryBlockSimpleJson(block)));
}

/** `dblock-by-height` {height, noraw}: full shape, header.timestamp in minutes. */
export function dblockByHeight(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [height, noraw] = [expectHeight(p), expectBool(p, "noraw")];
  const s = found(ctx.ledger.directoryBlockByHeight(height));
  return ctx.views.get(s.block, noraw ? "dblock-by-height noraw" : "dblock-by-height", () =>
    JsonText.remembered(wrap("dblock", directoryBlockJson(s.block), s.raw, noraw)),
  );
}

/** `ablock-by-height` {height, noraw}. */
export function ablockByHeight(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [height, noraw] = [expectHeight(p), expectBool(p, "noraw")];
  const s = found(ctx.ledger.adminBlockByHeight(height));
  return wrap("ablock", adminBlockJson(s.block), s.raw, noraw);
}

/** `admin-block` {keymr, noraw}: lookup hash or back-reference hash. */
export function adminBlock(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [keymr, noraw] = [expectHash(p, "keymr"), expectBool(p, "noraw")];
  const s = found(ctx.ledger.adminBlockByHash(keymr));
  return wrap("ablock", adminBlockJson(s.block), s.raw, noraw);
}

/**
 * Largest EC block whose answer is remembered, raw bytes (~1,900 commits). A view is several times its raw
 * size in memory; the blocks of a busy node (20,000 commits, ~3 MB) are built per call instead.
 */
const EC_VIEW_MAX_RAW_BYTES = 256 * 1024;

/** The EC block answer, remembered per decoded block when small (the ledger caches decoded EC blocks). */
function ecWrap(ctx: RpcContext, s: { block: Parameters<typeof ecBlockToJson>[0]; raw: Uint8Array }, noraw: boolean) {
  const build = () => ({ ecblock: ecBlockToJson(s.block), rawdata: noraw ? "" : toHex(s.raw) });
  if (s.raw.length > EC_VIEW_MAX_RAW_BYTES) return build();
  return ctx.views.get(s.block, noraw ? "ecblock noraw" : "ecblock", () => JsonText.remembered(build()));
}

/** `ecblock-by-height` {height, noraw}. */
export function ecblockByHeight(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [height, noraw] = [expectHeight(p), expectBool(p, "noraw")];
  return ecWrap(ctx, found(ctx.ledger.ecBlockByHeight(height)), noraw);
}

/** `entrycredit-block` {keymr, noraw}: header hash or full hash. */
export function entrycreditBlock(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [keymr, noraw] = [expectHash(p, "keymr"), expectBool(p, "noraw")];
  return ecWrap(ctx, found(ctx.ledger.ecBlockByHash(keymr)), noraw);
}

/** `fblock-by-height` {height, noraw}. */
export function fblockByHeight(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [height, noraw] = [expectHeight(p), expectBool(p, "noraw")];
  const s = found(ctx.ledger.assetBlockByHeight(height));
  return wrap("fblock", assetBlockJson(s.block), s.raw, noraw);
}

/** `asset-block` {keymr, noraw}: keyMR or ledger keyMR. */
export function assetBlock(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const [keymr, noraw] = [expectHash(p, "keymr"), expectBool(p, "noraw")];
  const s = found(ctx.ledger.assetBlockByHash(keymr));
  return wrap("fblock", assetBlockJson(s.block), s.raw, noraw);
}

/**
 * `entry-block` {keymr}: keyMR or full hash; timestamps in seconds. `noraw` is accepted and ignored.
 *
 * The answer is written from the block's saved bytes (entryBlockText.ts) and kept as answer bytes by the hash text
 * asked for (answerCache.ts, as `entry`'s): a saved block never changes, and only a block whose save has committed
 * is kept.
 */
export function entryBlock(params: unknown, ctx: RpcContext) {
  const p = new Params(params);
  const cache = ctx.entryBlockAnswers;
  const asked = p.get("keymr");
  const kept = cache !== undefined && typeof asked === "string" ? cache.get(asked) : undefined;
  if (kept !== undefined) {
    expectBool(p, "noraw");
    return kept;
  }
  const keymr = expectHash(p, "keymr");
  expectBool(p, "noraw");
  const saved = ctx.ledger.entryBlockBytes(keymr);
  if (saved === undefined) throw notFound("Block");
  const dbHeight = entryBlockHeight(saved.raw);
  const dblock = ctx.ledger.directoryBlockByHeight(dbHeight);
  if (dblock === undefined) throw internalError(`directory block ${dbHeight} of a saved entry block is missing`);
  const answer = entryBlockAnswer(saved.raw, dblock.block.timestamp);
  // the param passed expectHash: `asked` is a valid hash text
  if (cache !== undefined && saved.committed) cache.set(asked as string, answer);
  return answer;
}
