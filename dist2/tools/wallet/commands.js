/**
 * The wallet's commands (docs/wallet.md). `main` parses the command line, runs one command and
 * returns the exit code; it never calls process.exit, so tests can run it in-process too.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { EthereumReader, isTransportError } from "../../src/anchor/ethereum.js";
import { verifyWindowBranch } from "../../src/anchor/window.js";
import { AuthError, ClientConfigError, ClientError, HttpError, RpcError, RpcErrorCode, UnreachableError, } from "../../src/client/errors.js";
import { NodeClient } from "../../src/client/nodeClient.js";
import { decodeAddress, keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { ProtocolError } from "../../src/protocol/errors.js";
import { receiptAnchorFromJson } from "../../src/protocol/json/receiptJson.js";
import { verifyReceipt } from "../../src/protocol/receipt.js";
import { AmountError, formatAssetAmount, parseAssetAmount, parseEcAmount } from "./amount.js";
import { parseArgs } from "./args.js";
import { composeChain, composeEntry, composeTransaction, } from "./compose.js";
import { EXIT, UsageError, WalletError } from "./errors.js";
import { waitForStatus } from "./progress.js";
import { addKey, defaultWalletPath, WalletFile } from "./walletFile.js";
import { watch } from "./watch.js";
/** Node URL used when neither -node nor LEDGERD_NODE is given (spec §1 rule 4: port 8088). */
export const DEFAULT_NODE_URL = "http://127.0.0.1:8088";
/** Default wait for TransactionACK, seconds: the node acknowledges on submission, so this only covers a slow node. */
const ACK_TIMEOUT_S = 60;
/** Extra seconds on top of three block times when waiting for DBlockConfirmed. */
const CONFIRM_SLACK_S = 60;
/** Commit states in which the commit has been processed, i.e. paid (spec §3 rule 2). */
const PAID = new Set(["TransactionACK", "DBlockConfirmed"]);
/** Everything a command needs: the parsed line, the wallet, a lazily created node client, output. */
class Context {
    args;
    io;
    clientInstance;
    walletPath;
    constructor(args, io) {
        this.args = args;
        this.io = io;
        this.walletPath = args.values.get("wallet") ?? io.env.LEDGERD_WALLET ?? defaultWalletPath();
    }
    get nodeUrl() {
        return this.args.values.get("node") ?? this.io.env.LEDGERD_NODE ?? DEFAULT_NODE_URL;
    }
    /** The node client, created on first use from -node, -rpcuser, -rpcpass, -cafile (or LEDGERD_* variables). */
    client() {
        if (this.clientInstance === undefined) {
            this.clientInstance = new NodeClient({
                url: this.nodeUrl,
                user: this.args.values.get("rpcuser") ?? this.io.env.LEDGERD_RPCUSER,
                password: this.args.values.get("rpcpass") ?? this.io.env.LEDGERD_RPCPASS,
                caFile: this.args.values.get("cafile") ?? this.io.env.LEDGERD_CAFILE,
            });
        }
        return this.clientInstance;
    }
    close() {
        this.clientInstance?.close();
    }
    wallet() {
        const mode = WalletFile.mode(this.walletPath);
        if (mode !== undefined && (mode & 0o077) !== 0)
            this.warn(`wallet file ${this.walletPath} can be read by other users (mode ${mode.toString(8)}); run: chmod 600 ${this.walletPath}`);
        return WalletFile.load(this.walletPath);
    }
    out(line) {
        this.io.stdout.write(`${line}\n`);
    }
    warn(line) {
        this.io.stderr.write(`${line}\n`);
    }
    get quiet() {
        return this.args.flags.has("q") || this.args.flags.has("quiet");
    }
    pos(i) {
        return this.args.positionals[i];
    }
}
// ───────────────────────────── validation helpers ─────────────────────────────
/** Decode a public address of `kind`, or throw WalletError naming the argument. */
function expectAddress(text, kind, field) {
    try {
        return decodeAddress(text, kind, field).key;
    }
    catch (e) {
        if (!(e instanceof ProtocolError))
            throw e;
        const secretOf = { FA: "Fs", EC: "Es" };
        const hint = text.startsWith(secretOf[kind])
            ? `that is a private key; give its public ${kind}… address (ledgerd-wallet list shows them)`
            : undefined;
        throw new WalletError(`${field}: ${JSON.stringify(text)} is not a valid ${kind} address (${e.detail})`, hint);
    }
}
/** A 32-byte hash argument as lowercase hex, or WalletError naming it. */
function expectHash(text, field) {
    if (!/^[0-9a-fA-F]{64}$/.test(text))
        throw new WalletError(`${field}: expected 64 hex characters, got ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)} (${text.length} characters)`);
    return text.toLowerCase();
}
/** The wallet's key pair for a public address, or WalletError telling how to add it. */
function walletKey(ctx, address, field) {
    const wallet = ctx.wallet();
    const pair = wallet.keyPair(address);
    if (pair === undefined)
        throw new WalletError(`${field}: ${address} is not in the wallet ${ctx.walletPath}, so it cannot sign`, `import its private key: ledgerd-wallet import ${address.startsWith("FA") ? "Fs…" : "Es…"}`);
    return pair;
}
function amountOrThrow(f) {
    try {
        return f();
    }
    catch (e) {
        if (e instanceof AmountError)
            throw new WalletError(e.message);
        throw e;
    }
}
/** Ext IDs (--ext text, --ext-hex hex, in command-line order) and content (--content, --content-hex, --content-file). */
function entryData(ctx) {
    const extIds = ctx.args.repeated
        .filter((r) => r.name === "ext" || r.name === "ext-hex")
        .map((r, i) => r.name === "ext" ? new Uint8Array(Buffer.from(r.value, "utf8")) : hexArg(r.value, `--ext-hex (ext ID ${i})`));
    const sources = ["content", "content-hex", "content-file"].filter((n) => ctx.args.values.has(n));
    if (sources.length > 1)
        throw new UsageError(`give the content once: --${sources.join(" and --")} were both given`);
    let content = new Uint8Array(0);
    const v = (n) => ctx.args.values.get(n);
    if (sources[0] === "content")
        content = new Uint8Array(Buffer.from(v("content"), "utf8"));
    else if (sources[0] === "content-hex")
        content = hexArg(v("content-hex"), "--content-hex");
    else if (sources[0] === "content-file") {
        const file = v("content-file");
        try {
            content = new Uint8Array(file === "-" ? ctx.io.readStdin() : readFileSync(file));
        }
        catch (e) {
            throw new WalletError(`--content-file ${file}: cannot read it (${e.code ?? String(e)})`);
        }
    }
    return { extIds, content };
}
function hexArg(text, field) {
    try {
        return fromHex(text, field);
    }
    catch (e) {
        if (e instanceof ProtocolError)
            throw new WalletError(`${field}: ${e.detail}`);
        throw e;
    }
}
/** Run a protocol composition; ProtocolError (e.g. entry too large) becomes a WalletError. */
function composeOrThrow(f) {
    try {
        return f();
    }
    catch (e) {
        if (e instanceof ProtocolError)
            throw new WalletError(`cannot compose: ${e.message}`);
        throw e;
    }
}
// ───────────────────────────── node error mapping ─────────────────────────────
/** True when a node's rejection says a balance is too low (our node's EC_BALANCE_LOW / ASSET_BALANCE_LOW, or text). */
export function isBalanceError(e) {
    const data = e.data;
    if (typeof data === "object" &&
        data !== null &&
        (data.code === "EC_BALANCE_LOW" || data.code === "ASSET_BALANCE_LOW"))
        return true;
    const text = `${e.rpcMessage} ${typeof e.data === "string" ? e.data : JSON.stringify(e.data ?? "")}`;
    return /balance|insufficient|not enough/i.test(text);
}
/** A node's rejection of a submission as a WalletError that says what happened; other errors unchanged. */
function rejection(what, e) {
    if (e instanceof RpcError && isBalanceError(e))
        return new WalletError(`insufficient balance: the node refused the ${what}: ${describeRpc(e)}`);
    if (e instanceof RpcError)
        return new WalletError(`the node refused the ${what}: ${describeRpc(e)}`);
    return e;
}
/** Submit with a node error turned into a WalletError (see `rejection`). */
async function submit(what, f) {
    try {
        return await f();
    }
    catch (e) {
        throw rejection(what, e);
    }
}
function describeRpc(e) {
    const data = e.data === undefined
        ? ""
        : typeof e.data === "string"
            ? `: ${e.data}`
            : `: ${JSON.stringify(e.data, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`;
    return `${e.rpcMessage}${data} (code ${e.code})`;
}
// ───────────────────────────── waiting ─────────────────────────────
async function waitOptions(ctx) {
    if (ctx.args.flags.has("no-wait"))
        return undefined;
    const target = ctx.args.flags.has("wait-confirmed") ? "DBlockConfirmed" : "TransactionACK";
    const given = ctx.args.values.get("timeout");
    if (given !== undefined) {
        if (!/^\d+(\.\d+)?$/.test(given) || Number(given) <= 0)
            throw new UsageError(`-timeout: expected a positive number of seconds, got ${JSON.stringify(given)}`);
        return { target, timeoutMs: Number(given) * 1000 };
    }
    if (target === "TransactionACK")
        return { target, timeoutMs: ACK_TIMEOUT_S * 1000 };
    const minute = await ctx.client().currentMinute();
    return { target, timeoutMs: (3 * minute.directoryblockinseconds + CONFIRM_SLACK_S) * 1000 };
}
async function waitForEntry(ctx, composed) {
    const opts = await waitOptions(ctx);
    if (opts === undefined)
        return;
    const client = ctx.client();
    await waitForStatus(async () => {
        const r = await client.ack({ hash: composed.entryHash, chainid: composed.chainId });
        return "entrydata" in r ? r.entrydata.status : "";
    }, { ...opts, label: `entry ${composed.entryHash}`, stream: ctx.io.stderr });
}
async function waitForTransaction(ctx, txId) {
    const opts = await waitOptions(ctx);
    if (opts === undefined)
        return;
    const client = ctx.client();
    await waitForStatus(async () => (await client.ack({ hash: txId, chainid: "f" })).status, {
        ...opts,
        label: `transaction ${txId}`,
        stream: ctx.io.stderr,
    });
}
// ───────────────────────────── printing ─────────────────────────────
/** Bytes as text when they are printable UTF-8, else undefined (the caller prints hex). */
function asText(bytes) {
    let text;
    try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    }
    catch {
        return undefined;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}
