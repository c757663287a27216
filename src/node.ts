/**
 * Composition root (DESIGN §2): configuration → store → verifier → ledger → RPC server → clock.
 * `startNode` returns a running node; `stop()` shuts it down in the reverse order (clock first, so no
 * block is closing while the server and the store go away).
 */
import { dirname, join } from "node:path";
import { type Anchoring, openAnchoring, registerAnchorMetrics } from "./anchor/anchoring.js";
import type { Federation } from "./cluster/federation.js";
import type { ClusterLog } from "./cluster/nodeStart.js";
import { customLedgerOptions } from "./config/customNetwork.js";
import { exchangeRateWarning } from "./config/exchangeRate.js";
import { logFilePath, reloadConfig } from "./config/index.js";
import { secretWarnings } from "./config/secrets.js";
import type { NodeConfig } from "./config/types.js";
import { LedgerClock } from "./ledger/clock.js";
import { Ledger } from "./ledger/ledger.js";
import type { LedgerEvents } from "./ledger/options.js";
import { createLogger, type Logger } from "./log/logger.js";
import { registerClusterMetrics } from "./monitor/clusterMetrics.js";
import { consensusCheck } from "./monitor/health.js";
import { registerLimitMetrics } from "./monitor/metrics.js";
import { createNodeMonitor, type NodeMonitor } from "./monitor/nodeMonitor.js";
import { registerQueryIndexMetrics } from "./monitor/queryIndexMetrics.js";
import { registerScrubMetrics } from "./monitor/scrubMetrics.js";
import { ControlPanel } from "./panel/server.js";
import { networkId } from "./protocol/network.js";
import { warnExposure } from "./rpc/exposure.js";
import { frontSocketPath } from "./rpc/httpFront.js";
import { LiveFeed } from "./rpc/live/feed.js";
import { DEFAULT_LIVE_FEED_OPTIONS } from "./rpc/live/feedOptions.js";
import { MetricsServer } from "./rpc/metricsServer.js";
import { assertPortFree, ListenError } from "./rpc/portCheck.js";
import { RpcServer } from "./rpc/server.js";
import { certificateHosts, ensureCertificate } from "./rpc/tls.js";
import { DirectoryLock } from "./store/directoryLock.js";
import { JOURNAL_DIR } from "./store/journal.js";
import { StoreScrub } from "./store/scrub.js";
import { LedgerStore } from "./store/store.js";
import { PoolVerifier } from "./workers/pool.js";
import { RememberingVerifier } from "./workers/rememberingVerifier.js";
import { InlineVerifier, type Verifier } from "./workers/verifier.js";

export interface StartOptions {
  /** the command line the configuration came from; `reload-configuration` re-reads with it */
  argv?: string[];
  /** a logger to use instead of one built from the configuration (not closed by stop) */
  log?: Logger;
  /** run the block clock (default true); tests that drive minutes themselves pass false */
  clock?: boolean;
  /** console lines of the logger built here: JSON (default) or human (cli.ts, on a terminal) */
  consoleFormat?: "json" | "human";
}

export interface RunningNode {
  readonly ledger: Ledger;
  /** the cluster side of a cluster node (undefined: the single node) */
  readonly federation: Federation | undefined;
  readonly store: LedgerStore;
  readonly server: RpcServer;
  /** the live event feed (served at /live) */
  readonly live: LiveFeed;
  /** the control panel, unless disabled or its port was taken */
  readonly panel: ControlPanel | undefined;
  readonly log: Logger;
  /** the anchor index (every node) and the anchoring service (the node elected by [Anchor]) */
  readonly anchoring: Anchoring;
  /** health checks (add one with `monitor.health.add`) and metrics */
  readonly monitor: NodeMonitor;
  /** the bound JSON-RPC port */
  readonly port: number;
  /** the LMDB directory */
  readonly dataDir: string;
  /** the configuration in force (changes with reload-configuration) */
  config(): NodeConfig;
  /** Re-read the configuration file and apply what applies live (as `reload-configuration`). Throws ConfigError. */
  reload(): { config: NodeConfig; restartNeeded: string[] };
  /** Stop the clock, close the server, flush and close the store. Idempotent. */
  stop(): Promise<void>;
}

/** The LMDB directory of a configuration: `${homeDir}/${network lowercase}/db`. */
export function dataDirectory(config: NodeConfig): string {
  return join(config.homeDir, config.network.toLowerCase(), "db");
}

/**
 * Start a node. Throws (after closing whatever it opened) on a data directory another process holds, a
 * store that belongs to another network or format (StoreError), a port in use, or a bad TLS file.
 */
