/**
 * A cluster node with an empty data directory (a new node; a forked node, which resyncs on an empty one) starts
 * from the newest certified snapshot it can verify instead of genesis (docs/cluster.md §1.13): it reads the
 * network's height from the log's newest end of minute, tries the snapshot heights at or below it newest first
 * (snapshots.ts `fetchCertifiedSnapshot`: the header chain from genesis, snapshotChain.ts, then certificate,
 * hash, authority set, directory block; a refused one is logged and the next older one tried), writes the one that checks out into the empty store as its first save, and keeps its
 * authority set beside it (authorityFile.ts). None checks out: the node replays from genesis as before.
 */
import { type SnapshotState, snapshotBlockSetWrite } from "../ledger/snapshotState.js";
import { toHex } from "../protocol/bytes.js";
import type { AuthoritySet } from "./authorities.js";
import { saveAuthorities } from "./authorityFile.js";
import type { ClusterRole, FederationLogger } from "./federationTypes.js";
import type { JetStreamLog } from "./jetStreamLog.js";
import { decodeRecord, recordSubject } from "./records.js";
import { candidateHeights, fetchCertifiedSnapshot, type SnapshotArchives } from "./snapshots.js";

export interface SnapshotStartOptions {
  interval: number;
  networkId: number;
  bootstrap: { identity: Uint8Array; publicKey: Uint8Array };
  /** the authority file of the data directory (authorityFile.ts) */
  authorityFile: string;
  /** keyMR of the network's genesis directory block: where the header chain a snapshot is checked by starts */
  genesisKeyMR: Uint8Array;
}

export interface SnapshotStartDependencies {
  /** the empty store: written once with the snapshot's state */
  store: { isFresh(): boolean; initialize(write: ReturnType<typeof snapshotBlockSetWrite>): void };
  archive: SnapshotArchives;
  /** the log's newest end of minute (a direct get) */
  lastEndOfMinute(): Promise<Uint8Array | undefined>;
  logger: FederationLogger;
}

/** The header segments' key space in the snapshot archive: `ledgersnaps.<net>.headers.<H>.<i>`. */
const HEADER_SPACE = { subject: "headers", msgId: "headers" };

/** The snapshot the store now starts from, or undefined (genesis replay). */
export async function startFromSnapshot(
  options: SnapshotStartOptions,
  deps: SnapshotStartDependencies,
): Promise<{ height: number; state: SnapshotState; authorities: AuthoritySet } | undefined> {
  if (options.interval <= 0 || !deps.store.isFresh()) return undefined;
  const eom = await deps.lastEndOfMinute();
  if (eom === undefined) return undefined;
  const rec = decodeRecord(eom);
  if (rec.kind !== "endOfMinute") return undefined;
  const heights = candidateHeights(rec.height, options.interval);
  const got = await fetchCertifiedSnapshot(
    deps.archive,
    heights,
    { networkId: options.networkId, bootstrap: options.bootstrap },
    { genesisKeyMR: options.genesisKeyMR, interval: options.interval },
    deps.logger,
  );
  if (got === undefined) {
    if (heights.length > 0)
      deps.logger.warn("no certified snapshot checks out; replaying from genesis", {
        newest: heights[0],
        oldest: heights.at(-1),
      });
    return undefined;
  }
  deps.store.initialize(snapshotBlockSetWrite(got.state));
  saveAuthorities(options.authorityFile, got.state.height, got.certificate.keyMR, got.authorities);
  deps.logger.info("started from a certified snapshot", {
    height: got.state.height,
    hash: toHex(got.certificate.hash),
    signers: got.certificate.signatures.length,
    logSequence: got.state.logSequence,
  });
  return { height: got.state.height, state: got.state, authorities: got.authorities };
}

/**
 * A cluster node's start (node.ts): open the snapshot archive — federated servers make it; a node with an empty
 * store reads it to start (waiting for it like for the other streams; not there in time: a warning, genesis) —
 * and start an empty store from a certified snapshot. `started`: the store was written (reopen it).
 */
export async function openNodeSnapshots(
  options: SnapshotStartOptions & {
    role: ClusterRole;
    names: { snapsStream: string; snapsSubjectPrefix: string };
  },
  deps: {
    log: Pick<JetStreamLog, "openArchive" | "lastOfKind">;
    store: SnapshotStartDependencies["store"];
    logger: FederationLogger;
  },
): Promise<{ archive: SnapshotArchives | undefined; started: boolean }> {
  const fresh = deps.store.isFresh();
  if (options.interval <= 0 || (options.role !== "federated" && !fresh)) return { archive: undefined, started: false };
  let archive: SnapshotArchives | undefined;
  try {
    const { snapsStream, snapsSubjectPrefix } = options.names;
    // (the snapshots' key space first: it makes the stream, with every subject of the prefix)
    const snapshots = await deps.log.openArchive(snapsStream, snapsSubjectPrefix);
    const headers = await deps.log.openArchive(snapsStream, snapsSubjectPrefix, HEADER_SPACE);
    archive = { snapshots, headers };
  } catch (e) {
    deps.logger.warn("no snapshot archive", { error: e instanceof Error ? e.message : String(e) });
    return { archive: undefined, started: false };
  }
  if (!fresh) return { archive, started: false };
  const started = await startFromSnapshot(options, {
    store: deps.store,
    archive,
    lastEndOfMinute: () => deps.log.lastOfKind(recordSubject("endOfMinute")),
    logger: deps.logger,
  });
  return { archive, started: started !== undefined };
}