function printEntry(ctx, entryHash, e) {
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
function json(value) {
    return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}
// ───────────────────────────── commands ─────────────────────────────
async function newKey(ctx, kind) {
    const pair = keyPairFromSeed(kind, new Uint8Array(randomBytes(32)));
    ctx.wallet().update((keys) => addKey(keys, pair));
    ctx.out(pair.publicAddress);
}
async function importKeys(ctx) {
    const pairs = ctx.args.positionals.map((text, i) => {
        if (/^(FA|EC)/.test(text) && text.length === 52)
            throw new WalletError(`key ${i + 1}: ${text.slice(0, 6)}… is a public address; import takes private keys (Fs… or Es…)`);
        try {
            return keyPairFromPrivate(text);
        }
        catch (e) {
            if (e instanceof ProtocolError)
                throw new WalletError(`key ${i + 1}: not a valid private key (Fs… or Es…): ${e.detail}`);
            throw e;
        }
    });
    const added = ctx.wallet().update((keys) => pairs.map((p) => addKey(keys, p)));
    pairs.forEach((p, i) => {
        if (!added[i])
            ctx.warn(`${p.publicAddress} is already in the wallet`);
        ctx.out(p.publicAddress);
    });
}
async function list(ctx) {
    const wallet = ctx.wallet();
    if (!wallet.exists)
        ctx.warn(`no wallet yet at ${ctx.walletPath}; create a key with: ledgerd-wallet new-fa`);
    if (ctx.args.flags.has("json")) {
        ctx.out(json(wallet.list().map((k) => ({ kind: k.kind, public: k.public }))));
        return;
    }
    for (const k of wallet.list())
        ctx.out(k.public);
}
async function balance(ctx) {
    const addresses = ctx.args.positionals;
    const kinds = addresses.map((a, i) => {
        const field = addresses.length === 1 ? "address" : `address ${i + 1}`;
        if (a.startsWith("EC") || a.startsWith("Es")) {
            expectAddress(a, "EC", field);
            return "EC";
        }
        expectAddress(a, "FA", field);
        return "FA";
    });
    const client = ctx.client();
    for (let i = 0; i < addresses.length; i++) {
        const address = addresses[i];
        const value = kinds[i] === "FA"
            ? formatAssetAmount(BigInt((await client.assetBalance({ address })).balance))
            : String((await client.entryCreditBalance({ address })).balance);
        ctx.out(addresses.length === 1 ? value : `${address} ${value}`);
    }
}
/** The transaction of send / buy-ec / compose-transaction, its balance checked against the node. */
async function buildPayment(ctx, mode, checkBalance) {
    const from = ctx.pos(0);
    const to = ctx.pos(1);
    expectAddress(from, "FA", "from");
    const toIsEc = mode === "buy-ec" || (mode === "auto" && (to.startsWith("EC") || to.startsWith("Es")));
    const toKey = expectAddress(to, toIsEc ? "EC" : "FA", "to");
    const amountText = ctx.pos(2);
    const pair = walletKey(ctx, from, "from");
    let rate;
    const rateText = ctx.args.values.get("rate");
    if (rateText !== undefined && !checkBalance) {
        if (!/^\d+$/.test(rateText) || BigInt(rateText) === 0n)
            throw new UsageError(`-rate: expected a positive whole number of base units per EC, got ${JSON.stringify(rateText)}`);
        rate = BigInt(rateText);
    }
    else {
        rate = BigInt((await ctx.client().entryCreditRate()).rate);
        if (rate <= 0n)
            throw new WalletError(`the node reports an entry credit rate of ${rate}; cannot compute a fee`);
    }
    const outputs = toIsEc
        ? []
        : [{ address: toKey, amount: amountOrThrow(() => parseAssetAmount(amountText, "amount")) }];
    const ecOutputs = toIsEc
        ? [{ address: toKey, amount: amountOrThrow(() => parseEcAmount(amountText, "entry credits")) * rate }]
        : [];
    const composed = composeOrThrow(() => composeTransaction({ inputSeed: pair.seed, outputs, ecOutputs, rate, milliTimestamp: Date.now() }));
    if (checkBalance) {
        const have = BigInt((await ctx.client().assetBalance({ address: from })).balance);
        if (have < composed.inputAmount)
            throw new WalletError(`insufficient balance: ${from} holds ${formatAssetAmount(have)}, this transaction needs ${formatAssetAmount(composed.inputAmount)} (${toIsEc ? `${amountText} EC at ${rate} base units each` : `amount ${amountText}`} + fee ${formatAssetAmount(composed.fee)})`);
    }
    return composed;
}
async function pay(ctx, mode) {
    const composed = await buildPayment(ctx, mode, true);
    const result = await submit("transaction", () => ctx.client().assetSubmit({ transaction: composed.request.params.transaction }));
    if (result.txid !== composed.txId)
        ctx.warn(`note: the node reports txid ${result.txid}, the wallet computed ${composed.txId}`);
    ctx.out(ctx.quiet ? composed.txId : `TxID: ${composed.txId}`);
    if (!ctx.quiet)
        ctx.out(`Fee: ${formatAssetAmount(composed.fee)} (${composed.feeEC} EC)`);
    await waitForTransaction(ctx, composed.txId);
}
async function composeTx(ctx) {
    const composed = await buildPayment(ctx, "auto", false);
    ctx.out(json(composed.request));
}
function composeFor(ctx, kind) {
    const { extIds, content } = entryData(ctx);
    const ec = ctx.pos(0);
    expectAddress(ec, "EC", "EC address");
    const pair = walletKey(ctx, ec, "EC address");
    const milliTime = Date.now();
    if (kind === "chain") {
        if (ctx.args.values.has("chain"))
            throw new UsageError("--chain is for entries; a new chain's ID is derived from its ext IDs");
        return composeOrThrow(() => composeChain({ extIds, content, ecSeed: pair.seed, milliTime }));
    }
    const chainText = ctx.args.values.get("chain");
    if (chainText === undefined)
        throw new UsageError("--chain <chain ID> is required");
    const chainId = fromHex(expectHash(chainText, "--chain"), "--chain", 32);
    return composeOrThrow(() => composeEntry({ chainId, extIds, content, ecSeed: pair.seed, milliTime }));
}
async function composeEntryCommand(ctx, kind) {
    const c = composeFor(ctx, kind);
    ctx.out(json({ commit: c.commit, reveal: c.reveal }));
}
async function addEntry(ctx, kind) {
    const c = composeFor(ctx, kind);
    const client = ctx.client();
    const ec = ctx.pos(0);
    // The chain must not exist (add-chain) / must exist (add-entry): checked before paying.
    let exists = true;
    try {
        await client.chainHead({ chainid: c.chainId });
    }
    catch (e) {
        if (!(e instanceof RpcError && e.code === RpcErrorCode.MissingChainHead))
            throw e;
        exists = false;
    }
    if (kind === "chain" && exists)
        throw new WalletError(`chain ${c.chainId} already exists`, `add entries to it: ledgerd-wallet add-entry --chain ${c.chainId} … ${ec}`);
    if (kind === "entry" && !exists)
        throw new WalletError(`chain ${c.chainId} does not exist`, "create it first with ledgerd-wallet add-chain");
    // A commit for this very entry may already be paid (an earlier run stopped before its reveal): then the
    // node will answer Repeated Commit and only the reveal is needed, so the balance does not matter.
    const earlier = await client.ack({ hash: c.entryHash, chainid: c.chainId });
    const paid = "commitdata" in earlier && PAID.has(earlier.commitdata.status);
    const have = BigInt((await client.entryCreditBalance({ address: ec })).balance);
    if (!paid && have < BigInt(c.credits))
        throw new WalletError(`insufficient entry credits: ${ec} holds ${have} EC, this ${kind} costs ${c.credits} EC`, `buy more: ledgerd-wallet buy-ec <FA…> ${ec} ${BigInt(c.credits) - have}`);
    try {
        if (kind === "chain")
            await client.commitChain(c.commit.params);
        else
            await client.commitEntry(c.commit.params);
    }
    catch (e) {
        // Spec §3 rule 3: a commit already paid with equal or more credits → go straight to the reveal.
        if (!(e instanceof RpcError && e.code === RpcErrorCode.RepeatedCommit))
            throw rejection(`${kind} commit`, e);
        ctx.warn(`note: this ${kind} is already paid for (repeated commit); sending the reveal only`);
    }
    await submit(`${kind} reveal`, () => kind === "chain" ? client.revealChain(c.reveal.params) : client.revealEntry(c.reveal.params));
    if (ctx.quiet)
        ctx.out(kind === "chain" ? c.chainId : c.entryHash);
    else {
        ctx.out(`CommitTxID: ${c.commitTxId}`);
        ctx.out(`ChainID: ${c.chainId}`);
        ctx.out(`EntryHash: ${c.entryHash}`);
    }
    await waitForEntry(ctx, c);
}
function notFound(e, code, message, hint) {
    if (e instanceof RpcError && e.code === code)
        throw new WalletError(message, hint);
    throw e;
}
async function getEntry(ctx) {
    const hash = expectHash(ctx.pos(0), "entry hash");
    const e = await ctx
        .client()
        .entry({ hash })
        .catch((err) => notFound(err, RpcErrorCode.NotFound, `entry ${hash} not found on the node`));
    if (ctx.args.flags.has("json"))
        ctx.out(json({ entryhash: hash, ...e }));
    else
        printEntry(ctx, hash, e);
}
async function chainHead(ctx) {
    const chainid = expectHash(ctx.pos(0), "chain ID");
    const r = await ctx
        .client()
        .chainHead({ chainid })
        .catch((err) => notFound(err, RpcErrorCode.MissingChainHead, `chain ${chainid} not found on the node`));
    if (ctx.args.flags.has("json"))
        ctx.out(json(r));
    else if (ctx.quiet)
        ctx.out(r.chainhead);
    else {
        ctx.out(`ChainHead: ${r.chainhead}`);
        ctx.out(`ChainInProcessList: ${r.chaininprocesslist}`);
        if (r.chainhead === "")
            ctx.warn("the chain is not yet included in a directory block");
    }
}
const ZERO_KEYMR = "0".repeat(64);
async function entries(ctx) {
    const chainid = expectHash(ctx.pos(0), "chain ID");
    const client = ctx.client();
    const head = await client
        .chainHead({ chainid })
        .catch((err) => notFound(err, RpcErrorCode.MissingChainHead, `chain ${chainid} not found on the node`));
    if (head.chainhead === "")
        ctx.warn("the chain is not yet included in a directory block; its entries appear once it is");
    else if (head.chaininprocesslist)
        ctx.warn("note: newer entries of this chain are not yet in a directory block");
    // Walk from the head back to the first entry block, then print oldest first.
    const blocks = [];
    const seen = new Set();
    for (let keymr = head.chainhead; keymr !== "" && keymr !== ZERO_KEYMR;) {
        if (seen.has(keymr))
            throw new WalletError(`entry block ${keymr} appears twice while walking chain ${chainid}; the node's chain is inconsistent`);
        seen.add(keymr);
        const block = await client.entryBlock({ keymr });
        blocks.push((block.entrylist ?? []).map((e) => e.entryhash));
        keymr = block.header.prevkeymr;
    }
    const hashes = blocks.reverse().flat();
    const all = [];
    for (const hash of hashes)
        all.push({ entryhash: hash, ...(await client.entry({ hash })) });
    if (ctx.args.flags.has("json")) {
        ctx.out(json(all));
        return;
    }
    all.forEach((e, i) => {
        if (i > 0)
            ctx.out("");
        ctx.out(`Entry [${i + 1}/${all.length}]`);
        printEntry(ctx, e.entryhash, e);
    });
}
/** Receipt JSON → protocol Receipt (bytes); WalletError naming the malformed field. */
function receiptBytes(r) {
    const h = (text, field) => {
        try {
            return fromHex(String(text), `receipt.${field}`, 32);
        }
        catch (e) {
            if (e instanceof ProtocolError)
                throw new WalletError(`the node's receipt is malformed: ${e.message}`);
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
async function receipt(ctx) {
    const hash = expectHash(ctx.pos(0), "entry hash");
    const client = ctx.client();
    const { receipt: r } = await client
        .receipt({ hash })
        .catch((err) => notFound(err, RpcErrorCode.ReceiptCreation, `no receipt for entry ${hash} yet: it is not in a saved directory block (or unknown)`, "wait for DBlockConfirmed (add-entry --wait-confirmed) and try again"));
    if (!ctx.args.flags.has("verify")) {
        ctx.out(json(r));
        return;
    }
    const receiptIn = receiptBytes(r);
    if (r.entry.entryhash.toLowerCase() !== hash)
        throw new WalletError(`receipt does NOT verify: it is for entry ${r.entry.entryhash}, not ${hash}`);
    if (!verifyReceipt(receiptIn))
        throw new WalletError(`receipt does NOT verify: its Merkle branch does not lead from entry ${hash} through entry block ${r.entryblockkeymr} to directory block ${r.directoryblockkeymr}`);
    const height = receiptIn.directoryBlockHeight;
    const dblock = await client.dblockByHeight({ height });
    if (dblock.dblock.keymr !== r.directoryblockkeymr)
        throw new WalletError(`receipt does NOT verify: the node's directory block at height ${height} is ${dblock.dblock.keymr}, the receipt names ${r.directoryblockkeymr}`);
    const anchorRpc = ctx.args.values.get("anchor-rpc");
    const anchorLines = anchorRpc === undefined ? [] : await verifyAnchor(r, receiptIn.directoryBlockKeyMR, height, anchorRpc);
    if (ctx.args.flags.has("json"))
        ctx.out(json(r));
    ctx.out(`Receipt verified: entry ${hash}`);
    ctx.out(`  is in entry block ${r.entryblockkeymr}`);
    ctx.out(`  which is in directory block ${r.directoryblockkeymr} (height ${height}, the node's block at that height)`);
    for (const line of anchorLines)
        ctx.out(line);
}
/**
 * The anchored part of a receipt, checked against the external chain itself: the directory block's keyMR
 * leads to the window's Merkle root, and the transaction the receipt names sits in the block it names (the
 * chain's block at that height) and carries setAnchor(DBHeightMax, that root). Returns the lines to print.
 */
async function verifyAnchor(r, keyMR, height, rpcUrl) {
    if (!/^https?:\/\/\S+$/i.test(rpcUrl))
        throw new UsageError("--anchor-rpc: expected an http:// or https:// URL");
    let anchor;
    try {
        anchor = receiptAnchorFromJson(r);
    }
    catch (e) {
        if (e instanceof ProtocolError)
            throw new WalletError(`the node's receipt is malformed: ${e.message}`);
        throw e;
    }
    if (anchor === undefined || !r.anchortransactionhash)
        throw new WalletError(`receipt is not anchored yet: no anchor record covers directory block ${height} (anchortransactionhash is empty); try again after the next anchor`);
    const rec = anchor.record;
    const window = `${rec.dbHeightMin}..${rec.dbHeightMax}`;
    if (height < rec.dbHeightMin || height > rec.dbHeightMax)
        throw new WalletError(`anchor does NOT verify: its window ${window} does not hold directory block ${height}`);
    if (!verifyWindowBranch(keyMR, anchor.windowBranch, rec.windowMR))
        throw new WalletError(`anchor does NOT verify: the branch does not lead from directory block ${toHex(keyMR)} to the window's Merkle root ${toHex(rec.windowMR)}`);
    const eth = rec.ethereum;
    let found;
    try {
        found = await new EthereumReader({ rpcUrl }).anchoredInBlock(eth.txId, eth.blockHash, eth.txIndex);
    }
    catch (e) {
        const text = e instanceof Error ? (e.shortMessage ?? e.message) : String(e);
        if (isTransportError(e))
            throw new WalletError(`the Ethereum RPC ${rpcUrl} does not answer: ${text.split("\n")[0]}`);
        throw new WalletError(`anchor does NOT verify: ${text.split("\n")[0]}`);
    }
    if (found.dbHeightMax !== rec.dbHeightMax || toHex(found.windowMR) !== toHex(rec.windowMR))
        throw new WalletError(`anchor does NOT verify: transaction ${eth.txId} anchors height ${found.dbHeightMax} root ${toHex(found.windowMR)}, the receipt says height ${rec.dbHeightMax} root ${toHex(rec.windowMR)}`);
    if (found.blockHeight !== eth.blockHeight)
        throw new WalletError(`anchor does NOT verify: block ${eth.blockHash} is at height ${found.blockHeight}, not ${eth.blockHeight}`);
    return [
        `  whose keyMR is in the Merkle root ${toHex(rec.windowMR)} of directory blocks ${window}`,
        `  which Ethereum transaction ${eth.txId} carries (setAnchor(${rec.dbHeightMax}, root), to ${found.to})`,
        `  in block ${eth.blockHash} (height ${found.blockHeight}, index ${eth.txIndex}, ${found.confirmations} confirmations at ${rpcUrl})`,
    ];
}
async function watchCommand(ctx) {
    const chain = ctx.args.values.get("chain");
    const count = ctx.args.values.get("count");
    const from = ctx.args.values.get("from");
    const number = (text, field) => {
        if (text === undefined)
            return undefined;
        if (!/^\d+$/.test(text))
            throw new UsageError(`-${field}: expected a whole number, got ${JSON.stringify(text)}`, "watch");
        return Number(text);
    };
    const addresses = ctx.args.repeated.filter((r) => r.name === "address").map((r) => r.value);
    addresses.forEach((a, i) => {
        expectAddress(a, a.startsWith("EC") ? "EC" : "FA", `address ${i + 1}`);
    });
    const subscription = {
        ...(chain !== undefined ? { chains: [expectHash(chain, "chain ID")] } : {}),
        addresses,
        hashes: ctx.args.repeated.filter((r) => r.name === "hash").map((r) => expectHash(r.value, "hash")),
        minutes: ctx.args.flags.has("minutes"),
        health: ctx.args.flags.has("health"),
        content: ctx.args.flags.has("with-content"),
        ...(from !== undefined ? { fromHeight: number(from, "from") } : {}),
    };
    await watch({
        url: ctx.nodeUrl,
        user: ctx.args.values.get("rpcuser") ?? ctx.io.env.LEDGERD_RPCUSER,
        password: ctx.args.values.get("rpcpass") ?? ctx.io.env.LEDGERD_RPCPASS,
        caFile: ctx.args.values.get("cafile") ?? ctx.io.env.LEDGERD_CAFILE,
        subscription,
        json: ctx.args.flags.has("json"),
        count: number(count, "count"),
        out: (l) => ctx.out(l),
        warn: (l) => ctx.warn(l),
    });
}
// ───────────────────────────── table, usage, main ─────────────────────────────
const ENTRY_OPTS = "[--ext TEXT]... [--ext-hex HEX]... [--content TEXT | --content-hex HEX | --content-file FILE]";
const WAIT_OPTS = "[--wait-confirmed | --no-wait] [-timeout=SECONDS] [-q]";
const ENTRY = ["ext", "ext-hex", "content", "content-hex", "content-file"];
const WAIT = ["wait-confirmed", "no-wait", "timeout", "q", "quiet"];
/** Options every command accepts. */
const GLOBAL_OPTS = new Set(["node", "rpcuser", "rpcpass", "cafile", "wallet", "help", "h"]);
export const COMMANDS = {
    "new-fa": {
        usage: "new-fa",
        summary: "create an asset key pair; prints its FA… address",
        args: [0, 0],
        opts: [],
        run: (c) => newKey(c, "FA"),
    },
    "new-ec": {
        usage: "new-ec",
        summary: "create an entry credit key pair; prints its EC… address",
        args: [0, 0],
        opts: [],
        run: (c) => newKey(c, "EC"),
    },
    import: {
        usage: "import <Fs…|Es…>...",
        summary: "add private keys; prints their public addresses",
        args: [1, 1000],
        opts: [],
        run: importKeys,
    },
    list: { usage: "list [--json]", summary: "public addresses in the wallet", args: [0, 0], opts: ["json"], run: list },
    balance: {
        usage: "balance <FA…|EC…>...",
        summary: "balance: asset units for FA…, entry credits for EC…",
        args: [1, 1000],
        opts: [],
        run: balance,
    },
    "buy-ec": {
        usage: `buy-ec <fromFA> <toEC> <entry credits> ${WAIT_OPTS}`,
        summary: "convert assets into entry credits at the node's current rate",
        args: [3, 3],
        opts: WAIT,
        run: (c) => pay(c, "buy-ec"),
    },
    send: {
        usage: `send <fromFA> <toFA> <amount in asset units, e.g. 1.5> ${WAIT_OPTS}`,
        summary: "send assets",
        args: [3, 3],
        opts: WAIT,
        run: (c) => pay(c, "send"),
    },
    "compose-chain": {
        usage: `compose-chain ${ENTRY_OPTS} <EC…>`,
        summary: "print the commit-chain and reveal-chain requests, without sending",
        args: [1, 1],
        opts: ENTRY,
        run: (c) => composeEntryCommand(c, "chain"),
    },
    "compose-entry": {
        usage: `compose-entry --chain <chain ID> ${ENTRY_OPTS} <EC…>`,
        summary: "print the commit-entry and reveal-entry requests, without sending",
        args: [1, 1],
        opts: ["chain", ...ENTRY],
        run: (c) => composeEntryCommand(c, "entry"),
    },
    "compose-transaction": {
        usage: "compose-transaction <fromFA> <toFA|toEC> <amount | entry credits> [-rate=BASE_UNITS_PER_EC]",
        summary: "print the asset-submit request of a payment (to EC…: amount in entry credits), without sending",
        args: [3, 3],
        opts: ["rate"],
        run: composeTx,
    },
    "add-chain": {
        usage: `add-chain ${ENTRY_OPTS} ${WAIT_OPTS} <EC…>`,
        summary: "create a chain with its first entry, paid by the EC key",
        args: [1, 1],
        opts: [...ENTRY, ...WAIT],
        run: (c) => addEntry(c, "chain"),
    },
    "add-entry": {
        usage: `add-entry --chain <chain ID> ${ENTRY_OPTS} ${WAIT_OPTS} <EC…>`,
        summary: "add an entry to a chain, paid by the EC key",
        args: [1, 1],
        opts: ["chain", ...ENTRY, ...WAIT],
        run: (c) => addEntry(c, "entry"),
    },
    entry: {
        usage: "entry <entry hash> [--json]",
        summary: "show an entry",
        args: [1, 1],
        opts: ["json"],
        run: getEntry,
    },
    "chain-head": {
        usage: "chain-head <chain ID> [--json] [-q]",
        summary: "keymr of the chain's newest entry block",
        args: [1, 1],
        opts: ["json", "q", "quiet"],
        run: chainHead,
    },
    entries: {
        usage: "entries <chain ID> [--json]",
        summary: "all entries of a chain, oldest first",
        args: [1, 1],
        opts: ["json"],
        run: entries,
    },
    receipt: {
        usage: "receipt <entry hash> [--verify [--anchor-rpc URL]] [--json]",
        summary: "the entry's Merkle receipt; --verify checks it locally, --anchor-rpc also its anchor in Ethereum",
        args: [1, 1],
        opts: ["verify", "json", "anchor-rpc"],
        run: receipt,
    },
    watch: {
        usage: "watch [--chain <chain ID>] [--address <FA…|EC…>]... [--hash <entry hash|txid>]... [--minutes] [--health] [--with-content] [-from=HEIGHT] [-count=N] [--json]",
        summary: "follow the node's live events (blocks, and what is subscribed), reconnecting by itself",
        args: [0, 0],
        opts: ["chain", "address", "hash", "minutes", "health", "with-content", "from", "count", "json"],
        run: watchCommand,
    },
};
const GLOBAL_USAGE = `usage: ledgerd-wallet [options] <command> [arguments]

commands:
${Object.values(COMMANDS)
    .map((c) => `  ${c.usage.split(" ")[0].padEnd(21)}${c.summary}`)
    .join("\n")}

options (anywhere on the line; -name=value, --name value):
  -node=URL          node to talk to (default ${DEFAULT_NODE_URL}; env LEDGERD_NODE)
  -rpcuser=USER      HTTP Basic user (env LEDGERD_RPCUSER)
  -rpcpass=PASS      HTTP Basic password (env LEDGERD_RPCPASS)
  -cafile=FILE       certificate to trust for an https node (env LEDGERD_CAFILE)
  -wallet=FILE       wallet file (default ~/.ledgerd/wallet.json; env LEDGERD_WALLET)
  -h, --help         this text; "ledgerd-wallet help <command>" for one command

exit codes: 0 ok, 1 usage error, 2 the request failed (node or user error)`;
/** Help text of one command or of all. */
export function usage(command) {
    const c = command === undefined ? undefined : COMMANDS[command];
    return c === undefined ? GLOBAL_USAGE : `usage: ledgerd-wallet ${c.usage}\n  ${c.summary}`;
}
/** Run the wallet with `argv` (arguments after the script). Returns the exit code. */
export async function main(argv, io) {
    let ctx;
    try {
        const args = parseArgs(argv);
        if (args.command === undefined || args.command === "help" || args.flags.has("help") || args.flags.has("h")) {
            const topic = args.command === "help" ? args.positionals[0] : args.command;
            if (args.command === undefined && !args.flags.has("help") && !args.flags.has("h")) {
                io.stderr.write(`${usage()}\n`);
                return EXIT.USAGE;
            }
            io.stdout.write(`${usage(topic)}\n`);
            return EXIT.OK;
        }
        const command = COMMANDS[args.command];
        if (command === undefined)
            throw new UsageError(`unknown command ${JSON.stringify(args.command)}`);
        const n = args.positionals.length;
        if (n < command.args[0] || n > command.args[1])
            throw new UsageError(`${args.command} takes ${command.args[0] === command.args[1] ? command.args[0] : `${command.args[0]} or more`} argument(s), got ${n}`, args.command);
        const used = [...args.values.keys(), ...args.flags, ...args.repeated.map((r) => r.name)];
        const stray = used.find((o) => !GLOBAL_OPTS.has(o) && !command.opts.includes(o));
        if (stray !== undefined)
            throw new UsageError(`${args.command} does not take -${stray}`, args.command);
        ctx = new Context(args, io);
        await command.run(ctx);
        return EXIT.OK;
    }
    catch (e) {
        return report(e, io, ctx);
    }
    finally {
        ctx?.close();
    }
}
function report(e, io, ctx) {
    const err = (line) => io.stderr.write(`${line}\n`);
    if (e instanceof UsageError) {
        err(`error: ${e.message}`);
        const command = e.command ?? ctx?.args.command;
        err(command !== undefined && COMMANDS[command] !== undefined
            ? usage(command)
            : 'run "ledgerd-wallet --help" for the commands and options');
        return EXIT.USAGE;
    }
    if (e instanceof WalletError) {
        err(`error: ${e.message}`);
        if (e.hint !== undefined)
            err(`  ${e.hint}`);
        return EXIT.FAILED;
    }
    if (e instanceof AuthError) {
        err(`error: ${e.message}`);
        err(e.sentCredentials
            ? "  check -rpcuser and -rpcpass (or LEDGERD_RPCUSER / LEDGERD_RPCPASS)"
            : "  pass -rpcuser=USER -rpcpass=PASS (or set LEDGERD_RPCUSER / LEDGERD_RPCPASS)");
        return EXIT.FAILED;
    }
    if (e instanceof UnreachableError) {
        err(`error: ${e.message}`);
        err(e.reason === "tls"
            ? "  pass the node's certificate with -cafile=FILE"
            : "  start the node, or point the wallet at it with -node=URL (or LEDGERD_NODE)");
        return EXIT.FAILED;
    }
    if (e instanceof RpcError) {
        err(`error: the node refused ${e.method}: ${describeRpc(e)}`);
        return EXIT.FAILED;
    }
    if (e instanceof HttpError || e instanceof ClientError || e instanceof ClientConfigError) {
        err(`error: ${e.message}`);
        return EXIT.FAILED;
    }
    err(`error: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.FAILED;
}
//# sourceMappingURL=commands.js.map