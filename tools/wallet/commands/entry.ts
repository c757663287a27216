/**
 * Commands on entries and chains: compose-chain/-entry, add-chain/-entry, entry, chain-head (entries: query.ts).
 */
import { RpcError, RpcErrorCode } from "../../../src/client/errors.js";
import type { EntryJson } from "../../../src/client/types.js";
import { fromHex } from "../../../src/protocol/bytes.js";
import { type ComposedEntry, composeChain, composeEntry } from "../compose.js";
import { type Context, json } from "../context.js";
import { UsageError, WalletError } from "../errors.js";
import { composeOrThrow, entryData, expectAddress, expectHash, walletKey } from "./input.js";
import { rejection, submit, waitForEntry } from "./submit.js";

/** Commit states in which the commit has been processed, i.e. paid (spec §3 rule 2). */
const PAID = new Set<string>(["TransactionACK", "DBlockConfirmed"]);

/** Bytes as text when they are printable UTF-8, else undefined (the caller prints hex). */
export function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

export function printEntry(ctx: Context, entryHash: string, e: EntryJson): void {
  ctx.out(`EntryHash: ${entryHash}`);
  ctx.out(`ChainID: ${e.chainid}`);
  for (const hex of e.extids ?? []) {
    const text = asText(Buffer.from(hex, "hex"));
    ctx.out(text === undefined ? `ExtID (hex): ${hex}` : `ExtID: ${text}`);
  }
  const text = asText(Buffer.from(e.content, "hex"));
  ctx.out(text === undefined ? "Content (hex):" : "Content:");
  ctx.out(text ?? e.content);
}

export async function composeFor(ctx: Context, kind: "chain" | "entry"): Promise<ComposedEntry> {
  const { extIds, content } = entryData(ctx);
  const ec = ctx.pos(0);
  expectAddress(ec, "EC", "EC address");
  const pair = await walletKey(ctx, ec, "EC address");
  const milliTime = Date.now();
  if (kind === "chain") {
    if (ctx.args.values.has("chain"))
      throw new UsageError("--chain is for entries; a new chain's ID is derived from its ext IDs");
    return composeOrThrow(() => composeChain({ extIds, content, ecSeed: pair.seed, milliTime }));
  }
  const chainText = ctx.args.values.get("chain");
  if (chainText === undefined) throw new UsageError("--chain <chain ID> is required");
  const chainId = fromHex(expectHash(chainText, "--chain"), "--chain", 32);
  return composeOrThrow(() => composeEntry({ chainId, extIds, content, ecSeed: pair.seed, milliTime }));
}

export async function composeEntryCommand(ctx: Context, kind: "chain" | "entry"): Promise<void> {
  const c = await composeFor(ctx, kind);
  ctx.out(json({ commit: c.commit, reveal: c.reveal }));
}

