/**
 * Writes for the cluster tests, sent to whichever node the test names, with the bookkeeping the tests
 * check: a write counts as acknowledged only when the node answered success; every other outcome (a
 * JSON-RPC error, a refused or reset connection, a timeout — e.g. the node was killed) is recorded as not
 * acknowledged. After the run, every acknowledged commit and reveal must be in a saved block
 * (testDevnet.ts `savedHashes`).
 *
 * Keys: entry credits are bought from the LOCAL genesis address (its private key is public test data).
 */
import { RpcError } from "../../src/client/index.js";
import { type KeyPair, keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit } from "../../src/protocol/commit.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { sha256 } from "../../src/protocol/hash.js";
import { buildTransaction, transactionFeeEC } from "../../src/protocol/transaction.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";

/** The LOCAL genesis address's private key (factomd's well-known local test key). */
const GENESIS_PRIVATE_KEY = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";

export interface WriteRecord {
  /** commit (commit-chain / commit-entry), reveal (reveal-chain / reveal-entry) or asset-submit */
  kind: "commit" | "reveal" | "transaction";
  /** the entry hash (commits and reveals) or the transaction id */
  hash: string;
  /** the node it was sent to */
  node: string;
  acknowledged: boolean;
  /** when the node answered success, ms since epoch (fault tests measure the longest gap) */
  atMs?: number;
  /** what the node answered instead of success */
  error?: string;
}

export class ClusterWriter {
  readonly records: WriteRecord[] = [];
  private lastMs = 0;
  private seq = 0;
  readonly ec: KeyPair;
  private readonly genesis = keyPairFromPrivate(GENESIS_PRIVATE_KEY);

  /** @param label makes this writer's EC key and chains its own */
  constructor(readonly label: string) {
    this.ec = keyPairFromSeed("EC", sha256(new TextEncoder().encode(`ledgerd cluster test ${label}`)));
  }

  /** Strictly increasing ms timestamps: unique commits and transactions. */
  private now(): number {
    this.lastMs = Math.max(Date.now(), this.lastMs + 1);
    return this.lastMs;
  }

  private async send(
    node: LedgerdNode,
    method: string,
    params: Record<string, string>,
    kind: WriteRecord["kind"],
    hash: string,
  ): Promise<boolean> {
    const rec: WriteRecord = { kind, hash, node: node.name, acknowledged: false };
    this.records.push(rec);
    try {
      await node.client.call(method, params);
      rec.acknowledged = true;
      rec.atMs = Date.now();
    } catch (e) {
      rec.error = e instanceof RpcError ? `${e.code} ${e.message} ${JSON.stringify(e.data)}` : String(e);
    }
    return rec.acknowledged;
  }

  /** Buy `credits` entry credits for this writer's EC key from the genesis address, through `node`. */
  async buyCredits(node: LedgerdNode, credits: number): Promise<boolean> {
    const { rate } = await node.client.call<{ rate: number }>("entry-credit-rate");
    const toEc = BigInt(credits) * BigInt(rate);
    const time = this.now();
    const build = (fee: bigint) =>
      buildTransaction({
        milliTimestamp: time,
        inputs: [{ seed: this.genesis.seed, amount: toEc + fee }],
        outputs: [],
        ecOutputs: [{ address: this.ec.publicKey, amount: toEc }],
      });
    let fee = 0n;
    let tx = build(fee);
    // the fee is part of the input amount, whose varint can grow: settle it (two rounds suffice)
    for (let i = 0; i < 4 && BigInt(transactionFeeEC(tx)) * BigInt(rate) > fee; i++) {
      fee = BigInt(transactionFeeEC(tx)) * BigInt(rate);
      tx = build(fee);
    }
    return this.send(node, "asset-submit", { transaction: toHex(tx.raw) }, "transaction", "");
  }

  /** Create a chain: commit-chain then reveal-chain to `node`. Returns its chain ID (hex) when both were acknowledged. */
  async createChain(node: LedgerdNode, name: string): Promise<string | undefined> {
    const enc = new TextEncoder();
    const extIds = [enc.encode(`cluster ${this.label}`), enc.encode(name)];
    const chainId = chainIdFromExtIds(extIds);
    const raw = marshalEntry({ version: 0, chainId, extIds, content: enc.encode(`chain ${name}`) });
    const commit = buildChainCommit({ entryRaw: raw, milliTime: this.now(), ecSeed: this.ec.seed });
    const hash = toHex(entryHash(raw));
    if (!(await this.send(node, "commit-chain", { message: toHex(commit.raw) }, "commit", hash))) return undefined;
    if (!(await this.send(node, "reveal-chain", { entry: toHex(raw) }, "reveal", hash))) return undefined;
    return toHex(chainId);
  }

  /** The commit-entry and reveal-entry messages of a new entry into `chainId` (hex), not sent. */
  entryMessages(chainId: string, text: string): { hash: string; commit: string; reveal: string } {
    const n = ++this.seq;
    const raw = marshalEntry({
      version: 0,
      chainId: Uint8Array.from(Buffer.from(chainId, "hex")),
      extIds: [new TextEncoder().encode(`e${n}`)],
      content: new TextEncoder().encode(`entry ${n} of ${this.label}: ${text}`),
    });
    const commit = buildEntryCommit({ entryRaw: raw, milliTime: this.now(), ecSeed: this.ec.seed });
    return { hash: toHex(entryHash(raw)), commit: toHex(commit.raw), reveal: toHex(raw) };
  }

  /** Send an entry's commit then its reveal to `node`. True when both were acknowledged. */
  async sendEntry(node: LedgerdNode, m: { hash: string; commit: string; reveal: string }): Promise<boolean> {
    if (!(await this.send(node, "commit-entry", { message: m.commit }, "commit", m.hash))) return false;
    return this.send(node, "reveal-entry", { entry: m.reveal }, "reveal", m.hash);
  }

  /** One entry into `chainId`: commit-entry then reveal-entry to `node`. True when both were acknowledged. */
  async addEntry(node: LedgerdNode, chainId: string): Promise<boolean> {
    return this.sendEntry(node, this.entryMessages(chainId, `via ${node.name}`));
  }

  /** Entry hashes of acknowledged writes of `kind`. */
  acknowledged(kind: "commit" | "reveal"): Set<string> {
    return new Set(this.records.filter((r) => r.kind === kind && r.acknowledged).map((r) => r.hash));
  }

  /** Counts by node: acknowledged / sent. */
  summary(): string {
    const by = new Map<string, { ok: number; all: number }>();
    for (const r of this.records) {
      const s = by.get(r.node) ?? { ok: 0, all: 0 };
      s.all++;
      if (r.acknowledged) s.ok++;
      by.set(r.node, s);
    }
    return [...by].map(([n, s]) => `${n} ${s.ok}/${s.all}`).join(", ");
  }
}
