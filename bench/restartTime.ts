/**
 * Restart to serving, and anonymous memory at rest, on a kept data directory (docs/performance.md §Restart):
 * starts `ledgerd` (a checkout's `bin/ledgerd`, so two builds can be compared on one store, alternated) on
 * `--homedir`, times from the spawn to the first answer of `heights` on `/v2`, then waits `--rest` seconds
 * and reads `RssAnon` from /proc, and stops the node with SIGTERM. Beside the wall time, the CPU time the node
 * (and any child it waited for) used until it served: on this shared machine the wall time moves with the load
 * (an empty store: 1–15 s at load 7–35), the CPU time much less. `--runs` starts, one line each.
 * `--cpu-prof DIR`: the node runs under `node --cpu-prof` (one profile per thread into DIR, written when it
 * stops), with the settings of `bin/ledgerd`'s first line, to see where the start's CPU goes.
 *
 *   node dist/bench/restartTime.js --homedir DIR [--checkout /work/main] [--runs 5] [--rest 20] [--cpu-prof DIR]
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { freeLoopbackPort } from "../tools/net/freePorts.js";

/** Poll period while waiting for the first answer, ms (the resolution of the figure). */
const POLL_MS = 10;
/** Longest wait for a start, ms. */
const START_TIMEOUT_MS = 120_000;
/** Linux's USER_HZ (clock ticks per second of /proc/<pid>/stat). */
const CLOCK_TICKS = 100;

const { values } = parseArgs({
  options: {
    homedir: { type: "string" },
    checkout: { type: "string", default: join(import.meta.dirname, "..", "..") },
    runs: { type: "string", default: "3" },
    rest: { type: "string", default: "20" },
    "cpu-prof": { type: "string" },
  },
});
if (values.homedir === undefined) {
  process.stderr.write("usage: restartTime.js --homedir DIR [--checkout DIR] [--runs N] [--rest S]\n");
  process.exit(2);
}
const homedir = values.homedir;

function heights(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "heights", params: {} });
    const req = request(
      { host: "127.0.0.1", port, path: "/v2", method: "POST", headers: { "Content-Type": "application/json" } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
        });
        res.on("end", () => resolve(res.statusCode === 200 && text.includes("directoryblockheight")));
      },
    );
    req.on("error", () => resolve(false));
    req.end(body);
  });
}

/** CPU time of `pid` and of its waited-for children (a read-through child started with spawnSync), ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // after the command: state is field 3, so utime … cstime (fields 14–17) are at 11–14 here
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

function rssAnonKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/** `bin/ledgerd`'s first line, for a node started through `node --cpu-prof` (the shebang is not read then). */
const LAUNCHER_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "32768", MALLOC_TRIM_THRESHOLD_: "131072" };

function startNode(port: number): ReturnType<typeof spawn> {
  const bin = join(values.checkout!, "bin", "ledgerd");
  const args = ["-network=LOCAL", `-homedir=${homedir}`, `-port=${port}`, "-controlpanelport=0", "-blktime=600"];
  const stdio: ["ignore", "ignore", "inherit"] = ["ignore", "ignore", "inherit"];
  const profDir = values["cpu-prof"];
  if (profDir === undefined) return spawn(bin, args, { stdio });
  return spawn(
    process.execPath,
    ["--heap-growing-percent=25", "--cpu-prof", `--cpu-prof-dir=${profDir}`, "--cpu-prof-interval=250", bin, ...args],
    { stdio, env: { ...process.env, ...LAUNCHER_ENV } },
  );
}

for (let run = 1; run <= Number(values.runs); run++) {
  const port = await freeLoopbackPort();
  const started = performance.now();
  const child = startNode(port);
  let servingMs = Number.NaN;
  let servingCpuMs = Number.NaN;
  while (performance.now() - started < START_TIMEOUT_MS) {
    if (await heights(port)) {
      servingMs = performance.now() - started;
      servingCpuMs = cpuMs(child.pid!);
      break;
    }
    if (child.exitCode !== null) break;
    await sleep(POLL_MS);
  }
  await sleep(Number(values.rest) * 1000);
  const anon = child.exitCode === null ? rssAnonKiB(child.pid!) : Number.NaN;
  const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
  process.stdout.write(
    `run ${run}: serving after ${servingMs.toFixed(0)} ms (${servingCpuMs.toFixed(0)} ms of CPU); RssAnon at rest (${values.rest} s) ${(anon / 1024).toFixed(1)} MiB; load ${load}\n`,
  );
  child.kill("SIGTERM");
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.on("exit", () => resolve())));
}
