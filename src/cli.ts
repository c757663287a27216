/**
 * The `ledgerd` entry point: parse the command line (config/), start the node (node.ts), print one line,
 * shut down cleanly on SIGINT/SIGTERM (last line "ledgerd: stopped at height N"), and on SIGHUP reopen the log
 * file and reload the configuration file. Exit codes: 0 after a clean stop, 1 when the node cannot start
 * (e.g. the data directory belongs to another network), 2 for a bad command line or configuration file.
 * A forked cluster node restarts itself on a fresh data directory (the fork's kept aside).
 */
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { dirname } from "node:path";
import { ConfigError, loadConfig, logFilePath, parseFlags, usage } from "./config/index.js";
import type { NodeConfig } from "./config/types.js";
import { startHeapGrowthPacer } from "./monitor/heapGrowth.js";
import { startIdleCollector } from "./monitor/idleCollector.js";
import { dataDirectory, type RunningNode, startNode } from "./node.js";
import { StoreError } from "./store/errors.js";
import { NODE_VERSION } from "./version.js";

/** Exit code for a bad command line or configuration (as Go's flag package). */
const EXIT_USAGE = 2;
/** Exit code for a node that could not start. */
const EXIT_START_FAILED = 1;

async function main(argv: string[]): Promise<number> {
  // `ledgerd verify`: check a stopped node's data directory (docs/export.md §5); its modules are loaded only
  // for it, not by every start of the node (docs/performance.md §Restart)
  if (argv[0] === "verify")
    return (await import("./history/commands.js")).runHistoryCommand("verify", argv.slice(1), process);
  let config: NodeConfig;
  let consoleFormat: "json" | "human" = "json";
  try {
    const flags = parseFlags(argv);
    // Short human lines on a terminal (a JSON line per block drowned the one warning that mattered); JSON
    // into pipes, journald and files, or with -logjson.
    consoleFormat = process.stderr.isTTY === true && flags.logJson !== true ? "human" : "json";
    if (flags.help === true) {
      process.stdout.write(usage());
      return 0;
    }
    if (flags.version === true) {
      process.stdout.write(`ledgerd ${NODE_VERSION}\n`);
      return 0;
    }
    config = loadConfig(argv);
    if (flags.waitHealthySeconds !== undefined) return await waitHealthy(config, flags.waitHealthySeconds);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`ledgerd: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }

  // Signal handlers go in before anything starts, so a signal during start-up (or right after the
  // start-up line) is a clean stop, never the default "die at once".
  let node: RunningNode | undefined;
  let signalled = false;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const stop = (running: RunningNode): void => {
    running.stop().then(
      () => {
        process.stdout.write(`ledgerd: stopped at height ${running.ledger.heights().directoryBlockHeight}\n`);
        finish(0);
      },
      (e: unknown) => {
        process.stderr.write(`ledgerd: shutdown failed: ${e instanceof Error ? e.message : String(e)}\n`);
        finish(EXIT_START_FAILED);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      process.stderr.write(`ledgerd: ${signal} again, exiting without a clean stop\n`);
      process.exit(130);
    }
    signalled = true;
    node?.log.info("shutting down", { signal });
    if (node !== undefined) stop(node);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // SIGHUP (logrotate's postrotate, `systemctl reload`): reopen the log file and reload the configuration.
  // Never the default "die": before the node runs, it is ignored.
  process.on("SIGHUP", () => {
    if (node !== undefined && !signalled) onHangUp(node);
  });

  /**
   * A cluster node whose block a majority of federated servers did not sign (a fork) keeps its data
   * directory aside as `<db>.forked-at-<height>` and starts again on an empty one: it rebuilds from the log
   * and the block sets (docs/cluster.md §1.11). Forked again at the same block: it stays stopped.
   */
  const watchFork = (running: RunningNode): void => {
    void running.federation?.whenForked().then(async (height) => {
      if (signalled || node !== running) return;
      const kept = `${running.dataDir}.forked-at-${height}`;
      if (existsSync(kept)) {
        running.log.error("forked again at the same block after a resync: staying stopped, writes refused", {
          height,
          kept,
        });
        return;
      }
      running.log.warn("resyncing: the data directory is kept aside; starting again from the log and block sets", {
        height,
        kept,
      });
      try {
        await running.stop();
        renameSync(running.dataDir, kept);
        node = await startNode(config, { argv, consoleFormat });
      } catch (e) {
        process.stderr.write(`ledgerd: resync failed: ${message(e)}\n`);
        finish(EXIT_START_FAILED);
        return;
      }
      process.stdout.write(`ledgerd: forked at height ${height}; resyncing (the fork's data is in ${kept})\n`);
      if (signalled) stop(node);
      else watchFork(node);
    });
  };

  // what a failed first start must not leave behind (an empty store, its lock file, a log of the failure)
  const created = notYetThere(config);
  try {
    node = await startNode(config, { argv, consoleFormat });
  } catch (e) {
    removeCreated(created);
    const reason = e instanceof StoreError || e instanceof Error ? e.message : String(e);
    process.stderr.write(`ledgerd: cannot start: ${reason}\n`);
    const hint = portHint(reason);
    if (hint !== undefined) process.stderr.write(`ledgerd: ${hint}\n`);
    return EXIT_START_FAILED;
  }
  const h = node.ledger.heights();
  process.stdout.write(
    `ledgerd ${NODE_VERSION}: network ${config.network}, height ${h.directoryBlockHeight}, port ${node.port}, ${panelText(config, node)}, data ${node.dataDir}\n`,
  );
  if (signalled)
    stop(node); // a signal arrived while starting
  else watchFork(node);
  // The process's heap, not one node's: started here, where the process is ours (tests running nodes in
  // their own process do not get them). Their timers are unref'd and never hold up the exit.
  startIdleCollector();
  startHeapGrowthPacer();
  return finished;
}

