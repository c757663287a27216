/**
 * Commands on the wallet's keys: new-fa, new-ec, import, list, encrypt (docs/wallet.md).
 */
import { keyPairFromPrivate } from "../../../src/protocol/address.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { type Context, json } from "../context.js";
import { WalletError } from "../errors.js";
import { addKey, deriveNextKey, restoreSeed, WalletFile } from "../walletFile.js";

/** new-fa / new-ec: the seed's next key of that kind (a new wallet gets a new 12-word seed first). */
export async function newKey(ctx: Context, kind: "FA" | "EC"): Promise<void> {
  if (ctx.walletd() !== undefined) {
    const made = await ctx.fromWalletd((w) => (kind === "FA" ? w.generateAssetAddress() : w.generateEcAddress()));
    ctx.out(made.public);
    return;
  }
  const pair = ctx.wallet().update((keys, extras) => deriveNextKey(keys, extras, kind));
  ctx.out(pair.publicAddress);
}

/**
 * `restore`: give the wallet the seed of a 12-word mnemonic read from stdin (never from the command line, which
 * every user sees in `ps`); new-fa / new-ec then yield that seed's keys in order, as the reference wallet does.
 */
export async function restore(ctx: Context): Promise<void> {
  const text = ctx.io.readStdin().toString("utf8");
  if (ctx.walletd() !== undefined) {
    await ctx.fromWalletd((w) => w.importMnemonic({ words: text }));
    ctx.out(`restored the seed into the wallet service at ${ctx.walletd()!.baseUrl}`);
    return;
  }
  ctx.wallet().update((_keys, extras) => restoreSeed(extras, text));
  ctx.out(`restored the seed into ${ctx.walletPath}; new-fa and new-ec now give its keys in order`);
}

/** `backup`: the seed's mnemonic and every key's private key, as JSON (keep it offline). */
export async function backup(ctx: Context): Promise<void> {
  if (ctx.walletd() !== undefined) {
    ctx.out(json(await ctx.fromWalletd((w) => w.walletBackup())));
    return;
  }
  const wallet = ctx.wallet();
  if (!wallet.exists) throw new WalletError(`no wallet at ${ctx.walletPath}: nothing to back up`);
  ctx.out(
    json({
      "wallet-seed": wallet.seed()?.mnemonic ?? "",
      addresses: wallet.list().map((k) => ({ public: k.public, secret: k.secret })),
    }),
  );
}

export async function importKeys(ctx: Context): Promise<void> {
  // "-": the keys from stdin, one per line (a key on the command line is visible to every user in `ps`)
  const texts =
    ctx.args.positionals.length === 1 && ctx.pos(0) === "-"
      ? ctx.io
          .readStdin()
          .toString("utf8")
          .split(/\s+/)
          .filter((s) => s !== "")
      : ctx.args.positionals;
  if (texts.length === 0) throw new WalletError("import -: no keys on stdin");
  const pairs = texts.map((text, i) => {
    if (/^(FA|EC)/.test(text) && text.length === 52)
      throw new WalletError(
        `key ${i + 1}: ${text.slice(0, 6)}… is a public address; import takes private keys (Fs… or Es…)`,
      );
    try {
      return keyPairFromPrivate(text);
    } catch (e) {
      if (e instanceof ProtocolError)
        throw new WalletError(`key ${i + 1}: not a valid private key (Fs… or Es…): ${e.detail}`);
      throw e;
    }
  });
  if (ctx.walletd() !== undefined) {
    const known = new Set((await ctx.fromWalletd((w) => w.allAddresses())).addresses.map((a) => a.public));
    await ctx.fromWalletd((w) => w.importAddresses({ addresses: pairs.map((p) => ({ secret: p.privateAddress })) }));
    for (const p of pairs) {
      if (known.has(p.publicAddress)) ctx.warn(`${p.publicAddress} is already in the wallet`);
      ctx.out(p.publicAddress);
    }
    return;
  }
  const added = ctx.wallet().update((keys) => pairs.map((p) => addKey(keys, p)));
  pairs.forEach((p, i) => {
    if (!added[i]) ctx.warn(`${p.publicAddress} is already in the wallet`);
    ctx.out(p.publicAddress);
  });
}

export async function list(ctx: Context): Promise<void> {
  if (ctx.walletd() !== undefined) {
    const held = (await ctx.fromWalletd((w) => w.allAddresses())).addresses.map((a) => ({
      kind: a.public.slice(0, 2),
      public: a.public,
    }));
    if (ctx.args.flags.has("json")) ctx.out(json(held));
    else for (const a of held) ctx.out(a.public);
    return;
  }
  const wallet = ctx.wallet();
  if (!wallet.exists) ctx.warn(`no wallet yet at ${ctx.walletPath}; create a key with: ledgerd-wallet new-fa`);
  if (ctx.args.flags.has("json")) {
    ctx.out(json(wallet.list().map((k) => ({ kind: k.kind, public: k.public }))));
    return;
  }
  for (const k of wallet.list()) ctx.out(k.public);
}

/**
 * `encrypt`: the migration of a plain wallet to an encrypted one, in place (WalletFile.encrypt: atomic, under
 * the lock). The passphrase comes from -passfile or LEDGERD_WALLET_PASS, or is asked twice on the terminal.
 */
export async function encrypt(ctx: Context): Promise<void> {
  if (ctx.walletd() !== undefined)
    throw new WalletError(
      "encrypt works on a wallet file: stop the wallet service, run ledgerd-wallet -wallet=<its file> encrypt, start it again",
    );
  if (WalletFile.isEncrypted(ctx.walletPath))
    throw new WalletError(`wallet file ${ctx.walletPath} is already encrypted`);
  const wallet = ctx.wallet();
  if (!wallet.exists)
    throw new WalletError(
      `wallet file ${ctx.walletPath} does not exist`,
      "a new wallet is created encrypted when a command that writes it gets a passphrase (-passfile or LEDGERD_WALLET_PASS)",
    );
  const n = wallet.encrypt(await ctx.passphrase(true));
  ctx.out(
    `encrypted ${ctx.walletPath} (${n} key${n === 1 ? "" : "s"}); keep the passphrase: without it the keys are lost`,
  );
}
