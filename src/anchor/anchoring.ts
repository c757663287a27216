/**
 * The node's anchoring part, built from `[Anchor]`: the anchor index every node keeps (what the anchor
 * chain says, for receipts) and, on the node elected by configuration (RpcUrl set), the service that makes
 * anchors. Key files are read here once; their content never reaches a log line or an error message.
 * The Ethereum side (viem: ~360 modules, ~0.5–1 s of CPU to load, more than the rest of the node) is imported
 * only by the node that anchors, so a node without `[Anchor] RpcUrl` never loads it (docs/performance.md
 * §Restart).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Account } from "viem";
import type { AnchorConfig } from "../config/types.js";
import type { LedgerApi } from "../ledger/api.js";
import type { Logger } from "../log/logger.js";
import { decodeAddress } from "../protocol/address.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import { AnchorError } from "./errors.js";
import { AnchorIndex } from "./index.js";
import { PendingAnchorFile } from "./pendingAnchor.js";
import { REFERENCE_ETHEREUM_RECORD_KEY_HEX, recordPublicKey } from "./record.js";
import type { AnchorService, AnchorStats } from "./service.js";

/**
 * ms between the service's rounds. Each round in flight is two RPC calls (receipt, block number): one a
 * second is far below public endpoints' free limits and keeps the anchor's delay to about its confirmations.
 */
export const ANCHOR_POLL_MS = 1000;

/** The pending-anchor file inside the network's data directory (dataDir is `<home>/<network>/db`). */
export const PENDING_ANCHOR_FILE = join("..", "anchor", "pending.json");

export interface Anchoring {
  index: AnchorIndex;
  /** present on the anchoring node */
  service?: AnchorService;
  stats(): Partial<AnchorStats> & { anchor_records: number };
  stop(): Promise<void>;
}

function readKeyFile(file: string, what: string, log: Logger): string {
  try {
    const text = readFileSync(file, "utf8");
    // Only the path and the mode are logged, never the content.
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0)
      log.warn(`the ${what} can be read by other users; chmod 600 it`, { file, mode: mode.toString(8) });
    return text;
  } catch (e) {
    throw new AnchorError({
      code: "BAD_KEY",
      file,
      reason: `cannot read the ${what}: ${(e as NodeJS.ErrnoException).code ?? "error"}`,
    });
  }
}

/** The EC key file's seed: an Es… private address, or 64 hex characters. */
function ecSeedFromText(text: string, file: string): Uint8Array {
  const t = text.trim();
  try {
    if (/^Es/.test(t)) return decodeAddress(t, "Es", "entry credit key").key;
    return fromHex(t.replace(/^0x/i, ""), "entry credit key", 32);
  } catch {
    throw new AnchorError({
      code: "BAD_KEY",
      file,
      reason: "expected an Es… entry credit private key (or 64 hex characters)",
    });
  }
}

/** Build the anchoring part; rejects with AnchorError on an unreadable or malformed key file. */
export async function openAnchoring(
  config: AnchorConfig,
  deps: { ledger: LedgerApi; log: Logger; dataDir: string; now(): number },
): Promise<Anchoring> {
  let ecSeed: Uint8Array | undefined;
  let ethereumSide: { ethereum: typeof import("./ethereum.js"); service: typeof import("./service.js") } | undefined;
  let account: Account | undefined;
  if (config.rpcUrl !== "") {
    ethereumSide = { ethereum: await import("./ethereum.js"), service: await import("./service.js") };
    account = ethereumSide.ethereum.accountFromKeyText(
      readKeyFile(config.keyFile, "Ethereum key file", deps.log),
      config.keyFile,
    );
    ecSeed = ecSeedFromText(readKeyFile(config.ecKeyFile, "entry credit key file", deps.log), config.ecKeyFile);
  }
  // The anchoring node always reads its own records (it learns its progress from them); the list adds others.
  const keys = [
    ...(config.recordPublicKeys.length > 0
      ? config.recordPublicKeys.map((k) => fromHex(k, "EthereumAnchorRecordPublicKeys", 32))
      : [fromHex(REFERENCE_ETHEREUM_RECORD_KEY_HEX, "REFERENCE_ETHEREUM_RECORD_KEY_HEX", 32)]),
    ...(ecSeed === undefined ? [] : [recordPublicKey(ecSeed)]),
  ];
  const index = new AnchorIndex({ publicKeys: keys }, { ledger: deps.ledger, log: deps.log });
  let service: AnchorService | undefined;
  if (ethereumSide !== undefined && account !== undefined && ecSeed !== undefined) {
    const ethereum = new ethereumSide.ethereum.EthereumAnchorer(
      { rpcUrl: config.rpcUrl, chainId: config.chainId },
      account,
    );
    service = new ethereumSide.service.AnchorService(
      {
        intervalBlocks: config.intervalBlocks,
        maxWindow: config.maxWindow,
        confirmations: config.confirmations,
        limits: { gasLimit: config.gasLimit, maxFeePerGasWei: BigInt(config.maxFeeGwei) * 1_000_000_000n },
        to: config.to,
        pollMs: ANCHOR_POLL_MS,
      },
      {
        ledger: deps.ledger,
        index,
        ethereum,
        pending: new PendingAnchorFile(join(deps.dataDir, PENDING_ANCHOR_FILE)),
        ecSeed,
        log: deps.log,
        now: deps.now,
      },
    );
    deps.log.info("anchoring into an Ethereum-compatible chain", {
      chainId: config.chainId,
      account: ethereum.address(),
      recordPublicKey: toHex(recordPublicKey(ecSeed)),
      interval: config.intervalBlocks,
      confirmations: config.confirmations,
    });
  }
  return {
    index,
    ...(service === undefined ? {} : { service }),
    stats: () => ({ anchor_records: index.count(), ...(service?.stats() ?? {}) }),
    stop: async () => {
      await service?.stop();
    },
  };
}

/**
 * The anchoring metrics on the node's registry (docs/operations.md §8), read when scraped. Every node has
 * `ledgerd_anchor_records`; the anchoring node also the service's counters and gauges.
 */
export function registerAnchorMetrics(registry: Registry, anchoring: Anchoring): void {
  const registers = [registry];
  new Gauge({
    name: "ledgerd_anchor_records",
    help: "signed anchor records this node has read from the anchor chain",
    registers,
    collect() {
      this.set(anchoring.index.count());
    },
  });
  const service = anchoring.service;
  if (service === undefined) return;
  new Gauge({
    name: "ledgerd_anchor_anchored_height",
    help: "highest directory block height the anchor chain covers (-1: none yet)",
    registers,
    collect() {
      this.set(service.stats().anchor_anchored_height);
    },
  });
  new Gauge({
    name: "ledgerd_anchor_rpc_unreachable",
    help: "1 while the Ethereum RPC of the anchoring node does not answer",
    registers,
    collect() {
      this.set(service.stats().anchor_rpc_unreachable);
    },
  });
  const counters = [
    ["ledgerd_anchor_transactions_sent_total", "anchor transactions sent", "anchor_transactions_sent_total"],
    [
      "ledgerd_anchor_records_submitted_total",
      "anchor records submitted to the ledger",
      "anchor_records_submitted_total",
    ],
    ["ledgerd_anchor_rpc_failures_total", "anchoring rounds that failed", "anchor_rpc_failures_total"],
  ] as const;
  for (const [name, help, key] of counters)
    new Counter({
      name,
      help,
      registers,
      collect() {
        // the service counts; the scrape copies its total (monotonic, so still a counter)
        this.reset();
        this.inc(service.stats()[key]);
      },
    });
}
