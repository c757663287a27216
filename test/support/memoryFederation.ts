/**
 * A federation in one process: nodes of every role, each a real Ledger over its own LMDB store in a temp
 * directory and a real Federation driver, all following one in-memory ordered log (src/cluster/memoryLog.ts)
 * instead of a nats-server. Each node may have a clock of its own (skew); records can be appended by hand
 * (forged, duplicated, stale) beside what the proposers append.
 */

import { signDirectoryBlock } from "../../src/cluster/dbSig.js";
import { Federation } from "../../src/cluster/federation.js";
import type { ClusterRole, OrderedLog } from "../../src/cluster/federationTypes.js";
import type { BlockSetArchive } from "../../src/cluster/jetStreamLog.js";
import { MemoryOrderedLog } from "../../src/cluster/memoryLog.js";
import { type ClusterRecord, encodeRecord, recordSubject, signRecord } from "../../src/cluster/records.js";
import { SnapshotMaker } from "../../src/cluster/snapshots.js";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { Ledger } from "../../src/ledger/ledger.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { directoryBlockHashes } from "../../src/protocol/dblock.js";
import {
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { LedgerStore } from "../../src/store/store.js";
import { RememberingVerifier } from "../../src/workers/rememberingVerifier.js";
import { InlineVerifier } from "../../src/workers/verifier.js";
import { cleanup, MemoryLog, tempDir } from "../unit/ledger/harness.js";
import { waitUntil } from "./waitFor.js";

export const NET = networkId("LOCAL");
export const BOOT = fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX);
export const BOOT_SEED = fromHex(LOCAL_BOOTSTRAP_SEED_HEX);
export const BOOT_KEY = fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX);
/** LOCAL's entry-credit rate authority ([App] ExchangeRateAuthorityPublicKeyLocalNet: private key all zeroes). */
export const RATE_SEED = new Uint8Array(32);
export const RATE_KEY = publicKeyFromSeed(RATE_SEED);
const NO_SIG = new Uint8Array(64);

/** A server identity for tests: identity chain ID and signing seed from one byte. */
export function serverIdentity(n: number): { identity: Uint8Array; seed: Uint8Array; publicKey: Uint8Array } {
  const seed = new Uint8Array(32).fill(n);
  return { identity: new Uint8Array(32).fill(0x80 + n), seed, publicKey: publicKeyFromSeed(seed) };
}

export interface MemoryNode {
  name: string;
  role: ClusterRole;
  dir: string;
  store: LedgerStore;
  ledger: Ledger;
  fed: Federation;
  /** what the node logged */
  log: MemoryLog;
  /** this node's clock offset from the real one, ms */
  skewMs: number;
  identity?: Uint8Array;
}

export interface NodeSpec {
  name: string;
  role: ClusterRole;
  /** server identity and seed (federated and audit roles); the bootstrap server's when absent for "federated" */
  server?: { identity: Uint8Array; seed: Uint8Array; nextSeed?: Uint8Array };
  /** clock offset, ms (a node whose clock runs fast or slow) */
  skewMs?: number;
  /** per mille of this node's proposals dropped before they reach the log (debug set-drop-rate) */
  dropRatePerMille?: number;
  /** brain swap: the heights at which this server signs for its identity (FederationOptions.signingWindow) */
  signingWindow?: { fromHeight: number; untilHeight: number };
  /** told of each record this node appends (its proposals and submits), before the log has it */
  appended?: (kind: string, data: Uint8Array) => void;
  /** told before this node applies each record it follows (its federation holds the state of the records before) */
  applying?: (fed: Federation, seq: number) => void;
}

export interface MemoryFederationOptions {
  blockTimeSeconds: number;
  faultTimeoutSeconds?: number;
  roundTimeoutSeconds?: number;
  /** certified snapshots every `interval` blocks, kept in `archive`, their header segments in `headers`
   * (federated servers make both) */
  snapshots?: { interval: number; archive: BlockSetArchive; headers: BlockSetArchive };
  /** the block-set archive every node is given (federated servers write it; nodes behind a trimmed log read it) */
  blockSets?: BlockSetArchive;
}

