/**
 * The HTTP load of the read comparison (reads.ts): closed-loop POSTs of pre-serialized JSON-RPC bodies over
 * keep-alive connections on loopback, one request in flight per connection, latency per request.
 *
 * Two generators, same shape of result:
 * - `wrk` (Debian package wrk; `make os-packages-bench` installs it): one thread, a Lua script that cycles
 *   through the bodies, pre-formatted once in `init`; the figures come from its `done` hook as one JSON line.
 *   Written in C, it takes ~0.2 core at 100,000 req/s — the generator the figures were measured with.
 * - worker threads (`threadLoad`), where wrk is absent: each thread keeps its share of the connections busy
 *   with raw `node:net` sockets (no http module: ~4× less CPU per request than node:http here); it needs
 *   more CPU than wrk, so its ratios are lower bounds of the node's.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** What one run of a generator measured. */
export interface HttpLoadResult {
  /** responses received */
  requests: number;
  /** wall time of the timed run, s */
  seconds: number;
  /** non-2xx answers, connection failures, timeouts */
  errors: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  meanUs: number;
}

export interface HttpLoadOptions {
  /** 127.0.0.1 port */
  port: number;
  /** request path, e.g. "/v2" */
  path: string;
  /** JSON-RPC bodies, sent in turn */
  bodies: readonly string[];
  /** connections, each with one request in flight */
  connections: number;
  /** length of the run, s */
  seconds: number;
}

/** Where wrk is, or undefined. */
export function findWrk(): string | undefined {
  for (const dir of (process.env.PATH ?? "/usr/bin").split(":")) {
    const file = path.join(dir, "wrk");
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The Lua script for wrk: bodies as long strings (JSON bodies hold no `]==]`). */
export function wrkScript(requestPath: string, bodies: readonly string[]): string {
  for (const b of bodies) if (b.includes("]==]")) throw new Error("wrk script: a body contains ]==]");
  return [
    "local bodies = {",
    ...bodies.map((b) => `[==[${b}]==],`),
    "}",
    "local requests = {}",
    "local n = 0",
    "init = function(args)",
    "  for k, b in ipairs(bodies) do",
    `    requests[k] = wrk.format("POST", ${JSON.stringify(requestPath)}, {["Content-Type"] = "application/json"}, b)`,
    "  end",
    "end",
    "request = function()",
    "  n = n % #requests + 1",
    "  return requests[n]",
    "end",
    "done = function(summary, latency, requests)",
    "  local e = summary.errors",
    '  io.write(string.format(\'WRKJSON {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f}\\n\',',
    "    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,",
    "    latency:percentile(50), latency:percentile(99), latency.max, latency.mean))",
    "end",
    "",
  ].join("\n");
}

/** Run wrk (one thread) for `options.seconds`. */
export async function wrkRun(wrk: string, options: HttpLoadOptions): Promise<HttpLoadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "ledgerd-wrk-"));
  try {
    const script = path.join(dir, "bodies.lua");
    writeFileSync(script, wrkScript(options.path, options.bodies));
    const args = [
      "-t1",
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      "--timeout",
      "10s",
      "-s",
      script,
      `http://127.0.0.1:${options.port}${options.path}`,
    ];
    const out = await new Promise<string>((resolve, reject) =>
      execFile(wrk, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) =>
        error === null ? resolve(stdout) : reject(new Error(`wrk failed: ${error.message} ${stderr}`)),
      ),
    );
    const line = out.split("\n").find((l) => l.startsWith("WRKJSON "));
    if (line === undefined) throw new Error(`wrk printed no result: ${out.slice(-300)}`);
    const r = JSON.parse(line.slice(8)) as Record<string, number>;
    return {
      requests: r.requests!,
      seconds: r.duration_us! / 1e6,
      errors: r.errors!,
      p50Us: r.p50_us!,
      p99Us: r.p99_us!,
      maxUs: r.max_us!,
      meanUs: r.mean_us!,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a worker thread of `threadLoad` is given. */
interface ThreadJob {
  port: number;
  requests: string[];
  connections: number;
  seconds: number;
}

/** What it sends back: counts and every latency, µs. */
interface ThreadReport {
  requests: number;
  errors: number;
  latencies: Float64Array;
  seconds: number;
}

/** Run the closed loop with `threads` worker threads (the fallback when wrk is absent). */
export async function threadLoad(options: HttpLoadOptions, threads = 2): Promise<HttpLoadResult> {
  const requests = options.bodies.map(
    (b) =>
      `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`,
  );
  const perThread = Array.from(
    { length: threads },
    (_, i) => Math.floor(options.connections / threads) + (i < options.connections % threads ? 1 : 0),
  ).filter((n) => n > 0);
  const file = fileURLToPath(import.meta.url);
  const reports = await Promise.all(
    perThread.map(
      (connections) =>
        new Promise<ThreadReport>((resolve, reject) => {
          const job: ThreadJob = { port: options.port, requests, connections, seconds: options.seconds };
          const w = new Worker(file, { workerData: job });
          w.once("message", (m: ThreadReport) => resolve(m));
          w.once("error", reject);
          w.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`load thread exited with ${code}`))));
        }),
    ),
  );
  const all = new Float64Array(reports.reduce((n, r) => n + r.latencies.length, 0));
  let at = 0;
  for (const r of reports) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const pct = (p: number) =>
    all.length === 0 ? 0 : all[Math.min(all.length - 1, Math.ceil((p / 100) * all.length) - 1)]!;
  const total = reports.reduce((n, r) => n + r.requests, 0);
  return {
    requests: total,
    seconds: Math.max(...reports.map((r) => r.seconds)),
    errors: reports.reduce((n, r) => n + r.errors, 0),
    p50Us: pct(50),
    p99Us: pct(99),
    maxUs: all.length === 0 ? 0 : all[all.length - 1]!,
    meanUs: all.length === 0 ? 0 : all.reduce((a, b) => a + b, 0) / all.length,
  };
}

/** Worker side: `connections` sockets, each sending its next request when the answer is complete. */
async function threadMain(job: ThreadJob): Promise<ThreadReport> {
  const encoded = job.requests.map((r) => Buffer.from(r, "utf8"));
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const endAt = started + job.seconds * 1000;
  const connection = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(job.port, "127.0.0.1");
      socket.setNoDelay(true);
      let buffered: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = () => {
        if (performance.now() >= endAt) {
          socket.end();
          return resolve();
        }
        sentAt = performance.now();
        socket.write(encoded[next++ % encoded.length]!);
      };
      socket.on("connect", send);
      socket.on("error", () => {
        errors++;
        resolve();
      });
      socket.on("close", () => resolve());
      socket.on("data", (chunk: Buffer) => {
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
        const headEnd = buffered.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const head = buffered.toString("latin1", 0, headEnd);
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        const total = headEnd + 4 + (length === null ? 0 : Number(length[1]));
        if (buffered.length < total) return;
        latencies.push((performance.now() - sentAt) * 1000);
        if (head.charCodeAt(9) !== 0x32) errors++; // "HTTP/1.1 2xx"
        buffered = buffered.subarray(total);
        send();
      });
    });
  await Promise.all(Array.from({ length: job.connections }, connection));
  return {
    requests: latencies.length,
    errors,
    latencies: Float64Array.from(latencies),
    seconds: (performance.now() - started) / 1000,
  };
}

if (!isMainThread && parentPort !== null && (workerData as ThreadJob | undefined)?.requests !== undefined) {
  const report = await threadMain(workerData as ThreadJob);
  parentPort.postMessage(report, [report.latencies.buffer as ArrayBuffer]);
}