export async function startNode(config: NodeConfig, opts: StartOptions = {}): Promise<RunningNode> {
  const ownLog = opts.log === undefined;
  const log =
    opts.log ??
    createLogger({
      level: config.logLevel,
      consoleLevel: config.consoleLogLevel,
      file: logFilePath(config),
      consoleFormat: opts.consoleFormat ?? "json",
    });
  const cleanups: (() => Promise<void> | void)[] = [];
  const unwind = async (): Promise<void> => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        log.error("shutdown step failed", { error: e instanceof Error ? e.message : String(e) });
      }
    }
    cleanups.length = 0;
  };
  if (ownLog) cleanups.push(() => log.close());

  try {
    const dataDir = dataDirectory(config);
    // Before anything is opened or replayed: one process per data directory (directoryLock.ts), and a node
    // that could not serve its port must not replay the journal (or close a block) first.
    const lock = DirectoryLock.acquire(dataDir);
    cleanups.push(() => lock.release());
    if (config.port !== 0) await assertPortFree(config.port, config.listenHost).catch(cannotListen(config));
    if (config.metricsPort !== 0)
      await assertPortFree(config.metricsPort, config.listenHost).catch(
        cannotListen({ ...config, port: config.metricsPort }),
      );

    const storeOptions = {
      path: dataDir,
      network: config.network,
      networkId: networkId(config.network, config.customNet),
      reserveBytes: config.minFreeDiskMB * 2 ** 20,
      // a directory of the previous format is migrated at open, with progress lines (store/formatMigration.ts)
      log: (line: string) => log.info(line),
      queryIndexRebuildPauseMs: rebuildPauseMs(),
      // -queryindex=false: saves skip the index and its marker stays where it stopped (rebuilt from there once on)
      queryIndex: config.queryIndex,
    };
    let store = LedgerStore.open({ ...storeOptions, verify: true });
    cleanups.push(() => store.close());

    const checker: Verifier =
      config.verifyThreads > 0 ? new PoolVerifier({ threads: config.verifyThreads }) : new InlineVerifier();
    // A cluster node: the replicated log first (it waits for NATS), then the ledger writing through it.
    const clustered = config.cluster.natsUrls.length > 0;
    // A cluster node checks every client signature again when it applies the log (clientSignatures.ts); the
    // writes it took itself are answered there from what its submit already checked.
    const remembering = clustered ? new RememberingVerifier(checker) : undefined;
    const verifier: Verifier = remembering ?? checker;
    cleanups.push(() => verifier.close());

    // the federation reads the API's drop/delay knobs; the server is made after it
    const serverRef: { current: RpcServer | undefined } = { current: undefined };
    let federation: Federation | undefined;
    // the cluster side's modules (NATS client, federation) are loaded only by a cluster node (cluster/nodeStart.ts)
    const clusterStart = clustered ? await import("./cluster/nodeStart.js") : undefined;
    let clusterLog: ClusterLog | undefined;
    if (clusterStart !== undefined) {
      clusterLog = await clusterStart.openClusterLog(config, {
        dataDir,
        networkId: storeOptions.networkId,
        store: { isFresh: () => store.isFresh(), initialize: (w) => store.initialize(storeOptions, w) },
        log,
        cleanups,
      });
      if (clusterLog.startedFromSnapshot) {
        // reopened, so the query index starts at the snapshot's height (store.ts startQueryIndexRebuild)
        await store.close();
        store = LedgerStore.open(storeOptions);
      }
    }
    // saved blocks reach the monitor, which needs the opened ledger: wired once both exist
    const events: LedgerEvents = {};
    const ledger = Ledger.open(
      {
        network: config.network,
        customNet: config.customNet,
        blockTimeSeconds: config.blockTimeSeconds,
        journaling: config.journaling,
        ...(clustered
          ? {
              faultTimeoutSeconds: config.cluster.faultTimeoutSeconds,
              roundTimeoutSeconds: config.cluster.roundTimeoutSeconds,
            }
          : {}),
        ...customLedgerOptions(config),
      },
      {
        store,
        verifier,
        log,
        events,
        ...(clustered
          ? { replicated: { submit: (msg) => federation!.submit(msg), isPending: (h) => federation!.isPending(h) } }
          : {}),
      },
    );
    // runs after the ledger's close (cleanups run in reverse): every block it had closed is saved by then
    cleanups.push(() => log.info(`stopped at height ${ledger.heights().directoryBlockHeight}`));
    cleanups.push(() => ledger.close());
    let current = config;
    const monitor = createNodeMonitor({
      ledger,
      store,
      dataDir,
      getConfig: () => current,
      log,
      ...(checker instanceof PoolVerifier ? { verifyUtilization: () => checker.utilization() } : {}),
    });
    events.blockSaved = (info) => monitor.blockSaved(info);
    // ledgerd_writes_total: one count per submit's outcome, as the ledger tells it (ledger/writeOutcome.ts)
    ledger.writeOutcomes.subscribe((o) => monitor.metrics.write(o));
    const rateWarning = exchangeRateWarning(config, ledger.entryCreditRate());
    if (rateWarning !== undefined) log.warn(rateWarning.message, rateWarning.fields);
    for (const warning of secretWarnings(config)) log.warn(warning);
    if (clusterStart !== undefined && clusterLog !== undefined) {
      const running = clusterStart.createFederation(config, clusterLog, {
        dataDir,
        ledger,
        store,
        signatures: remembering!,
        log,
        cleanups,
        federation: () => federation,
        networkTesting: () => {
          const intake = serverRef.current?.intake;
          return { dropRatePerMille: intake?.dropRatePerMille ?? 0, delayMs: intake?.delayMs ?? 0 };
        },
      });
      federation = running;
      monitor.health.add(consensusCheck(running));
      registerClusterMetrics(monitor.metrics.registry, running);
    }
    if (!ledger.isProducing())
      log.warn(
        `not producing blocks: a standalone node cannot join ${config.network}; serving the saved blocks read-only`,
        {
          network: config.network,
        },
      );

    const anchoring = await openAnchoring(config.anchor, { ledger, log, dataDir, now: () => Date.now() });
    registerAnchorMetrics(monitor.metrics.registry, anchoring);

    let tls: { keyFile: string; certFile: string } | undefined;
    if (config.tls.enabled) {
      const files = await ensureCertificate({
        keyFile: config.tls.keyFile,
        certFile: config.tls.certFile,
        hosts: certificateHosts(config),
      });
      if (files.created) log.info("created a TLS certificate", { certFile: files.certFile });
      tls = { keyFile: files.keyFile, certFile: files.certFile };
    }

    // without the index (-queryindex=false) the query extensions and the feed's filters answer that it is off
    const queries = config.queryIndex ? store.queries : undefined;
    const live = new LiveFeed(DEFAULT_LIVE_FEED_OPTIONS, {
      ledger,
      log,
      ...(queries === undefined ? {} : { queries }),
      anchors: anchoring,
    });

    /** reload-configuration and SIGHUP: re-read the file, apply what applies live (config/index.ts LIVE_KEYS) */
    const reload = (): { config: NodeConfig; restartNeeded: string[] } => {
      const r = reloadConfig(current, opts.argv ?? []);
      current = r.config;
      log.setLevel(current.logLevel, current.consoleLogLevel);
      store.setReserveBytes(current.minFreeDiskMB * 2 ** 20);
      if (
        federation !== undefined &&
        JSON.stringify(current.signingWindow) !== JSON.stringify(federation.signingWindow())
      )
        federation.setSigningWindow(current.signingWindow);
      return { config: current, restartNeeded: r.restartNeeded };
    };
    const server = new RpcServer(
      {
        port: config.port,
        host: config.listenHost,
        ...(tls ? { tls } : {}),
        live,
        ...(config.httpFront ? { front: { socketPath: frontSocketPath(dirname(dataDir)) } } : {}),
      },
      {
        ledger,
        ...(queries === undefined ? {} : { queries }),
        log,
        anchors: anchoring,
        ...(federation === undefined ? {} : { cluster: federation }),
        plainRoutes: monitor.routes,
        requestServed: (endpoint, calls, seconds) => monitor.metrics.requestServed(endpoint, calls, seconds),
        getConfig: () => current,
        reloadConfig: reload,
      },
    );
    serverRef.current = server;
    registerLimitMetrics(monitor.metrics.registry, { live, logins: server.logins });
    // Every page of both environments read once per pass, in the background, from where the last pass stopped
    // (store/scrub.ts): what the start read before it served, O(records) (docs/ledger.md §5). Started below,
    // after the clock; its gauges and the query index's are registered before the first request is served, so
    // the first scrape already shows a rebuild under way (the panel and the clock's start come after listen).
    const scrub = new StoreScrub(
      { paths: [dataDir, join(dataDir, JOURNAL_DIR)] },
      { log, now: Date.now, onDamage: (reason) => store.markDamaged(reason) },
    );
    registerScrubMetrics(monitor.metrics.registry, scrub);
    if (config.queryIndex)
      registerQueryIndexMetrics(monitor.metrics.registry, { queryIndexStatus: () => store.queryIndexStatus() });
    await server.listen();
    warnExposure(config, log);
    cleanups.push(() => server.close());
    // closed before the server (cleanups run in reverse): subscribers get close code 1001
    cleanups.push(() => live.close());
    if (config.metricsPort !== 0) {
      const metricsServer = new MetricsServer(
        { port: config.metricsPort, host: config.listenHost, ...(tls ? { tls } : {}) },
        { routes: monitor.routes, getConfig: () => current, log, logins: server.logins },
      );
      await metricsServer.listen();
      cleanups.push(() => metricsServer.close());
      log.info("metrics listening", {
        url: `${tls ? "https" : "http"}://${config.listenHost}:${metricsServer.port}/metrics`,
      });
    }

    monitor.startWatch();
    cleanups.push(() => monitor.stopWatch());

    const panel = await startPanel(config, { server, live, dataDir, log, ...(tls ? { tls } : {}) });
    if (panel !== undefined) cleanups.push(() => panel.close());

    // The single node's clock ends its minutes; a cluster's federated servers propose them to the log.
    if (federation !== undefined) {
      await federation.start();
    } else {
      const clock = new LedgerClock({ blockTimeSeconds: config.blockTimeSeconds }, { ledger, log });
      if (opts.clock !== false) await clock.start();
      cleanups.push(() => clock.stop());
    }
    // After the clock: the service reads saved blocks and submits through the ledger (in a cluster, the ledger
    // sends writes through the replicated log like any API write); stopped first.
    anchoring.service?.start();
    cleanups.push(() => anchoring.stop());
    scrub.start();
    cleanups.push(() => scrub.stop());

    let stopping: Promise<void> | undefined;
    return {
      ledger,
      store,
      server,
      live,
      panel,
      log,
      anchoring,
      federation,
      monitor,
      port: server.port,
      dataDir,
      config: () => current,
      reload,
      stop: () => {
        stopping ??= unwind();
        return stopping;
      },
    };
  } catch (e) {
    await unwind();
    throw e;
  }
}