/** An in-memory snapshot or block-set archive (jetStreamLog.ts keeps the real one in a JetStream stream). */
export class MemoryArchive implements BlockSetArchive {
  readonly parts = new Map<number, Uint8Array[]>();
  async get(height: number): Promise<Uint8Array[] | undefined> {
    return this.parts.get(height)?.map((p) => p.slice());
  }
  async has(height: number): Promise<boolean> {
    return this.parts.has(height);
  }
  async put(height: number, parts: readonly Uint8Array[]): Promise<void> {
    this.parts.set(
      height,
      parts.map((p) => p.slice()),
    );
  }
}

/**
 * Temp directories `start` made, removed when the process exits. `stop` removes the directories of the nodes
 * still running; a node stopped by `stopNode` and not started again left its directory in /tmp after every
 * `make test`. Not at `stop`: a test may read a stopped node's store after it (federatedHistory.test.ts).
 */
const madeDirs = new Set<string>();

function removeAtExit(dir: string): void {
  if (madeDirs.size === 0) process.once("exit", () => madeDirs.forEach(cleanup));
  madeDirs.add(dir);
}

export class MemoryFederation {
  readonly log = new MemoryOrderedLog();
  readonly nodes: MemoryNode[] = [];

  constructor(private readonly options: MemoryFederationOptions) {}

  /** Open and start a node (a fresh store in a temp directory, or the one in `dir` when restarting). */
  async start(spec: NodeSpec, dir?: string): Promise<MemoryNode> {
    if (dir === undefined) {
      dir = tempDir("ledgerd-memfed-");
      removeAtExit(dir);
    }
    const skewMs = spec.skewMs ?? 0;
    const now = (): number => Date.now() + skewMs;
    const log = new MemoryLog();
    const store = LedgerStore.open({ path: `${dir}/local/db`, network: "LOCAL", networkId: NET });
    const verifier = new RememberingVerifier(new InlineVerifier());
    const ref: { fed?: Federation } = {};
    const ledger = Ledger.open(
      {
        network: "LOCAL",
        customNet: "test",
        blockTimeSeconds: this.options.blockTimeSeconds,
        ...(this.options.faultTimeoutSeconds === undefined
          ? {}
          : { faultTimeoutSeconds: this.options.faultTimeoutSeconds }),
        ...(this.options.roundTimeoutSeconds === undefined
          ? {}
          : { roundTimeoutSeconds: this.options.roundTimeoutSeconds }),
      },
      {
        store,
        verifier,
        log,
        now,
        replicated: { submit: (msg) => ref.fed!.submit(msg), isPending: (h) => ref.fed!.isPending(h) },
      },
    );
    const server =
      spec.role === "follower"
        ? undefined
        : (spec.server ?? (spec.role === "federated" ? { identity: BOOT, seed: BOOT_SEED } : undefined));
    const snap = this.options.snapshots;
    const snapshots =
      snap === undefined || server === undefined || spec.role !== "federated"
        ? undefined
        : new SnapshotMaker(
            { interval: snap.interval, networkId: NET, identity: server.identity },
            {
              store,
              archive: snap.archive,
              headers: snap.headers,
              append: async (rec) => {
                await this.log.append(recordSubject(rec.kind), encodeRecord(rec), `snap/${rec.height}/${spec.name}`);
              },
              logger: log,
            },
          );
    const fed = new Federation(
      {
        role: spec.role,
        ...(server === undefined ? {} : { identity: server.identity, seed: server.seed }),
        ...(spec.server?.nextSeed === undefined ? {} : { nextSeed: spec.server.nextSeed }),
        ...(spec.signingWindow === undefined ? {} : { signingWindow: spec.signingWindow }),
        networkId: NET,
        blockTimeSeconds: this.options.blockTimeSeconds,
        bootstrap: { identity: BOOT, publicKey: BOOT_KEY },
        skeletonKey: BOOT_KEY,
        rateAuthority: RATE_KEY,
        ecRateFile: `${dir}/ec-rates.json`,
        nodeName: spec.name,
        ...(this.options.faultTimeoutSeconds === undefined
          ? {}
          : { faultTimeoutSeconds: this.options.faultTimeoutSeconds }),
        ...(this.options.roundTimeoutSeconds === undefined
          ? {}
          : { roundTimeoutSeconds: this.options.roundTimeoutSeconds }),
        authorityFile: `${dir}/authorities.json`,
      },
      {
        ledger,
        log: spec.appended === undefined && spec.applying === undefined ? this.log : logSpy(this.log, spec, ref),
        logger: log,
        signatures: verifier,
        now,
        ...(snapshots === undefined ? {} : { snapshots }),
        ...(this.options.blockSets === undefined ? {} : { archive: this.options.blockSets }),
        ...(spec.dropRatePerMille === undefined
          ? {}
          : { networkTesting: () => ({ dropRatePerMille: spec.dropRatePerMille!, delayMs: 0 }) }),
      },
    );
    ref.fed = fed;
    const node: MemoryNode = {
      name: spec.name,
      role: spec.role,
      dir,
      store,
      ledger,
      fed,
      log,
      skewMs,
      ...(server === undefined ? {} : { identity: server.identity }),
    };
    this.nodes.push(node);
    await fed.start();
    return node;
  }

