/**
 * The proof command: `proof <entry hash> [--out FILE]` saves the node's self-contained proof of an entry;
 * `proof --verify FILE` checks a saved one with no node at all (protocol/proof.ts verifyProof: hashes, Merkle
 * branch, the majority's signatures against the authority set derived from genesis), and with --anchor-rpc
 * also the anchor's external transaction (protocol/anchorCheck.ts: the rules of `receipt --verify --anchor-rpc`
 * and of the control panel's "verify in this browser" with an Ethereum RPC URL).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { RpcErrorCode } from "../../../src/client/errors.js";
import { AnchorRpcError, anchorRpcUrl, fetchEthereumRpc } from "../../../src/protocol/anchorCheck.js";
import { KNOWN_BOOTSTRAP_KEYS } from "../../../src/protocol/bootstrapKeys.js";
import { fromHex } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import {
  type ProofJson,
  type ProofSummary,
  pinnedBootstrapKey,
  verifyProof,
  verifyProofAndAnchor,
} from "../../../src/protocol/proof.js";
import { type Context, json } from "../context.js";
import { UsageError, WalletError } from "../errors.js";
import { notFound } from "./entry.js";
import { expectHash } from "./input.js";

export async function proofCommand(ctx: Context): Promise<void> {
  if (ctx.args.flags.has("verify")) return verifySaved(ctx);
  const hash = expectHash(ctx.pos(0), "entry hash");
  const proof = await ctx
    .client()
    .proof({ hash })
    .catch((err: unknown) =>
      notFound(
        err,
        RpcErrorCode.ReceiptCreation,
        `no proof for entry ${hash}: the entry is unknown or not yet in a saved directory block`,
        "wait for DBlockConfirmed (add-entry --wait-confirmed) and try again",
      ),
    );
  const out = ctx.args.values.get("out");
  if (out === undefined) {
    ctx.out(json(proof));
    return;
  }
  writeFileSync(out, `${json(proof)}\n`);
  ctx.out(`Proof of entry ${hash} saved to ${out} (check it anywhere: ledgerd-wallet proof --verify ${out})`);
}

async function verifySaved(ctx: Context): Promise<void> {
  const file = ctx.pos(0);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new WalletError(`proof does NOT verify: ${file} is not JSON (${(e as Error).message})`);
  }
  const anchorRpc = ctx.args.values.get("anchor-rpc");
  if (anchorRpc !== undefined && anchorRpcUrl(anchorRpc) === undefined)
    throw new UsageError("--anchor-rpc: expected an http:// or https:// URL");
  const trustedBootstrapKey = trustedKey(ctx, parsed);
  let summary: ProofSummary;
  let anchorLines: string[] = [];
  try {
    if (anchorRpc === undefined) summary = verifyProof(parsed, { trustedBootstrapKey });
    else {
      // the same rules as the control panel's "verify in this browser" with an Ethereum RPC URL
      const checked = await verifyProofAndAnchor(parsed, {
        trustedBootstrapKey,
        ethereum: fetchEthereumRpc(anchorRpc),
      });
      summary = checked.summary;
      const a = (parsed as ProofJson).anchor!;
      anchorLines = [
        `  whose keyMR is in the Merkle root ${a.windowmr} of directory blocks ${a.dbheightmin}..${a.dbheightmax}`,
        `  which Ethereum transaction ${a.txid} carries (setAnchor(${a.dbheightmax}, root), to ${checked.transaction.to})`,
        `  in block ${a.blockhash} (height ${checked.transaction.blockHeight}, index ${a.txindex}, ${checked.transaction.confirmations} confirmations at ${anchorRpc})`,
      ];
    }
  } catch (e) {
    if (e instanceof AnchorRpcError) throw new WalletError(e.message);
    if (e instanceof ProtocolError && e.field === "proof.anchor" && /^missing/.test(e.detail))
      throw new WalletError("the proof holds no anchor: its directory block was not anchored when it was saved");
    if (e instanceof ProtocolError) throw new WalletError(`proof does NOT verify: ${e.message}`);
    throw e;
  }
  if (ctx.args.flags.has("json")) {
    ctx.out(json(summary));
    return;
  }
  ctx.out(`Proof verified (no node asked): entry ${summary.entryhash}`);
  ctx.out(`  of chain ${summary.chainid}, ${summary.extids.length} ext ID(s), ${summary.contentbytes} content byte(s)`);
  ctx.out(
    `  is in directory block ${summary.directoryblockkeymr} (height ${summary.directoryblockheight}, ${new Date(summary.directoryblocktimestamp * 1000).toISOString()})`,
  );
  ctx.out(
    `  signed by ${summary.signed} of ${summary.federated} federated servers (${summary.needed} needed), the set derived from ${summary.changeblocks} authority change block(s) since genesis`,
  );
  const known = KNOWN_BOOTSTRAP_KEYS.has(summary.networkid) || ctx.args.values.has("bootstrap-key");
  ctx.out(
    `  trust root: bootstrap key ${summary.bootstrapkey}${known ? " (the network's, as this wallet knows it)" : " (NOT pinned: compare it with your network's, or pass --bootstrap-key)"}`,
  );
  if (summary.anchor !== undefined && anchorRpc === undefined)
    ctx.out(
      `  anchored in window root ${summary.anchor.windowmr}, transaction ${summary.anchor.txid} (check it with --anchor-rpc)`,
    );
  for (const line of anchorLines) ctx.out(line);
}

/** The bootstrap key the proof must name: --bootstrap-key, else the wallet's for a known network ID. */
function trustedKey(ctx: Context, parsed: unknown): Uint8Array | undefined {
  const given = ctx.args.values.get("bootstrap-key");
  if (given !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(given)) throw new UsageError("--bootstrap-key: expected 64 hex characters");
    return fromHex(given.toLowerCase());
  }
  return pinnedBootstrapKey(parsed);
}