/** The start-up error for a port that cannot be bound (the same words as RpcServer.listen's). */
function cannotListen(config: NodeConfig): (e: unknown) => never {
  return (e) => {
    throw new ListenError(
      `cannot listen on ${config.listenHost}:${config.port}: ${e instanceof Error ? e.message : String(e)}`,
    );
  };
}

/**
 * Start the control panel (src/panel/) unless ControlPanelSetting is disabled. A taken port is a warning, not
 * a failed start: the panel is a view of the node, which runs as well without it.
 */
async function startPanel(
  config: NodeConfig,
  deps: {
    server: RpcServer;
    live: LiveFeed;
    dataDir: string;
    log: Logger;
    tls?: { keyFile: string; certFile: string };
  },
): Promise<ControlPanel | undefined> {
  const { port, host, setting } = config.controlPanel;
  if (setting === "disabled") return undefined;
  try {
    if (port !== 0) await assertPortFree(port, host);
  } catch (e) {
    deps.log.warn("control panel not started", {
      reason: e instanceof Error ? e.message : String(e),
      hint: "set [App] ControlPanelPort or -controlpanelport, or ControlPanelSetting = disabled",
    });
    return undefined;
  }
  const panel = new ControlPanel(
    { port, host, setting, ...tls(deps.tls) },
    {
      rpc: deps.server.context,
      live: deps.live,
      dataDir: deps.dataDir,
      apiPort: () => deps.server.port,
      logins: deps.server.logins,
    },
  );
  await panel.listen();
  return panel;
}

function tls(files: { keyFile: string; certFile: string } | undefined): {
  tls?: { keyFile: string; certFile: string };
} {
  return files === undefined ? {} : { tls: files };
}

/**
 * LEDGERD_QUERY_INDEX_REBUILD_PAUSE_MS: ms between two steps of a background rebuild of the query index
 * (store.ts StoreOptions.queryIndexRebuildPauseMs; docs/operations.md). Unset or not a whole number: 0.
 */
function rebuildPauseMs(): number {
  const v = Number(process.env.LEDGERD_QUERY_INDEX_REBUILD_PAUSE_MS ?? "0");
  return Number.isInteger(v) && v > 0 ? Math.min(v, 60_000) : 0;
}
