/**
 * The wallet service's methods (the contract of src/client/walletMethods.ts): addresses, backup and lock, state,
 * transactions under construction, signing, composing and history. Keys are read from the shared wallet file on
 * every call (walletAccess.ts); the node is asked for balances, the rate, chain heads and blocks.
 */
import { ClientError, RpcError } from "../../src/client/errors.js";
import type { NodeClient } from "../../src/client/nodeClient.js";
import type { WalletAddress, WalletMethods, WalletTransaction } from "../../src/client/walletMethods.js";
import { signEd25519 } from "../../src/crypto/ed25519.js";
import { type KeyPair, keyPairFromPrivate } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { ProtocolError } from "../../src/protocol/errors.js";
import { formatAssetAmount } from "../wallet/amount.js";
import { type ComposedEntry, composeChain, composeEntry } from "../wallet/compose.js";
import { WalletError } from "../wallet/errors.js";
import { normalizeMnemonic } from "../wallet/seed.js";
import {
  addKey,
  deriveNextKey,
  restoreSeed,
  type WalletExtras,
  type WalletFile,
  type WalletKey,
} from "../wallet/walletFile.js";
import { invalidParams, WalletdCode, WalletdError } from "./errors.js";
import { History, historyTxJson, involves } from "./history.js";
import {
  expectAddress,
  parseAmount,
  setIo,
  signTmp,
  type TmpTransaction,
  TmpTransactions,
  tmpFeeEC,
  tmpTxId,
  tmpTxJson,
  total,
} from "./tmpTransactions.js";
import { type WalletAccess, walletFileError } from "./walletAccess.js";

/** Software version of the wallet service (`properties`). */
export const WALLETD_VERSION = "0.1.0";
/** API version (`properties`): the reference wallet daemon's /v2 API. */
export const WALLETD_API_VERSION = "2.0";
/** Fee-overpay bound of sign-transaction (the reference's checkFee: refused at 10× the required fee or more). */
const OVERPAY_FACTOR = 10n;
/** Extra credits a chain commit pays beyond its first entry (spec: a new chain costs 10 EC more). */
const CHAIN_EXTRA_EC = 10;
/** Methods a locked wallet still answers (the reference's list). */
export const LOCKED_METHODS: ReadonlySet<string> = new Set([
  "get-height",
  "properties",
  "transactions",
  "unlock-wallet",
]);

type Handler = (params: unknown) => unknown;
export type WalletHandlers = Record<keyof WalletMethods, Handler>;

/** The params object of a call (absent params → {}), or -32602. */
function obj(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== "object" || Array.isArray(params)) throw invalidParams("params: expected an object");
  return params as Record<string, unknown>;
}

function str(p: Record<string, unknown>, field: string): string {
  const v = p[field];
  if (typeof v !== "string" || v === "") throw invalidParams(`${field}: expected a non-empty string`);
  return v;
}

function addressJson(pair: KeyPair): WalletAddress {
  return { public: pair.publicAddress, secret: pair.privateAddress };
}

/** A node failure as a JSON-RPC error naming the node's method and answer. */
function nodeError(e: unknown): never {
  if (e instanceof RpcError)
    throw new WalletdError(
      WalletdCode.Internal,
      `the node refused ${e.method}: ${e.rpcMessage} (code ${e.code})${e.data === undefined ? "" : `: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}`}`,
    );
  if (e instanceof ClientError)
    throw new WalletdError(WalletdCode.Internal, `the node could not be asked: ${e.message}`);
  throw e;
}

async function fromNode<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    return nodeError(e);
  }
}

/** Hex bytes of an entry field, or -32602 naming it. */
function hexList(value: unknown, field: string): Uint8Array[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParams(`${field}: expected an array of hex strings`);
  return value.map((v, i) => hexBytes(v, `${field}[${i}]`));
}
function hexBytes(value: unknown, field: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array(0);
  if (typeof value !== "string") throw invalidParams(`${field}: expected a hex string`);
  try {
    return fromHex(value, field);
  } catch (e) {
    if (e instanceof ProtocolError) throw invalidParams(`${field}: ${e.detail}`);
    throw e;
  }
}

export class WalletService {
  private readonly tmp = new TmpTransactions();
  private readonly history: History;
  /** ids of the requests compose-* return (the reference's APICounter) */
  private requestId = 0;

