/**
 * What a rebuild of the query index costs the node that does it (store/queryIndexRebuild.ts, docs/ledger.md
 * §Query index "Rebuild"), on a copy of a filled store: the marker is set to layout 1 (an upgrade), then
 *
 * - `--mode=background`: `LedgerStore.open` (which returns at once and rebuilds on the writer thread), the main
 *   thread's event-loop delay while the rebuild runs (what a request waits behind it), the open's time, the
 *   rebuild's wall time, the process's CPU (both threads), the progress lines;
 * - `--mode=sync`: the previous behaviour, `catchUpQueryIndex` on the main thread before anything is served;
 * - `--mode=idle`: the same loop and reads for `--seconds` (default 30) with the index current and no rebuild: the
 *   event-loop delay the machine's load alone gives, to compare with `background`'s.
 *
 *   cp -a /tmp/disk-B /tmp/copy && node dist/bench/queryIndexRebuild.js --store=/tmp/copy/local/db --mode=background
 *
 * The copy is modified (its index rebuilt); never point it at a store that matters.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { networkId } from "../src/protocol/network.js";
import { openDatabases, openEnvironment } from "../src/store/environment.js";
import { catchUpQueryIndex, QUERY_INDEX_MARKER } from "../src/store/queryIndex.js";
import { LedgerStore } from "../src/store/store.js";

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

const store = arg("store");
const mode = arg("mode") ?? "background";
if (store === undefined || (mode !== "background" && mode !== "sync" && mode !== "idle")) {
  console.error("usage: queryIndexRebuild.js --store=DIR --mode=background|sync|idle [--seconds=30]");
  process.exit(2);
}

/** Mark the index as layout 1, as a node upgraded from that build finds it. */
async function markLayout1(path: string): Promise<void> {
  const env = openEnvironment(path, "store");
  const dbs = openDatabases(env);
  const b = Buffer.alloc(8);
  b.writeUInt32BE(1, 0);
  b.writeUInt32BE(0, 4);
  await dbs.meta.put(Buffer.from(QUERY_INDEX_MARKER, "ascii"), b);
  await env.close();
}

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const idleUntil = performance.now() + Number(arg("seconds") ?? 30) * 1000;
if (mode !== "idle") await markLayout1(store);
const cpu0 = cpu();
const t0 = performance.now();
if (mode === "sync") {
  const env = openEnvironment(store, "store");
  const heights = catchUpQueryIndex(env, openDatabases(env));
  await env.close();
  console.log(
    JSON.stringify({
      mode,
      heights,
      wallS: (performance.now() - t0) / 1000,
      cpuS: cpu() - cpu0,
      servedAfterS: (performance.now() - t0) / 1000,
    }),
  );
} else {
  const lines: string[] = [];
  const s = LedgerStore.open({
    path: store,
    network: "LOCAL",
    networkId: networkId("LOCAL"),
    log: (line) => {
      lines.push(line);
      console.error(`${((performance.now() - t0) / 1000).toFixed(1)} s ${line}`);
    },
  });
  const openMs = performance.now() - t0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // a read of the kind a request makes, every 10 ms: its own time is what the main thread has to give
  let reads = 0;
  let slowestReadMs = 0;
  while (mode === "idle" ? performance.now() < idleUntil : s.queryIndexStatus().rebuilding) {
    await new Promise((r) => setTimeout(r, 10));
    const r0 = performance.now();
    s.savedHeight();
    s.queries.rebuilding();
    slowestReadMs = Math.max(slowestReadMs, performance.now() - r0);
    reads++;
  }
  delay.disable();
  const wallS = (performance.now() - t0) / 1000;
  const status = s.queryIndexStatus();
  await s.close();
  console.log(
    JSON.stringify({
      mode,
      openMs: Math.round(openMs),
      wallS: Number(wallS.toFixed(1)),
      cpuS: Number((cpu() - cpu0).toFixed(1)),
      entries: status.entriesIndexed,
      longestStepMs: status.longestStepMs,
      loopDelayMs: {
        p50: delay.percentile(50) / 1e6,
        p99: delay.percentile(99) / 1e6,
        max: delay.max / 1e6,
      },
      reads,
      slowestReadMs: Number(slowestReadMs.toFixed(2)),
      lastLine: lines.at(-1),
    }),
  );
}
