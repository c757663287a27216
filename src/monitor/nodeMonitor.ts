/**
 * The monitoring side of a running node, wired once (node.ts): its health checks, its metrics, and the
 * `/health` and `/metrics` routes that serve them on the API port and on the optional metrics port.
 */
import type { NodeConfig } from "../config/types.js";
import type { LedgerApi, LedgerDebugApi } from "../ledger/api.js";
import type { SavedBlockInfo } from "../ledger/close.js";
import type { Logger } from "../log/logger.js";
import { debugMethods } from "../rpc/debug/index.js";
import type { PlainRoute } from "../rpc/plainRoutes.js";
import { v2Methods } from "../rpc/v2/index.js";
import { HEALTH_WATCH_INTERVAL_MS, HealthChecks, HealthWatch, nodeHealthChecks } from "./health.js";
import { NodeMetrics } from "./metrics.js";

export interface NodeMonitorDependencies {
  ledger: LedgerApi &
    LedgerDebugApi & {
      isProducing(): boolean;
      openBlock(): { startMs: number; minuteStartMs: number };
      openBlockSizes(): { commits: number; reveals: number; transactions: number; held: number };
    };
  store: { assertWritable(): void };
  /** the LMDB directory */
  dataDir: string;
  getConfig(): NodeConfig;
  log: Logger;
  /** share of the verify pool in use (absent: inline verification) */
  verifyUtilization?: () => number;
}

export interface NodeMonitor {
  readonly health: HealthChecks;
  readonly metrics: NodeMetrics;
  /** /health (no auth) and /metrics (the API's Basic auth when configured) */
  readonly routes: readonly PlainRoute[];
  /** feed of the ledger's saved blocks (Ledger dependencies' `events`) */
  blockSaved(info: SavedBlockInfo): void;
  /** log each health check's change from now on (HealthWatch) */
  startWatch(): void;
  stopWatch(): void;
}

/** The health body: `status`, the newest saved height, `failing` reasons, and every check's verdict. */
const JSON_TYPE = "application/json; charset=utf-8";

export function createNodeMonitor(deps: NodeMonitorDependencies): NodeMonitor {
  const { ledger } = deps;
  const health = new HealthChecks(
    nodeHealthChecks({ ledger, store: deps.store, blockTimeSeconds: () => deps.getConfig().blockTimeSeconds }),
  );
  const metrics = new NodeMetrics(
    {
      ledger,
      dataDir: deps.dataDir,
      reserveBytes: () => deps.getConfig().minFreeDiskMB * 2 ** 20,
      ...(deps.verifyUtilization ? { verifyUtilization: deps.verifyUtilization } : {}),
      now: () => Date.now(),
    },
    new Set([...v2Methods().keys(), ...debugMethods().keys()]),
  );
  const routes: PlainRoute[] = [
    {
      path: "/health",
      auth: false,
      answer: () => {
        const report = health.evaluate(Date.now());
        const body = { ...report, height: ledger.heights().directoryBlockHeight };
        return {
          status: report.status === "ok" ? 200 : 503,
          contentType: JSON_TYPE,
          body: `${JSON.stringify(body)}\n`,
          headers: [["Cache-Control", "no-store"]],
        };
      },
    },
    {
      path: "/metrics",
      auth: true,
      answer: async () => {
        const m = await metrics.exposition();
        return { status: 200, contentType: m.contentType, body: m.body };
      },
    },
  ];
  const watch = new HealthWatch(
    { intervalMs: HEALTH_WATCH_INTERVAL_MS },
    { health, log: deps.log, now: () => Date.now() },
  );
  return {
    startWatch: () => watch.start(),
    stopWatch: () => watch.stop(),
    health,
    metrics,
    routes,
    blockSaved: (info) => {
      if (!info.replayed) metrics.blockClosed(info.closeMs / 1000);
    },
  };
}
