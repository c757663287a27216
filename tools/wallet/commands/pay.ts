/**
 * Commands that move assets: balance, send, buy-ec, compose-transaction (docs/wallet.md).
 */
import { formatAssetAmount, parseAssetAmount, parseEcAmount } from "../amount.js";
import { type ComposedTransaction, composeTransaction } from "../compose.js";
import { type Context, json } from "../context.js";
import { UsageError, WalletError } from "../errors.js";
import { amountOrThrow, composeOrThrow, expectAddress, walletKey } from "./input.js";
import { submit, waitForTransaction } from "./submit.js";

export async function balance(ctx: Context): Promise<void> {
  const addresses = ctx.args.positionals;
  const kinds = addresses.map((a, i) => {
    const field = addresses.length === 1 ? "address" : `address ${i + 1}`;
    if (a.startsWith("EC") || a.startsWith("Es")) {
      expectAddress(a, "EC", field);
      return "EC" as const;
    }
    expectAddress(a, "FA", field);
    return "FA" as const;
  });
  const client = ctx.client();
  for (let i = 0; i < addresses.length; i++) {
    const address = addresses[i]!;
    const value =
      kinds[i] === "FA"
        ? formatAssetAmount(BigInt((await client.assetBalance({ address })).balance))
        : String((await client.entryCreditBalance({ address })).balance);
    ctx.out(addresses.length === 1 ? value : `${address} ${value}`);
  }
}

/** The transaction of send / buy-ec / compose-transaction, its balance checked against the node. */
export async function buildPayment(
  ctx: Context,
  mode: "send" | "buy-ec" | "auto",
  checkBalance: boolean,
): Promise<ComposedTransaction> {
  const from = ctx.pos(0);
  const to = ctx.pos(1);
  expectAddress(from, "FA", "from");
  const toIsEc = mode === "buy-ec" || (mode === "auto" && (to.startsWith("EC") || to.startsWith("Es")));
  const toKey = expectAddress(to, toIsEc ? "EC" : "FA", "to");
  const amountText = ctx.pos(2);
  const pair = await walletKey(ctx, from, "from");
  let rate: bigint;
  const rateText = ctx.args.values.get("rate");
  if (rateText !== undefined && !checkBalance) {
    if (!/^\d+$/.test(rateText) || BigInt(rateText) === 0n)
      throw new UsageError(
        `-rate: expected a positive whole number of base units per EC, got ${JSON.stringify(rateText)}`,
      );
    rate = BigInt(rateText);
  } else {
    rate = BigInt((await ctx.client().entryCreditRate()).rate);
    if (rate <= 0n) throw new WalletError(`the node reports an entry credit rate of ${rate}; cannot compute a fee`);
  }
  const outputs = toIsEc
    ? []
    : [{ address: toKey, amount: amountOrThrow(() => parseAssetAmount(amountText, "amount")) }];
  const ecOutputs = toIsEc
    ? [{ address: toKey, amount: amountOrThrow(() => parseEcAmount(amountText, "entry credits")) * rate }]
    : [];
  const composed = composeOrThrow(() =>
    composeTransaction({ inputSeed: pair.seed, outputs, ecOutputs, rate, milliTimestamp: Date.now() }),
  );
  if (checkBalance) {
    const have = BigInt((await ctx.client().assetBalance({ address: from })).balance);
    if (have < composed.inputAmount)
      throw new WalletError(
        `insufficient balance: ${from} holds ${formatAssetAmount(have)}, this transaction needs ${formatAssetAmount(composed.inputAmount)} (${toIsEc ? `${amountText} EC at ${rate} base units each` : `amount ${amountText}`} + fee ${formatAssetAmount(composed.fee)})`,
        `fund it from an address that holds assets: ledgerd-wallet send <FA…> ${from} ${formatAssetAmount(composed.inputAmount - have)}`,
      );
  }
  return composed;
}

export async function pay(ctx: Context, mode: "send" | "buy-ec"): Promise<void> {
  const composed = await buildPayment(ctx, mode, true);
  const result = await submit("transaction", () =>
    ctx.client().assetSubmit({ transaction: composed.request.params.transaction }),
  );
  if (result.txid !== composed.txId)
    ctx.warn(`note: the node reports txid ${result.txid}, the wallet computed ${composed.txId}`);
  ctx.out(ctx.quiet ? composed.txId : `TxID: ${composed.txId}`);
  if (!ctx.quiet) ctx.out(`Fee: ${formatAssetAmount(composed.fee)} (${composed.feeEC} EC)`);
  await waitForTransaction(ctx, composed.txId);
}

export async function composeTx(ctx: Context): Promise<void> {
  const composed = await buildPayment(ctx, "auto", false);
  ctx.out(json(composed.request));
}
