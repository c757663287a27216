/**
 * Command-line arguments checked and decoded: addresses, hashes, hex, amounts, entry data. Each failure is a
 * WalletError naming the argument.
 */
import { readFileSync } from "node:fs";
import { type AddressKind, decodeAddress, type KeyPair, keyPairFromPrivate } from "../../../src/protocol/address.js";
import { fromHex } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { AmountError } from "../amount.js";
import type { Context } from "../context.js";
import { UsageError, WalletError } from "../errors.js";

/** Decode a public address of `kind`, or throw WalletError naming the argument. */
export function expectAddress(text: string, kind: "FA" | "EC", field: string): Uint8Array {
  try {
    return decodeAddress(text, kind, field).key;
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    const secretOf: Record<string, AddressKind> = { FA: "Fs", EC: "Es" };
    // a private key is never printed back (it would land in terminal scrollback and CI logs)
    if (text.startsWith(secretOf[kind]!))
      throw new WalletError(
        `${field}: that is a private key (${secretOf[kind]}…, not shown), not an ${kind} address`,
        `give its public ${kind}… address (ledgerd-wallet list shows them)`,
      );
    const prefix = text.slice(0, 2);
    const hint =
      prefix !== kind && prefix.toUpperCase() === kind
        ? `addresses are case-sensitive: they start with ${kind}, and every letter counts`
        : kind === "FA" && prefix === "EC"
          ? "an EC address is funded with buy-ec: ledgerd-wallet buy-ec <FA…> <EC…> <credits>"
          : undefined;
    throw new WalletError(`${field}: ${JSON.stringify(text)} is not a valid ${kind} address (${e.detail})`, hint);
  }
}

/** A 32-byte hash argument as lowercase hex, or WalletError naming it. */
export function expectHash(text: string, field: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(text))
    throw new WalletError(
      `${field}: expected 64 hex characters, got ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)} (${text.length} characters)`,
    );
  return text.toLowerCase();
}

/** The wallet's key pair for a public address (from the wallet service with -walletd), or WalletError telling how to add it. */
export async function walletKey(ctx: Context, address: string, field: string): Promise<KeyPair> {
  if (ctx.walletd() !== undefined) {
    const held = await ctx.fromWalletd((w) => w.address({ address }));
    return keyPairFromPrivate(held.secret);
  }
  const wallet = ctx.wallet();
  const pair = wallet.keyPair(address);
  if (pair === undefined)
    throw new WalletError(
      `${field}: ${address} is not in the wallet ${ctx.walletPath}, so it cannot sign`,
      `import its private key: ledgerd-wallet import ${address.startsWith("FA") ? "Fs…" : "Es…"}`,
    );
  return pair;
}

export function amountOrThrow<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof AmountError) throw new WalletError(e.message);
    throw e;
  }
}

/** Ext IDs (--ext text, --ext-hex hex, in command-line order) and content (--content, --content-hex, --content-file). */
export function entryData(ctx: Context): { extIds: Uint8Array[]; content: Uint8Array } {
  const extIds = ctx.args.repeated
    .filter((r) => r.name === "ext" || r.name === "ext-hex")
    .map((r, i) =>
      r.name === "ext" ? new Uint8Array(Buffer.from(r.value, "utf8")) : hexArg(r.value, `--ext-hex (ext ID ${i})`),
    );
  const sources = ["content", "content-hex", "content-file"].filter((n) => ctx.args.values.has(n));
  if (sources.length > 1) throw new UsageError(`give the content once: --${sources.join(" and --")} were both given`);
  let content: Uint8Array = new Uint8Array(0);
  const v = (n: string) => ctx.args.values.get(n)!;
  if (sources[0] === "content") content = new Uint8Array(Buffer.from(v("content"), "utf8"));
  else if (sources[0] === "content-hex") content = hexArg(v("content-hex"), "--content-hex");
  else if (sources[0] === "content-file") {
    const file = v("content-file");
    try {
      content = new Uint8Array(file === "-" ? ctx.io.readStdin() : readFileSync(file));
    } catch (e) {
      throw new WalletError(
        `--content-file ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      );
    }
  }
  return { extIds, content };
}

export function hexArg(text: string, field: string): Uint8Array {
  try {
    return fromHex(text, field);
  } catch (e) {
    if (e instanceof ProtocolError) throw new WalletError(`${field}: ${e.detail}`);
    throw e;
  }
}

/** Run a protocol composition; ProtocolError (e.g. entry too large) becomes a WalletError. */
export function composeOrThrow<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ProtocolError) throw new WalletError(`cannot compose: ${e.message}`);
    throw e;
  }
}
