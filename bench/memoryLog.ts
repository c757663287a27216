/**
 * Per-thread memory of a running node, for breaking its anonymous RSS down (docs/performance.md §Memory).
 * Loaded with `--import`, so every thread started with the node's own flags loads it too (the block-set
 * writer; not the verify pool's threads, which piscina starts with flags of its own):
 *
 *   LEDGERD_MEMORY_LOG=/tmp/mem.jsonl node dist/tools/loadgen/cli.js --scenario=writes \
 *     --node-arg=--import=./dist/bench/memoryLog.js
 *
 * Every LEDGERD_MEMORY_LOG_MS (default 1,000 ms) each thread appends one JSON line: its thread id, its
 * isolate's heap (total, used, physical, malloc'ed by V8, committed per heap space) and external memory
 * (ArrayBuffers); the main thread adds the process's RssAnon / RssFile (/proc/self/status) and its thread
 * count. Without LEDGERD_MEMORY_LOG it does nothing. The timers are unref'd: they never keep a thread alive.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import { isMainThread, threadId } from "node:worker_threads";

const file = process.env.LEDGERD_MEMORY_LOG;
const everyMs = Number(process.env.LEDGERD_MEMORY_LOG_MS ?? 1000);

/** A field of /proc/self/status in bytes (its figures are kB). */
function statusBytes(status: string, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+)`).exec(status);
  return m === null ? Number.NaN : Number(m[1]) * 1024;
}

function sample(): Record<string, number | boolean> {
  const m = process.memoryUsage();
  const h = getHeapStatistics();
  const line: Record<string, number | boolean> = {
    timeMs: Date.now(),
    thread: threadId,
    main: isMainThread,
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    heapPhysical: h.total_physical_size,
    v8Malloced: h.malloced_memory,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
  };
  // committed bytes per heap space (new_space, old_space, code_space, large_object_space, …): which part of
  // the heap grew and which one V8 gives back
  for (const space of getHeapSpaceStatistics()) line[space.space_name] = space.space_size;
  if (isMainThread) {
    const status = readFileSync("/proc/self/status", "utf8");
    line.rssAnon = statusBytes(status, "RssAnon");
    line.rssFile = statusBytes(status, "RssFile");
    line.threads = statusBytes(status, "Threads") / 1024;
  }
  return line;
}

if (file !== undefined && file !== "" && Number.isFinite(everyMs) && everyMs > 0) {
  setInterval(() => {
    try {
      appendFileSync(file, `${JSON.stringify(sample())}\n`);
    } catch {
      // a log that cannot be written must not disturb the node it measures
    }
  }, everyMs).unref();
}
