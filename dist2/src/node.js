/**
 * Composition root (DESIGN §2): configuration → store → verifier → ledger → RPC server → clock.
 * `startNode` returns a running node; `stop()` shuts it down in the reverse order (clock first, so no
 * block is closing while the server and the store go away).
 */
import { join } from "node:path";
import { openAnchoring } from "./anchor/anchoring.js";
import { clusterNames, federationOptions } from "./cluster/clusterConfig.js";
import { Federation } from "./cluster/federation.js";
import { JetStreamLog } from "./cluster/jetStreamLog.js";
import { customLedgerOptions } from "./config/customNetwork.js";
import { exchangeRateWarning } from "./config/exchangeRate.js";
import { logFilePath, reloadConfig } from "./config/index.js";
import { LedgerClock } from "./ledger/clock.js";
import { Ledger } from "./ledger/ledger.js";
import { createLogger } from "./log/logger.js";
import { networkId } from "./protocol/network.js";
import { warnExposure } from "./rpc/exposure.js";
import { DEFAULT_LIVE_FEED_OPTIONS, LiveFeed } from "./rpc/live/feed.js";
import { assertPortFree } from "./rpc/portCheck.js";
import { RpcServer } from "./rpc/server.js";
import { certificateHosts, ensureCertificate } from "./rpc/tls.js";
import { DirectoryLock } from "./store/directoryLock.js";
import { LedgerStore } from "./store/store.js";
import { PoolVerifier } from "./workers/pool.js";
import { InlineVerifier } from "./workers/verifier.js";
/** The LMDB directory of a configuration: `${homeDir}/${network lowercase}/db`. */
export function dataDirectory(config) {
    return join(config.homeDir, config.network.toLowerCase(), "db");
}
/**
 * Start a node. Throws (after closing whatever it opened) on a data directory another process holds, a
 * store that belongs to another network or format (StoreError), a port in use, or a bad TLS file.
 */
