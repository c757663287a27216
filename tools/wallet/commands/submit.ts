/**
 * Submitting to the node and waiting: a node's rejection turned into a WalletError that says what happened,
 * and the waits for TransactionACK / DBlockConfirmed.
 */
import { RpcError } from "../../../src/client/errors.js";
import type { AckStatus } from "../../../src/client/types.js";
import type { ComposedEntry } from "../compose.js";
import type { Context } from "../context.js";
import { UsageError, WalletError } from "../errors.js";
import { waitForStatus } from "../progress.js";

/** Default wait for TransactionACK, seconds: the node acknowledges on submission, so this only covers a slow node. */
const ACK_TIMEOUT_S = 60;
/** Extra seconds on top of three block times when waiting for DBlockConfirmed. */
const CONFIRM_SLACK_S = 60;

/** True when a node's rejection says a balance is too low (our node's EC_BALANCE_LOW / ASSET_BALANCE_LOW, or text). */
export function isBalanceError(e: RpcError): boolean {
  const data = e.data as { code?: unknown } | undefined;
  if (
    typeof data === "object" &&
    data !== null &&
    (data.code === "EC_BALANCE_LOW" || data.code === "ASSET_BALANCE_LOW")
  )
    return true;
  const text = `${e.rpcMessage} ${typeof e.data === "string" ? e.data : JSON.stringify(e.data ?? "")}`;
  return /balance|insufficient|not enough/i.test(text);
}

/** A node's rejection of a submission as a WalletError that says what happened; other errors unchanged. */
export function rejection(what: string, e: unknown): unknown {
  if (e instanceof RpcError && isBalanceError(e))
    return new WalletError(
      `insufficient balance: the node refused the ${what}: ${describeRpc(e)}`,
      "fund it: entry credits with ledgerd-wallet buy-ec <FA…> <EC…> <credits>, assets with ledgerd-wallet send <FA…> <FA…> <amount>",
    );
  if (e instanceof RpcError) return new WalletError(`the node refused the ${what}: ${describeRpc(e)}`);
  return e;
}

/** Submit with a node error turned into a WalletError (see `rejection`). */
export async function submit<T>(what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw rejection(what, e);
  }
}

export function describeRpc(e: RpcError): string {
  const data =
    e.data === undefined
      ? ""
      : typeof e.data === "string"
        ? `: ${e.data}`
        : `: ${JSON.stringify(e.data, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
  return `${e.rpcMessage}${data} (code ${e.code})`;
}

// ───────────────────────────── waiting ─────────────────────────────

export async function waitOptions(
  ctx: Context,
): Promise<{ target: "TransactionACK" | "DBlockConfirmed"; timeoutMs: number } | undefined> {
  if (ctx.args.flags.has("no-wait")) return undefined;
  const target = ctx.args.flags.has("wait-confirmed") ? "DBlockConfirmed" : "TransactionACK";
  const given = ctx.args.values.get("timeout");
  if (given !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(given) || Number(given) <= 0)
      throw new UsageError(`-timeout: expected a positive number of seconds, got ${JSON.stringify(given)}`);
    return { target, timeoutMs: Number(given) * 1000 };
  }
  if (target === "TransactionACK") return { target, timeoutMs: ACK_TIMEOUT_S * 1000 };
  const minute = await ctx.client().currentMinute();
  return { target, timeoutMs: (3 * minute.directoryblockinseconds + CONFIRM_SLACK_S) * 1000 };
}

export async function waitForEntry(ctx: Context, composed: ComposedEntry): Promise<void> {
  const opts = await waitOptions(ctx);
  if (opts === undefined) return;
  const client = ctx.client();
  await waitForStatus(
    async () => {
      const r = await client.ack({ hash: composed.entryHash, chainid: composed.chainId });
      return "entrydata" in r ? r.entrydata.status : ("" as const);
    },
    { ...opts, label: `entry ${composed.entryHash}`, stream: ctx.io.stderr },
  );
}

export async function waitForTransaction(ctx: Context, txId: string): Promise<void> {
  const opts = await waitOptions(ctx);
  if (opts === undefined) return;
  const client = ctx.client();
  await waitForStatus(async () => (await client.ack({ hash: txId, chainid: "f" })).status as AckStatus, {
    ...opts,
    label: `transaction ${txId}`,
    stream: ctx.io.stderr,
  });
}
