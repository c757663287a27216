/**
 * How every child `ledgerd` of this project is run — the devnet's nodes, the tests' nodes
 * (test/support/nodeProcess.ts), the load generator's and the benchmarks' (tools/loadgen/nodeProcess.ts) —
 * and how each waits until one serves. The process itself is a ManagedProcess (process.ts).
 *
 * A node runs as `bin/ledgerd` runs it: that file's first line (`#!/usr/bin/env -S [NAME=value …] node
 * [flags …]`) sets glibc's allocator and node's own flags. A caller that adds node flags of its own (a CPU
 * profile) runs `node` directly with the launcher's settings applied from here; either way the child's pid
 * is the node's (env execs node), so signals and /proc readings reach the node itself.
 */
import { existsSync, readFileSync } from "node:fs";
import * as http from "node:http";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "./process.js";

/** The project root: dist/tools/devnet → three levels up. */
export const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), "..", "..", "..", "..");
/** The node's launcher script. */
export const LEDGERD_BIN = join(PROJECT_ROOT, "bin", "ledgerd");
/** The node's compiled entry point (what bin/ledgerd runs). */
const LEDGERD_ENTRY = join(PROJECT_ROOT, "dist", "src", "cli.js");

/** Milliseconds one readiness request may take before it counts as "not yet". */
const READY_REQUEST_TIMEOUT_MS = 2000;

/**
 * What bin/ledgerd's first line sets for the node: the environment (glibc's allocator settings) and node's
 * own flags. Any other first line sets nothing.
 */
export function launcherSettings(shebang: string): { env: Record<string, string>; nodeArgs: string[] } {
  const env: Record<string, string> = {};
  const prefix = "#!/usr/bin/env -S ";
  if (!shebang.startsWith(prefix)) return { env, nodeArgs: [] };
  const words = shebang.slice(prefix.length).trim().split(/\s+/);
  let i = 0;
  for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!); i++) {
    const eq = words[i]!.indexOf("=");
    env[words[i]!.slice(0, eq)] = words[i]!.slice(eq + 1);
  }
  // words[i] is the program (node); the rest are its flags
  return { env, nodeArgs: words.slice(i + 1) };
}

/**
 * The command that runs a node with `ledgerdArgs`: `bin/ledgerd …` when `nodeArgs` is empty, else
 * `node [launcher's node flags] [nodeArgs] dist/src/cli.js …` with the launcher's environment.
 * @param nodeArgs node's own flags, e.g. ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"]
 */
export function ledgerdCommand(
  ledgerdArgs: readonly string[],
  nodeArgs: readonly string[] = [],
): { command: string; args: string[]; env: Record<string, string> } {
  if (nodeArgs.length === 0 || !existsSync(LEDGERD_ENTRY))
    return { command: LEDGERD_BIN, args: [...ledgerdArgs], env: {} };
  const launcher = launcherSettings(readFileSync(LEDGERD_BIN, "utf8").split("\n", 1)[0]!);
  return {
    command: process.execPath,
    args: [...launcher.nodeArgs, ...nodeArgs, LEDGERD_ENTRY, ...ledgerdArgs],
    env: launcher.env,
  };
}

/** True when the node on 127.0.0.1:`port` answers `heights` with a directory block height. */
export function answersHeights(port: number, timeoutMs = READY_REQUEST_TIMEOUT_MS): Promise<boolean> {
  const body = '{"jsonrpc":"2.0","id":0,"method":"heights"}';
  return new Promise((done) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v2",
        agent: false,
        headers: { "Content-Type": "text/plain;", "Content-Length": Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => done(res.statusCode === 200 && text.includes('"directoryblockheight"')));
        res.on("error", () => done(false));
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => done(false));
    req.end(body);
  });
}

/**
 * Wait until the node on `port` answers `heights`. Throws when `gone()` reports (a sentence: why the process
 * is not running any more) or after `timeoutMs`; `describe()` adds the process's output tail to the message.
 * @param pollMs milliseconds between attempts
 */
export async function waitUntilServing(
  port: number,
  options: { timeoutMs: number; pollMs: number; gone: () => string | undefined; describe: () => string },
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const why = options.gone();
    if (why !== undefined) throw new Error(`ledgerd ${why} while starting:\n${options.describe()}`);
    if (await answersHeights(port)) return;
    if (Date.now() - started > options.timeoutMs)
      throw new Error(
        `ledgerd did not answer heights on 127.0.0.1:${port} within ${options.timeoutMs} ms:\n${options.describe()}`,
      );
    await sleep(options.pollMs);
  }
}
