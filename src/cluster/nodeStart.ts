/**
 * The cluster side of a node's start (src/node.ts), in its own module so that a single node never loads it: the
 * NATS client and the federation's modules are ~0.1–0.2 s of CPU at start, imported (`import()`) only when
 * `[Cluster] NatsUrls` is set (docs/performance.md §Restart). What it does is node.ts's cluster part as it was:
 * the replicated log (it waits for NATS), the block-set and snapshot archives (an empty store starts from the
 * newest certified snapshot, docs/cluster.md §1.13), then the federation over the opened ledger.
 */
import { join } from "node:path";
import type { NodeConfig } from "../config/types.js";
import type { Ledger } from "../ledger/ledger.js";
import type { SnapshotTurnsSource } from "../ledger/snapshotState.js";
import { AUTHORITY_FILE_NAME } from "./authorityFile.js";
import { clusterNames, federationOptions, networkBootstrap, networkGenesisKeyMR } from "./clusterConfig.js";
import { EC_RATE_FILE_NAME } from "./ecRate.js";
import { Federation } from "./federation.js";
import { type BlockSetArchive, JetStreamLog } from "./jetStreamLog.js";
import { inboxPrefix } from "./natsPermissions.js";
import { openNodeSnapshots, type SnapshotStartDependencies } from "./snapshotStart.js";
import { type SnapshotArchives, snapshotMakerFor } from "./snapshots.js";
import { ForwardedWriteServer, ForwardingLog } from "./writeForwarding.js";

/** The node's logger, as the log connection and the federation take it (cluster/ does not import log/). */
type NodeLogger = Parameters<typeof JetStreamLog.open>[1]["log"] &
  ConstructorParameters<typeof Federation>[1]["logger"];
/**
 * The client-signature checker the federation applies the log with and the write intake checks with (node.ts's
 * RememberingVerifier).
 */
type Signatures = ConstructorParameters<typeof Federation>[1]["signatures"] &
  ConstructorParameters<typeof ForwardedWriteServer>[1]["verifier"];
/** What a caller's stop runs, in reverse order of their pushes. */
type Cleanups = (() => Promise<void> | void)[];

/** What the cluster's start opened before the ledger: closed by the caller's `cleanups`, in reverse. */
export interface ClusterLog {
  replicatedLog: JetStreamLog;
  archive: BlockSetArchive;
  snapshotArchive: SnapshotArchives | undefined;
  /** the empty store was initialized from a certified snapshot (reopen it so the query index starts there) */
  startedFromSnapshot: boolean;
}

/** Connect the replicated log and its archives; an empty store may start from a certified snapshot. */
export async function openClusterLog(
  config: NodeConfig,
  deps: {
    dataDir: string;
    networkId: number;
    /** the store, to start an empty one from a certified snapshot */
    store: SnapshotStartDependencies["store"];
    log: NodeLogger;
    cleanups: Cleanups;
  },
): Promise<ClusterLog> {
  const names = clusterNames(config);
  const replicatedLog = await JetStreamLog.open(
    {
      servers: config.cluster.natsUrls,
      stream: names.stream,
      subjectPrefix: names.subjectPrefix,
      replicas: config.cluster.replicas,
      name: `ledgerd ${config.cluster.role} :${config.port}`,
      // least privilege (natsPermissions.ts): only federated servers may create the streams; each role
      // takes its replies on its own inbox prefix
      createStreams: config.cluster.role === "federated",
      inboxPrefix: inboxPrefix(config.cluster.role),
      ...(config.cluster.natsUser === "" ? {} : { user: config.cluster.natsUser, pass: config.cluster.natsPassword }),
      ...(config.cluster.natsTls === undefined ? {} : { tls: config.cluster.natsTls }),
    },
    { log: deps.log },
  );
  deps.cleanups.push(() => replicatedLog.close());
  const archive = await replicatedLog.openArchive(names.setsStream, names.setsSubjectPrefix);
  // certified snapshots (docs/cluster.md §1.13): an empty store starts from the newest that checks out
  const snapshotStart = await openNodeSnapshots(
    {
      role: config.cluster.role,
      interval: config.cluster.snapshotInterval,
      networkId: deps.networkId,
      bootstrap: networkBootstrap(config),
      authorityFile: join(deps.dataDir, AUTHORITY_FILE_NAME),
      genesisKeyMR: networkGenesisKeyMR(config),
      names,
    },
    {
      log: replicatedLog,
      store: deps.store,
      logger: deps.log,
    },
  );
  return {
    replicatedLog,
    archive,
    snapshotArchive: snapshotStart.archive,
    startedFromSnapshot: snapshotStart.started,
  };
}

/** The federation over the opened ledger (not started yet: node.ts starts it after the API listens). */
export function createFederation(
  config: NodeConfig,
  opened: ClusterLog,
  deps: {
    dataDir: string;
    ledger: Ledger;
    store: SnapshotTurnsSource;
    signatures: Signatures;
    log: NodeLogger;
    cleanups: Cleanups;
    federation: () => Federation | undefined;
    networkTesting: () => { dropRatePerMille: number; delayMs: number };
  },
): Federation {
  const { replicatedLog } = opened;
  const fedOptions = federationOptions(config);
  const intakeSubject = clusterNames(config).intakeSubject;
  // a follower does not append: its writes go to a server by request/reply (writeForwarding.ts); federated
  // and audit servers answer those requests, checking every client signature again before appending
  const federationLog =
    config.cluster.role === "follower"
      ? new ForwardingLog({ intakeSubject }, { log: replicatedLog, transport: replicatedLog })
      : replicatedLog;
  if (config.cluster.role !== "follower") {
    const intake = new ForwardedWriteServer(
      {
        intakeSubject,
        networkId: fedOptions.networkId,
        skeletonKey: fedOptions.skeletonKey,
        ...(fedOptions.rateAuthority === undefined ? {} : { rateAuthority: fedOptions.rateAuthority }),
      },
      {
        transport: replicatedLog,
        verifier: deps.signatures,
        logger: deps.log,
        keyInForce: (id) => deps.federation()?.keyInForce(id),
      },
    );
    intake.start();
    deps.cleanups.push(() => intake.stop());
  }
  const snapshots = snapshotMakerFor(
    { ...fedOptions, interval: config.cluster.snapshotInterval },
    { store: deps.store, archive: opened.snapshotArchive, log: replicatedLog, logger: deps.log },
  );
  const federation = new Federation(
    {
      ...fedOptions,
      authorityFile: join(deps.dataDir, AUTHORITY_FILE_NAME),
      ecRateFile: join(deps.dataDir, EC_RATE_FILE_NAME),
    },
    {
      ...(snapshots === undefined ? {} : { snapshots }),
      ledger: deps.ledger,
      log: federationLog,
      signatures: deps.signatures,
      archive: opened.archive,
      logger: deps.log,
      networkTesting: deps.networkTesting,
    },
  );
  deps.cleanups.push(() => federation.stop());
  return federation;
}