export async function addEntry(ctx: Context, kind: "chain" | "entry"): Promise<void> {
  const c = await composeFor(ctx, kind);
  const client = ctx.client();
  const ec = ctx.pos(0);

  // The chain must not exist (add-chain) / must exist (add-entry): checked before paying.
  let exists = true;
  try {
    await client.chainHead({ chainid: c.chainId });
  } catch (e) {
    if (!(e instanceof RpcError && e.code === RpcErrorCode.MissingChainHead)) throw e;
    exists = false;
  }
  if (kind === "chain" && exists)
    throw new WalletError(
      `chain ${c.chainId} already exists`,
      `add entries to it: ledgerd-wallet add-entry --chain ${c.chainId} … ${ec}`,
    );
  if (kind === "entry" && !exists)
    throw new WalletError(`chain ${c.chainId} does not exist`, "create it first with ledgerd-wallet add-chain");

  // A commit for this very entry may already be paid (an earlier run stopped before its reveal): then the
  // node will answer Repeated Commit and only the reveal is needed, so the balance does not matter.
  const earlier = await client.ack({ hash: c.entryHash, chainid: c.chainId });
  const paid = "commitdata" in earlier && PAID.has(earlier.commitdata.status);
  const have = BigInt((await client.entryCreditBalance({ address: ec })).balance);
  if (!paid && have < BigInt(c.credits))
    throw new WalletError(
      `insufficient entry credits: ${ec} holds ${have} EC, this ${kind} costs ${c.credits} EC`,
      `buy more: ledgerd-wallet buy-ec <FA…> ${ec} ${BigInt(c.credits) - have}`,
    );

  try {
    if (kind === "chain") await client.commitChain(c.commit.params);
    else await client.commitEntry(c.commit.params);
  } catch (e) {
    // Spec §3 rule 3: a commit already paid with equal or more credits → go straight to the reveal.
    if (!(e instanceof RpcError && e.code === RpcErrorCode.RepeatedCommit)) throw rejection(`${kind} commit`, e);
    ctx.warn(`note: this ${kind} is already paid for (repeated commit); sending the reveal only`);
  }
  await submit(`${kind} reveal`, () =>
    kind === "chain" ? client.revealChain(c.reveal.params) : client.revealEntry(c.reveal.params),
  );

  if (ctx.quiet) ctx.out(kind === "chain" ? c.chainId : c.entryHash);
  else {
    ctx.out(`CommitTxID: ${c.commitTxId}`);
    ctx.out(`ChainID: ${c.chainId}`);
    ctx.out(`EntryHash: ${c.entryHash}`);
  }
  await waitForEntry(ctx, c);
}

/**
 * What the node knows of an entry hash that has no saved entry or receipt: "" when nothing (unknown), else its
 * commit and reveal statuses (e.g. "commit TransactionACK, reveal Unknown"). Asks `entry-ack`, which finds the
 * commit by the entry hash.
 */
export async function entryStatus(ctx: Context, hash: string): Promise<string> {
  try {
    const a = await ctx.client().entryAck({ txid: hash });
    const commit = a.commitdata?.status || "Unknown";
    const reveal = a.entrydata?.status || "Unknown";
    return commit === "Unknown" && reveal === "Unknown" ? "" : `commit ${commit}, reveal ${reveal}`;
  } catch {
    return "";
  }
}

export function notFound(e: unknown, code: number, message: string, hint?: string): never {
  if (e instanceof RpcError && e.code === code) throw new WalletError(message, hint);
  throw e;
}

export async function getEntry(ctx: Context): Promise<void> {
  const hash = expectHash(ctx.pos(0), "entry hash");
  const e = await ctx
    .client()
    .entry({ hash })
    .catch(async (err: unknown) => {
      const pending = err instanceof RpcError && err.code === RpcErrorCode.NotFound ? await entryStatus(ctx, hash) : "";
      return notFound(
        err,
        RpcErrorCode.NotFound,
        pending === ""
          ? `entry ${hash} is unknown to the node`
          : `entry ${hash} is not yet confirmed: its commit is known (${pending}), its reveal has not arrived`,
        pending === "" ? undefined : "send the reveal (ledgerd-wallet add-entry sends both), or wait for it",
      );
    });
  if (ctx.args.flags.has("json")) ctx.out(json({ entryhash: hash, ...e }));
  else printEntry(ctx, hash, e);
}

export async function chainHead(ctx: Context): Promise<void> {
  const chainid = expectHash(ctx.pos(0), "chain ID");
  const r = await ctx
    .client()
    .chainHead({ chainid })
    .catch((err: unknown) => notFound(err, RpcErrorCode.MissingChainHead, `chain ${chainid} not found on the node`));
  if (ctx.args.flags.has("json")) ctx.out(json(r));
  else if (ctx.quiet) ctx.out(r.chainhead);
  else {
    ctx.out(`ChainHead: ${r.chainhead}`);
    ctx.out(`ChainInProcessList: ${r.chaininprocesslist}`);
    if (r.chainhead === "") ctx.warn("the chain is not yet included in a directory block");
  }
}

/** Receipt JSON → protocol Receipt (bytes); WalletError naming the malformed field. */
