/**
 * The receipt command: an entry's Merkle receipt, checked locally and, with --anchor-rpc, its anchor in Ethereum.
 */
import { verifyWindowBranch } from "../../../src/anchor/window.js";
import { RpcError, RpcErrorCode } from "../../../src/client/errors.js";
import type { ReceiptJson } from "../../../src/client/types.js";
import {
  AnchorRpcError,
  type AnchorTransactionFound,
  anchorRpcUrl,
  checkAnchorTransaction,
  fetchEthereumRpc,
} from "../../../src/protocol/anchorCheck.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { type ReceiptEthereumJson, receiptAnchorFromJson } from "../../../src/protocol/json/receiptJson.js";
import { verifyReceipt } from "../../../src/protocol/receipt.js";
import { type Context, json } from "../context.js";
import { UsageError, WalletError } from "../errors.js";
import { entryStatus, notFound } from "./entry.js";
import { expectHash } from "./input.js";

export function receiptBytes(r: ReceiptJson) {
  const h = (text: unknown, field: string): Uint8Array => {
    try {
      return fromHex(String(text), `receipt.${field}`, 32);
    } catch (e) {
      if (e instanceof ProtocolError) throw new WalletError(`the node's receipt is malformed: ${e.message}`);
      throw e;
    }
  };
  if (!Array.isArray(r.merklebranch))
    throw new WalletError("the node's receipt is malformed: merklebranch is not an array");
  return {
    entryHash: h(r.entry?.entryhash, "entry.entryhash"),
    merkleBranch: r.merklebranch.map((n, i) => ({
      left: h(n.left, `merklebranch[${i}].left`),
      right: h(n.right, `merklebranch[${i}].right`),
      top: h(n.top, `merklebranch[${i}].top`),
    })),
    entryBlockKeyMR: h(r.entryblockkeymr, "entryblockkeymr"),
    directoryBlockKeyMR: h(r.directoryblockkeymr, "directoryblockkeymr"),
    directoryBlockHeight: r.directoryblockheight ?? 0,
  };
}

export async function receipt(ctx: Context): Promise<void> {
  const hash = expectHash(ctx.pos(0), "entry hash");
  const client = ctx.client();
  const { receipt: r } = await client.receipt({ hash }).catch(async (err: unknown) => {
    const status = err instanceof RpcError ? await entryStatus(ctx, hash) : "";
    return notFound(
      err,
      RpcErrorCode.ReceiptCreation,
      status === ""
        ? `no receipt for entry ${hash}: the entry is unknown to the node`
        : `no receipt for entry ${hash} yet: it is not yet confirmed (${status}), not in a saved directory block`,
      status === "" ? undefined : "wait for DBlockConfirmed (add-entry --wait-confirmed) and try again",
    );
  });
  if (!ctx.args.flags.has("verify")) {
    ctx.out(json(r));
    return;
  }
  const receiptIn = receiptBytes(r);
  if (r.entry.entryhash.toLowerCase() !== hash)
    throw new WalletError(`receipt does NOT verify: it is for entry ${r.entry.entryhash}, not ${hash}`);
  if (!verifyReceipt(receiptIn))
    throw new WalletError(
      `receipt does NOT verify: its Merkle branch does not lead from entry ${hash} through entry block ${r.entryblockkeymr} to directory block ${r.directoryblockkeymr}`,
    );
  const height = receiptIn.directoryBlockHeight;
  const dblock = await client.dblockByHeight({ height });
  if (dblock.dblock.keymr !== r.directoryblockkeymr)
    throw new WalletError(
      `receipt does NOT verify: the node's directory block at height ${height} is ${dblock.dblock.keymr}, the receipt names ${r.directoryblockkeymr}`,
    );
  const anchorRpc = ctx.args.values.get("anchor-rpc");
  const anchorLines =
    anchorRpc === undefined ? [] : await verifyAnchor(r, receiptIn.directoryBlockKeyMR, height, anchorRpc);
  if (ctx.args.flags.has("json")) ctx.out(json(r));
  ctx.out(`Receipt verified: entry ${hash}`);
  ctx.out(`  is in entry block ${r.entryblockkeymr}`);
  ctx.out(`  which is in directory block ${r.directoryblockkeymr} (height ${height}, the node's block at that height)`);
  for (const line of anchorLines) ctx.out(line);
}

/**
 * The anchor's transaction checked against the Ethereum node at `rpcUrl` with the rules the control panel's
 * page runs too (protocol/anchorCheck.ts); what the chain contradicts, or its silence, as a WalletError.
 */
export async function anchorTransaction(
  anchor: ReceiptEthereumJson,
  rpcUrl: string,
  field: string,
): Promise<AnchorTransactionFound> {
  try {
    return await checkAnchorTransaction(anchor, fetchEthereumRpc(rpcUrl), field);
  } catch (e) {
    if (e instanceof AnchorRpcError) throw new WalletError(e.message);
    if (e instanceof ProtocolError) throw new WalletError(`anchor does NOT verify: ${e.message}`);
    throw e;
  }
}

/**
 * The anchored part of a receipt, checked against the external chain itself: the directory block's keyMR
 * leads to the window's Merkle root, and the transaction the receipt names sits in the block it names (the
 * chain's block at that height) and carries setAnchor(DBHeightMax, that root). Returns the lines to print.
 */
export async function verifyAnchor(
  r: ReceiptJson,
  keyMR: Uint8Array,
  height: number,
  rpcUrl: string,
): Promise<string[]> {
  if (anchorRpcUrl(rpcUrl) === undefined) throw new UsageError("--anchor-rpc: expected an http:// or https:// URL");
  let anchor: ReturnType<typeof receiptAnchorFromJson>;
  try {
    anchor = receiptAnchorFromJson(r);
  } catch (e) {
    if (e instanceof ProtocolError) throw new WalletError(`the node's receipt is malformed: ${e.message}`);
    throw e;
  }
  if (anchor === undefined || !r.anchortransactionhash)
    throw new WalletError(
      `receipt is not anchored yet: no anchor record covers directory block ${height} (anchortransactionhash is empty); try again after the next anchor`,
    );
  const rec = anchor.record;
  const window = `${rec.dbHeightMin}..${rec.dbHeightMax}`;
  if (height < rec.dbHeightMin || height > rec.dbHeightMax)
    throw new WalletError(`anchor does NOT verify: its window ${window} does not hold directory block ${height}`);
  if (!verifyWindowBranch(keyMR, anchor.windowBranch, rec.windowMR))
    throw new WalletError(
      `anchor does NOT verify: the branch does not lead from directory block ${toHex(keyMR)} to the window's Merkle root ${toHex(rec.windowMR)}`,
    );
  const eth = rec.ethereum;
  const found = await anchorTransaction(r.ethereum!, rpcUrl, "receipt.ethereum");
  return [
    `  whose keyMR is in the Merkle root ${toHex(rec.windowMR)} of directory blocks ${window}`,
    `  which Ethereum transaction ${eth.txId} carries (setAnchor(${rec.dbHeightMax}, root), to ${found.to})`,
    `  in block ${eth.blockHash} (height ${found.blockHeight}, index ${eth.txIndex}, ${found.confirmations} confirmations at ${rpcUrl})`,
  ];
}