export async function startNode(config, opts = {}) {
    const ownLog = opts.log === undefined;
    const log = opts.log ??
        createLogger({ level: config.logLevel, consoleLevel: config.consoleLogLevel, file: logFilePath(config) });
    const cleanups = [];
    const unwind = async () => {
        for (const c of cleanups.reverse()) {
            try {
                await c();
            }
            catch (e) {
                log.error("shutdown step failed", { error: e instanceof Error ? e.message : String(e) });
            }
        }
        cleanups.length = 0;
    };
    if (ownLog)
        cleanups.push(() => log.close());
    try {
        const dataDir = dataDirectory(config);
        // Before anything is opened or replayed: one process per data directory (directoryLock.ts), and a node
        // that could not serve its port must not replay the journal (or close a block) first.
        const lock = DirectoryLock.acquire(dataDir);
        cleanups.push(() => lock.release());
        if (config.port !== 0)
            await assertPortFree(config.port, config.listenHost).catch(cannotListen(config));
        const store = LedgerStore.open({
            verify: true,
            path: dataDir,
            network: config.network,
            networkId: networkId(config.network, config.customNet),
            reserveBytes: config.minFreeDiskMB * 2 ** 20,
        });
        cleanups.push(() => store.close());
        const verifier = config.verifyThreads > 0 ? new PoolVerifier({ threads: config.verifyThreads }) : new InlineVerifier();
        cleanups.push(() => verifier.close());
        // A cluster node: the replicated log first (it waits for NATS), then the ledger writing through it.
        const clustered = config.cluster.natsUrls.length > 0;
        // the federation reads the API's drop/delay knobs; the server is made after it
        const serverRef = { current: undefined };
        let federation;
        let replicatedLog;
        if (clustered) {
            const names = clusterNames(config);
            replicatedLog = await JetStreamLog.open({
                servers: config.cluster.natsUrls,
                stream: names.stream,
                subjectPrefix: names.subjectPrefix,
                replicas: config.cluster.replicas,
                name: `ledgerd ${config.cluster.role} :${config.port}`,
                ...(config.cluster.natsUser === ""
                    ? {}
                    : { user: config.cluster.natsUser, pass: config.cluster.natsPassword }),
                ...(config.cluster.natsTls === undefined ? {} : { tls: config.cluster.natsTls }),
            }, { log });
            const opened = replicatedLog;
            cleanups.push(() => opened.close());
        }
        const ledger = Ledger.open({
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
        }, {
            store,
            verifier,
            log,
            ...(clustered
                ? { replicated: { submit: (msg) => federation.submit(msg), isPending: (h) => federation.isPending(h) } }
                : {}),
        });
        cleanups.push(() => ledger.close());
        const rateWarning = exchangeRateWarning(config, ledger.entryCreditRate());
        if (rateWarning !== undefined)
            log.warn(rateWarning.message, rateWarning.fields);
        if (replicatedLog !== undefined) {
            federation = new Federation(federationOptions(config), {
                ledger,
                log: replicatedLog,
                logger: log,
                networkTesting: () => {
                    const intake = serverRef.current?.intake;
                    return { dropRatePerMille: intake?.dropRatePerMille ?? 0, delayMs: intake?.delayMs ?? 0 };
                },
            });
            const running = federation;
            cleanups.push(() => running.stop());
        }
        if (!ledger.isProducing())
            log.warn(`not producing blocks: a standalone node cannot join ${config.network}; serving the saved blocks read-only`, {
                network: config.network,
            });
        const anchoring = openAnchoring(config.anchor, { ledger, log, dataDir, now: () => Date.now() });
        let tls;
        if (config.tls.enabled) {
            const files = await ensureCertificate({
                keyFile: config.tls.keyFile,
                certFile: config.tls.certFile,
                hosts: certificateHosts(config),
            });
            if (files.created)
                log.info("created a TLS certificate", { certFile: files.certFile });
            tls = { keyFile: files.keyFile, certFile: files.certFile };
        }
        let current = config;
        const live = new LiveFeed(DEFAULT_LIVE_FEED_OPTIONS, { ledger, log });
        const server = new RpcServer({ port: config.port, host: config.listenHost, ...(tls ? { tls } : {}), live }, {
            ledger,
            log,
            anchors: anchoring,
            ...(federation === undefined ? {} : { cluster: federation }),
            getConfig: () => current,
            reloadConfig: () => {
                const r = reloadConfig(current, opts.argv ?? []);
                current = r.config;
                log.setLevel(current.logLevel, current.consoleLogLevel);
                store.setReserveBytes(current.minFreeDiskMB * 2 ** 20);
                return { config: current, restartNeeded: r.restartNeeded };
            },
        });
        serverRef.current = server;
        await server.listen();
        warnExposure(config, log);
        cleanups.push(() => server.close());
        // closed before the server (cleanups run in reverse): subscribers get close code 1001
        cleanups.push(() => live.close());
        // The single node's clock ends its minutes; a cluster's federated servers propose them to the log.
        if (federation !== undefined) {
            await federation.start();
        }
        else {
            const clock = new LedgerClock({ blockTimeSeconds: config.blockTimeSeconds }, { ledger, log });
            if (opts.clock !== false)
                await clock.start();
            cleanups.push(() => clock.stop());
        }
        // After the clock: the service reads saved blocks and submits through the ledger (in a cluster, the ledger
        // sends writes through the replicated log like any API write); stopped first.
        anchoring.service?.start();
        cleanups.push(() => anchoring.stop());
        let stopping;
        return {
            ledger,
            store,
            server,
            live,
            log,
            anchoring,
            federation,
            port: server.port,
            dataDir,
            config: () => current,
            stop: () => {
                stopping ??= unwind();
                return stopping;
            },
        };
    }
    catch (e) {
        await unwind();
        throw e;
    }
}
/** The start-up error for a port that cannot be bound (the same words as RpcServer.listen's). */
function cannotListen(config) {
    return (e) => {
        throw new Error(`cannot listen on ${config.listenHost}:${config.port}: ${e instanceof Error ? e.message : String(e)}`);
    };
}
//# sourceMappingURL=node.js.map