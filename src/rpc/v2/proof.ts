/**
 * `proof` {hash} (extension, docs/api.md §5.8): everything a verifier needs to check an entry with no node —
 * the entry, its receipt branch, its directory block header, the majority's signatures over it from the next
 * admin block, the authority change blocks from genesis with what ties each to a signed directory block, and
 * the anchor when one is recorded (protocol/proof.ts holds the format and the verifier).
 *
 * Which admin blocks change the authority set is remembered per ledger (heights scanned, heights that hold
 * 05/06/07/08), so a proof reads each saved admin block once over the node's life, not once per call.
 */

import { networkBootstrap } from "../../cluster/clusterConfig.js";
import { type AdminBlock, decodeAdminBlock } from "../../protocol/ablock.js";
import { receiptToJson } from "../../protocol/json/receiptJson.js";
import { assembleProof, changesAuthority, type ProofInputs } from "../../protocol/proof.js";
import type { RpcContext } from "../context.js";
import { receiptCreationError, serverError } from "../errors.js";
import type { ProofResult } from "../methods.js";
import { expectHash, Params } from "../params.js";

/** Admin block heights scanned so far (exclusive) and those among them that change the authority set. */
interface ChangeScan {
  scannedTo: number;
  heights: number[];
}

const scans = new WeakMap<object, ChangeScan>();

/** Heights ≤ `upTo` whose admin block holds 05/06/07/08, ascending (saved blocks never change). */
function changeHeights(ctx: RpcContext, upTo: number): number[] {
  let scan = scans.get(ctx.ledger);
  if (scan === undefined) {
    scan = { scannedTo: 0, heights: [] };
    scans.set(ctx.ledger, scan);
  }
  for (; scan.scannedTo <= upTo; scan.scannedTo++) {
    const admin = ctx.ledger.adminBlockByHeight(scan.scannedTo);
    if (admin === undefined) throw serverError("Proof not available", `admin block ${scan.scannedTo} is not saved`);
    if (changesAuthority(admin.block.entries)) scan.heights.push(scan.scannedTo);
  }
  return scan.heights.filter((h) => h <= upTo);
}

function savedAdmin(ctx: RpcContext, height: number): { raw: Uint8Array; block: AdminBlock } {
  const admin = ctx.ledger.adminBlockByHeight(height);
  if (admin === undefined)
    throw serverError(
      "Proof not available",
      `the signatures over directory block ${height - 1} are in admin block ${height}, not saved yet: ask again after the next block`,
    );
  // the stored bytes are what the directory block names; decode them, not a cached view, so raw and block agree
  return { raw: admin.raw, block: decodeAdminBlock(admin.raw) };
}

export function proof(params: unknown, ctx: RpcContext): ProofResult {
  const p = new Params(params);
  const hash = expectHash(p, "hash");
  const receipt = ctx.ledger.receipt(hash);
  const found = ctx.ledger.entry(hash);
  if (receipt === undefined || found === undefined) throw receiptCreationError();
  const height = receipt.directoryBlockHeight;
  const next = savedAdmin(ctx, height + 1);
  const dblock = ctx.ledger.directoryBlockByHeight(height);
  if (dblock === undefined) throw receiptCreationError();
  const changeBlocks: ProofInputs["changeBlocks"] = changeHeights(ctx, height).map((h) => {
    const admin = savedAdmin(ctx, h);
    const d = ctx.ledger.directoryBlockByHeight(h);
    if (d === undefined) throw serverError("Proof not available", `directory block ${h} is not saved`);
    return {
      adminRaw: admin.raw,
      admin: admin.block,
      directoryBlock: d.block,
      nextAdmin: savedAdmin(ctx, h + 1).block,
    };
  });
  const anchor = ctx.anchors?.index.forHeight(height);
  const ethereum = anchor === undefined ? undefined : receiptToJson(receipt, { anchor }).ethereum;
  return assembleProof({
    entryRaw: found.raw,
    receipt,
    directoryBlock: dblock.block,
    nextAdminBlock: next.block,
    bootstrap: networkBootstrap(ctx.getConfig()),
    changeBlocks,
    ...(ethereum === undefined ? {} : { anchor: ethereum }),
  });
}