  /** Stop a node (its store stays, for a restart with `start(spec, node.dir)`). */
  async stopNode(node: MemoryNode): Promise<void> {
    await node.fed.stop();
    await node.ledger.close();
    await node.store.close();
    this.nodes.splice(this.nodes.indexOf(node), 1);
  }

  /** Append a record by hand (as anyone with the log's credentials could). */
  async append(rec: ClusterRecord, msgId?: string): Promise<number> {
    return (await this.log.append(recordSubject(rec.kind), encodeRecord(rec), msgId)).seq;
  }

  /** A skeleton-signed addServer record (LOCAL's skeleton key is the bootstrap key). */
  addServer(role: "federated" | "audit", s: { identity: Uint8Array; publicKey: Uint8Array }): ClusterRecord {
    return signRecord(
      { kind: "addServer", role, identity: s.identity, publicKey: s.publicKey, timeMs: 0, signature: NO_SIG },
      NET,
      BOOT_SEED,
    );
  }

  /** Resolves once every node applied the log's last record. */
  async settle(timeoutMs = 30_000): Promise<void> {
    const last = await this.log.lastSequence();
    await waitUntil(
      `every node applied record ${last}`,
      () => this.nodes.every((n) => n.fed.status().appliedSequence >= last),
      timeoutMs,
      10,
    );
  }

  /** Resolves once every node saved `height`. */
  async savedHeight(height: number, timeoutMs = 60_000): Promise<void> {
    await waitUntil(
      `every node saved height ${height}`,
      () => this.nodes.every((n) => n.ledger.heights().directoryBlockHeight >= height),
      timeoutMs,
      20,
    );
  }

  /** The key Merkle roots of directory blocks 0..height of a node (hex). */
  static keyMRs(node: MemoryNode, height: number): string[] {
    const out: string[] = [];
    for (let h = 0; h <= height; h++) {
      const b = node.ledger.directoryBlockByHeight(h);
      out.push(b === undefined ? "" : toHex(directoryBlockHashes(b.block).keyMR));
    }
    return out;
  }

  /** A dbSig record of `server` over `node`'s last directory block. */
  static dbSig(node: MemoryNode, server: { identity: Uint8Array; seed: Uint8Array }): ClusterRecord {
    return {
      kind: "dbSig",
      height: node.ledger.openBlock().height,
      identity: server.identity,
      publicKey: publicKeyFromSeed(server.seed),
      signature: signDirectoryBlock(server.seed, node.ledger.lastDirectoryBlock()),
    };
  }

  async stop(): Promise<void> {
    for (const n of [...this.nodes]) {
      await this.stopNode(n);
      cleanup(n.dir);
    }
    this.log.close();
  }
}

/**
 * The log as one node sees it, telling the spec's `appended` of each record the node appends and `applying` of
 * each record before the node applies it (a pass-through: the log is real).
 */
function logSpy(log: MemoryOrderedLog, spec: NodeSpec, ref: { fed?: Federation }): OrderedLog {
  return {
    append: (kind, data, msgId) => {
      spec.appended?.(kind, data);
      return log.append(kind, data, msgId);
    },
    follow: (from, onRecord) =>
      log.follow(from, (r) => {
        spec.applying?.(ref.fed!, r.seq);
        return onRecord(r);
      }),
    lastSequence: () => log.lastSequence(),
    firstSequence: () => log.firstSequence(),
    lastOfKind: (kind) => log.lastOfKind(kind),
  };
}