/** SIGHUP: a new log file first (so the reload's lines land in it), then the configuration file again. */
function onHangUp(node: RunningNode): void {
  try {
    node.log.reopen();
  } catch (e) {
    node.log.error("SIGHUP: cannot reopen the log file; still writing the old one", { error: message(e) });
  }
  try {
    const r = node.reload();
    node.log.info("SIGHUP: configuration reloaded", { restartNeeded: r.restartNeeded });
    if (r.restartNeeded.length > 0) node.log.warn("configuration changes need a restart", { fields: r.restartNeeded });
  } catch (e) {
    node.log.error("SIGHUP: configuration not reloaded; the running one stays", { error: message(e) });
  }
}

/**
 * The outermost of the home, network and data directories that does not exist yet, and the log file if it does
 * not: a start that fails (a port in use) removes them again, so a retry with another port starts clean.
 */
function notYetThere(config: NodeConfig): string[] {
  const out: string[] = [];
  for (const path of [dataDirectory(config), logFilePath(config)]) {
    if (path === "") continue;
    // the outermost missing one of the path and its parents
    let missing: string | undefined;
    for (let p = path; !existsSync(p) && dirname(p) !== p; p = dirname(p)) missing = p;
    if (missing !== undefined && !out.some((o) => missing === o || missing.startsWith(`${o}/`))) out.push(missing);
  }
  return out;
}

function removeCreated(paths: readonly string[]): void {
  for (const p of paths)
    try {
      rmSync(p, { recursive: true, force: true });
    } catch {
      // left behind: the start's own error is what matters
    }
}

/** Milliseconds between /health polls of -waithealthy. */
const HEALTH_POLL_MS = 1000;

/**
 * -waithealthy: poll GET /health of the node `config` describes — https with its certificate under -tls, its
 * port, its listen address (loopback for a wildcard) — until 200 or `seconds` pass. The systemd unit's start
 * check, so that it follows the configuration (it hard-coded http://127.0.0.1:8088).
 */
async function waitHealthy(config: NodeConfig, seconds: number): Promise<number> {
  const wildcard = config.listenHost === "0.0.0.0" || config.listenHost === "::";
  const host = wildcard ? "127.0.0.1" : config.listenHost;
  const url = `${config.tls.enabled ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${config.port}/health`;
  const ca = config.tls.enabled ? readFileSync(config.tls.certFile) : undefined;
  const deadline = Date.now() + seconds * 1000;
  let last = "no answer yet";
  for (;;) {
    try {
      const status = await getStatus(url, ca);
      if (status === 200) {
        process.stdout.write(`ledgerd: healthy at ${url}\n`);
        return 0;
      }
      last = `HTTP ${status}`;
    } catch (e) {
      last = message(e);
    }
    if (Date.now() >= deadline) {
      process.stderr.write(`ledgerd: not healthy at ${url} within ${seconds} s (${last})\n`);
      return EXIT_START_FAILED;
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
}

/** The status of one GET (the body is read and dropped). */
function getStatus(url: string, ca: Buffer | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = (ca === undefined ? httpGet : httpsGet)(url, { ...(ca ? { ca } : {}), timeout: 5000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 5 s")));
    req.on("error", reject);
  });
}

/** What to do about a port in use, from the listen error's text; undefined for other failures. */
function portHint(reason: string): string | undefined {
  const m = /cannot listen on \S+(?: \(metrics\))?: port (\d+) is already in use/.exec(reason);
  if (m === null) return undefined;
  return reason.includes("(metrics)")
    ? `give the metrics listener another port with -metricsport=PORT`
    : `give this node another port with -port=PORT (another ledgerd there? each node needs its own -homedir too)`;
}

/** The start line's word on the control panel: its URL, or why there is none and how to get one. */
function panelText(config: NodeConfig, node: RunningNode): string {
  if (node.panel !== undefined) return `panel ${node.panel.url}`;
  if (config.controlPanel.setting === "disabled") return "panel disabled";
  return `no panel (port ${config.controlPanel.port} is in use; give it another with -controlpanelport=PORT)`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`ledgerd: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(EXIT_START_FAILED);
  },
);