  constructor(private readonly deps: { access: WalletAccess; node: NodeClient; now?: () => number }) {
    this.history = new History({ node: deps.node });
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private wallet(): WalletFile {
    return this.deps.access.load();
  }

  private update<T>(change: (keys: WalletKey[], extras: WalletExtras) => T): T {
    const w = this.wallet();
    try {
      return w.update(change);
    } catch (e) {
      if (e instanceof WalletdError) throw e;
      return walletFileError(e);
    }
  }

  /** The key pair of an address held in the wallet, or -32602 saying it is not there. */
  private key(address: unknown, field: string, kind?: "FA" | "EC"): KeyPair {
    if (typeof address !== "string" || address === "") throw invalidParams(`${field}: expected an address string`);
    if (kind !== undefined) expectAddress(address, kind, field);
    else if (!/^(FA|EC)/.test(address)) throw invalidParams(`${field}: ${address} is not an FA… or EC… address`);
    const pair = this.wallet().keyPair(address);
    if (pair === undefined) throw invalidParams(`${field}: ${address} is not in the wallet`);
    return pair;
  }

  private async rate(): Promise<bigint> {
    const rate = BigInt((await fromNode(() => this.deps.node.entryCreditRate())).rate);
    if (rate <= 0n) throw new WalletdError(WalletdCode.Internal, `the node reports an entry credit rate of ${rate}`);
    return rate;
  }

  private nextId(): number {
    this.requestId += 1;
    return this.requestId;
  }

  private async tmpView(tx: TmpTransaction): Promise<WalletTransaction> {
    return tmpTxJson(tx, await this.rate());
  }

  // ───────────── handlers ─────────────

  readonly handlers: WalletHandlers = {
    address: (params) => {
      const p = obj(params);
      return addressJson(this.key(p.address, "address"));
    },
    "all-addresses": () => ({ addresses: this.allAddresses() }),
    "generate-ec-address": () => addressJson(this.update((keys, extras) => deriveNextKey(keys, extras, "EC"))),
    "generate-asset-address": () => addressJson(this.update((keys, extras) => deriveNextKey(keys, extras, "FA"))),
    "import-addresses": (params) => {
      const list = obj(params).addresses;
      if (!Array.isArray(list) || list.length === 0)
        throw invalidParams('addresses: expected a non-empty array of {"secret": "Fs…|Es…"}');
      const pairs = list.map((a, i) => {
        const secret = typeof a === "object" && a !== null ? (a as { secret?: unknown }).secret : undefined;
        if (typeof secret !== "string")
          throw invalidParams(`addresses[${i}].secret: expected an Fs… or Es… private key`);
        try {
          return keyPairFromPrivate(secret);
        } catch (e) {
          if (e instanceof ProtocolError)
            throw invalidParams(`addresses[${i}].secret: not a valid Fs… or Es… private key (${e.detail})`);
          throw e;
        }
      });
      this.update((keys) => {
        for (const p of pairs) addKey(keys, p);
      });
      return { addresses: pairs.map(addressJson) };
    },
    "remove-address": (params) => {
      const address = obj(params).address;
      this.key(address, "address");
      this.update((keys) => {
        keys.splice(
          keys.findIndex((k) => k.public === address),
          1,
        );
      });
      return { success: true as const };
    },
    "import-mnemonic": (params) => {
      const words = obj(params).words;
      if (typeof words !== "string") throw invalidParams("words: expected the 12-word mnemonic as one string");
      let normalized: string;
      try {
        normalized = normalizeMnemonic(words);
      } catch (e) {
        if (e instanceof WalletError) throw invalidParams(`words: ${e.message}`);
        throw e;
      }
      const current = this.wallet().seed();
      if (current !== undefined && current.mnemonic !== normalized && (current.nextFA > 0 || current.nextEC > 0))
        throw invalidParams(
          "words: the wallet already has a different seed with keys derived from it; start the service on a new wallet file (-wallet=FILE) to restore",
        );
      this.update((_keys, extras) => restoreSeed(extras, normalized));
      return { success: true as const };
    },
    "wallet-backup": () => {
      const w = this.wallet();
      return { "wallet-seed": w.seed()?.mnemonic ?? "", addresses: this.allAddresses(w) };
    },
    "unlock-wallet": (params) => {
      const p = obj(params);
      const until = this.deps.access.unlock(p.passphrase, p.timeout);
      return { success: true as const, unlockeduntil: Math.floor(until / 1000) };
    },
    "get-height": async () => {
      await fromNode(() => this.history.sync());
      return { height: this.history.height };
    },
    properties: () => ({ walletversion: WALLETD_VERSION, walletapiversion: WALLETD_API_VERSION }),
    "wallet-balances": async () => {
      const keys = this.wallet().list();
      const sum = async (kind: "FA" | "EC") => {
        const addresses = keys.filter((k) => k.kind === kind).map((k) => k.public);
        if (addresses.length === 0) return { ack: 0, saved: 0 };
        const r = await fromNode(() =>
          kind === "FA"
            ? this.deps.node.multipleAssetBalances({ addresses })
            : this.deps.node.multipleEcBalances({ addresses }),
        );
        const bad = r.balances.findIndex((b) => b.err !== "");
        if (bad !== -1)
          throw new WalletdError(
            WalletdCode.Internal,
            `the node could not give the balance of ${addresses[bad]}: ${r.balances[bad]!.err}`,
          );
        return {
          ack: r.balances.reduce((s, b) => s + Number(b.ack), 0),
          saved: r.balances.reduce((s, b) => s + Number(b.saved), 0),
        };
      };
      return { assetaccountbalances: await sum("FA"), ecaccountbalances: await sum("EC") };
    },
    "new-transaction": async (params) => this.tmpView(this.tmp.create(obj(params)["tx-name"], this.now())),
    "delete-transaction": (params) => {
      const name = obj(params)["tx-name"];
      this.tmp.delete(name);
      return { name: name as string };
    },
    "tmp-transactions": async () => {
      const rate = await this.rate();
      return { transactions: this.tmp.all().map((tx) => tmpTxJson(tx, rate)) };
    },
    "transaction-hash": (params) => {
      const tx = this.tmp.get(obj(params)["tx-name"]);
      return { name: tx.name, txid: tmpTxId(tx) };
    },
    "add-input": async (params) => {
      const p = obj(params);
      const tx = this.tmp.get(p["tx-name"]);
      const pair = this.key(p.address, "address", "FA");
      const key = expectAddress(pair.publicAddress, "FA");
      setIo(tx, "inputs", { address: pair.publicAddress, key, amount: parseAmount(p.amount) });
      return this.tmpView(tx);
    },
    "add-output": async (params) => {
      const p = obj(params);
      const tx = this.tmp.get(p["tx-name"]);
      const key = expectAddress(p.address, "FA");
      setIo(tx, "outputs", { address: p.address as string, key, amount: parseAmount(p.amount) });
      return this.tmpView(tx);
    },
    "add-ec-output": async (params) => {
      const p = obj(params);
      const tx = this.tmp.get(p["tx-name"]);
      const key = expectAddress(p.address, "EC");
      setIo(tx, "ecOutputs", { address: p.address as string, key, amount: parseAmount(p.amount) });
      return this.tmpView(tx);
    },
    "add-fee": async (params) => {
      const p = obj(params);
      const tx = this.tmp.get(p["tx-name"]);
      const address = str(p, "address");
      const input = tx.inputs.find((i) => i.address === address);
      this.balanced(tx, "add-fee");
      if (input === undefined) throw invalidParams(`address: ${address} is not an input of transaction ${tx.name}`);
      const rate = await this.rate();
      // the fee is part of the input, whose amount's varint may grow by a byte: settle the fixpoint
      const base = input.amount;
      for (let round = 0; round < 4; round++) {
        const fee = BigInt(tmpFeeEC(tx)) * rate;
        if (input.amount === base + fee) break;
        input.amount = base + fee;
      }
      tx.signed = undefined;
      return tmpTxJson(tx, rate);
    },
    "sub-fee": async (params) => {
      const p = obj(params);
      const tx = this.tmp.get(p["tx-name"]);
      const address = str(p, "address");
      const output = tx.outputs.find((o) => o.address === address);
      this.balanced(tx, "sub-fee");
      if (output === undefined) throw invalidParams(`address: ${address} is not an output of transaction ${tx.name}`);
      const rate = await this.rate();
      const fee = BigInt(tmpFeeEC(tx)) * rate;
      if (output.amount < fee)
        throw invalidParams(
          `address: the output to ${address} is ${output.amount} base units, less than the fee of ${fee} base units`,
        );
      output.amount -= fee;
      tx.signed = undefined;
      return tmpTxJson(tx, rate);
    },
    "sign-transaction": async (params) => {
      const p = obj(params);
      const tx = this.tmp.get(p["tx-name"]);
      if (tx.inputs.length === 0) throw invalidParams(`tx-name: transaction ${tx.name} has no inputs`);
      const rate = await this.rate();
      if (p.force !== true) {
        await this.checkCovered(tx);
        this.checkFee(tx, rate);
      }
      const wallet = this.wallet();
      const seeds = tx.inputs.map((i, n) => {
        const pair = wallet.keyPair(i.address);
        if (pair === undefined) throw invalidParams(`inputs[${n}]: ${i.address} is no longer in the wallet`);
        return pair.seed;
      });
      signTmp(tx, seeds);
      return tmpTxJson(tx, rate);
    },
    "sign-data": (params) => {
      const p = obj(params);
      const pair = this.key(p.signer, "signer");
      if (typeof p.data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(p.data))
        throw invalidParams("data: expected the bytes to sign in base64");
      const data = Buffer.from(p.data, "base64");
      const signature = signEd25519(pair.seed, data);
      return {
        pubkey: Buffer.from(pair.publicKey).toString("base64"),
        signature: Buffer.from(signature).toString("base64"),
      };
    },
    "compose-transaction": (params) => {
      const tx = this.tmp.get(obj(params)["tx-name"]);
      if (tx.signed === undefined)
        throw invalidParams(
          `tx-name: transaction ${tx.name} is not signed (or changed since): call sign-transaction first`,
        );
      return {
        jsonrpc: "2.0" as const,
        id: this.nextId(),
        params: { transaction: toHex(tx.signed.raw) },
        method: "asset-submit",
      };
    },
    "compose-chain": async (params) => {
      const p = obj(params);
      const chain = p.chain;
      const first =
        typeof chain === "object" && chain !== null ? (chain as { firstentry?: unknown }).firstentry : undefined;
      if (typeof first !== "object" || first === null)
        throw invalidParams('chain: expected {"firstentry": {"extids": [hex…], "content": hex}}');
      const e = first as Record<string, unknown>;
      const extIds = hexList(e.extids, "chain.firstentry.extids");
      const content = hexBytes(e.content, "chain.firstentry.content");
      const pair = this.key(p.ecpub, "ecpub", "EC");
      const composed = this.entryOrThrow(() =>
        composeChain({ extIds, content, ecSeed: pair.seed, milliTime: this.now() }),
      );
      if (p.force !== true) {
        await this.checkCredits(
          pair.publicAddress,
          composed.credits,
          `the chain costs ${composed.credits} (${CHAIN_EXTRA_EC} for the chain + ${composed.credits - CHAIN_EXTRA_EC} for its first entry)`,
        );
        if (await this.chainExists(composed.chainId)) throw invalidParams(`chain ${composed.chainId} already exists`);
      }
      return this.entryResult(composed);
    },
    "compose-entry": async (params) => {
      const p = obj(params);
      const entry = p.entry;
      if (typeof entry !== "object" || entry === null)
        throw invalidParams('entry: expected {"chainid": hex, "extids": [hex…], "content": hex}');
      const e = entry as Record<string, unknown>;
      if (typeof e.chainid !== "string" || !/^[0-9a-fA-F]{64}$/.test(e.chainid))
        throw invalidParams("entry.chainid: expected the chain ID, 64 hex characters");
      const chainId = fromHex(e.chainid.toLowerCase());
      const extIds = hexList(e.extids, "entry.extids");
      const content = hexBytes(e.content, "entry.content");
      const pair = this.key(p.ecpub, "ecpub", "EC");
      const composed = this.entryOrThrow(() =>
        composeEntry({ chainId, extIds, content, ecSeed: pair.seed, milliTime: this.now() }),
      );
      if (p.force !== true) {
        await this.checkCredits(pair.publicAddress, composed.credits, `the entry costs ${composed.credits}`);
        if (!(await this.chainExists(composed.chainId)))
          throw invalidParams(`entry.chainid: chain ${composed.chainId} was not found`);
      }
      return this.entryResult(composed);
    },
    transactions: async (params) => {
      const p = obj(params);
      await fromNode(() => this.history.sync());
      const items = this.history.all();
      if (p.txid !== undefined) {
        if (typeof p.txid !== "string" || !/^[0-9a-fA-F]{64}$/.test(p.txid))
          throw invalidParams("txid: expected 64 hex characters");
        const txid = p.txid.toLowerCase();
        const found = items.filter((i) => i.tx.txid === txid);
        if (found.length === 0)
          throw invalidParams(
            `txid: no saved transaction ${txid} up to height ${this.history.height} (pending ones show once their block is saved)`,
          );
        return { transactions: found.map(historyTxJson) };
      }
      if (p.address !== undefined) {
        if (typeof p.address !== "string" || !/^(FA|EC)/.test(p.address))
          throw invalidParams("address: expected an FA… or EC… address");
        expectAddress(p.address, p.address.startsWith("FA") ? "FA" : "EC");
        const address = p.address;
        return { transactions: items.filter((i) => involves(i, address)).map(historyTxJson) };
      }
      if (p.range !== undefined) {
        const r = p.range as { start?: unknown; end?: unknown } | null;
        const start = r?.start;
        const end = r?.end;
        if (
          !Number.isInteger(start) ||
          !Number.isInteger(end) ||
          (start as number) < 0 ||
          (end as number) < (start as number)
        )
          throw invalidParams("range: expected {start, end}, whole heights with 0 ≤ start ≤ end");
        return {
          transactions: items
            .filter((i) => i.height >= (start as number) && i.height <= (end as number))
            .map(historyTxJson),
        };
      }
      // no filter: the transactions of this wallet's addresses (the reference lists every transaction it read)
      const mine = this.deps.access.locked
        ? []
        : this.wallet()
            .list()
            .map((k) => k.public);
      return { transactions: items.filter((i) => mine.some((a) => involves(i, a))).map(historyTxJson) };
    },
  };

  private allAddresses(w: WalletFile = this.wallet()): WalletAddress[] {
    return w.list().map((k) => ({ public: k.public, secret: k.secret }));
  }

  /** add-fee / sub-fee need inputs = outputs + EC outputs (the reference's "Inputs and outputs don't add up"). */
  private balanced(tx: TmpTransaction, method: string): void {
    const ins = total(tx.inputs);
    const outs = total(tx.outputs) + total(tx.ecOutputs);
    if (ins !== outs)
      throw invalidParams(
        `tx-name: ${method} needs the inputs equal to the outputs: inputs ${ins} base units, outputs + EC outputs ${outs}`,
      );
  }

  /** Every input's balance at the node covers its amount (the reference's checkCovered, amounts named). */
  private async checkCovered(tx: TmpTransaction): Promise<void> {
    for (const input of tx.inputs) {
      const have = BigInt((await fromNode(() => this.deps.node.assetBalance({ address: input.address }))).balance);
      if (have < input.amount)
        throw invalidParams(
          `insufficient funds: ${input.address} holds ${formatAssetAmount(have)} (${have} base units), its input is ${formatAssetAmount(input.amount)} (${input.amount} base units)`,
        );
    }
  }

  /** The fee paid is at least the fee required and below 10× it (the reference's checkFee). */
  private checkFee(tx: TmpTransaction, rate: bigint): void {
    const paid = total(tx.inputs) - total(tx.outputs) - total(tx.ecOutputs);
    const feeEC = tmpFeeEC(tx);
    const need = BigInt(feeEC) * rate;
    if (paid < need)
      throw invalidParams(
        `fee too low: the inputs exceed the outputs by ${paid} base units, the fee is ${need} (${feeEC} EC at ${rate}); call add-fee or sub-fee`,
      );
    if (paid >= need * OVERPAY_FACTOR)
      throw invalidParams(
        `fee too high: the transaction pays ${paid} base units, ${OVERPAY_FACTOR}× or more the ${need} required; use force to sign anyway`,
      );
  }

  private async checkCredits(ec: string, cost: number, what: string): Promise<void> {
    const have = Number((await fromNode(() => this.deps.node.entryCreditBalance({ address: ec }))).balance);
    if (have < cost) throw invalidParams(`insufficient entry credits: ${ec} holds ${have}, ${what}`);
  }

  private async chainExists(chainId: string): Promise<boolean> {
    try {
      await this.deps.node.chainHead({ chainid: chainId });
      return true;
    } catch (e) {
      if (e instanceof RpcError && e.code === -32009) return false;
      return nodeError(e);
    }
  }

  private entryOrThrow(f: () => ComposedEntry): ComposedEntry {
    try {
      return f();
    } catch (e) {
      if (e instanceof ProtocolError) throw invalidParams(`${e.field}: ${e.detail}`);
      throw e;
    }
  }

  private entryResult(c: ComposedEntry) {
    return {
      commit: { ...c.commit, id: this.nextId() },
      reveal: { ...c.reveal, id: this.nextId() },
    };
  }
}
