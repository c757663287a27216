/**
 * The real node (src/node.ts startNode) on a loopback port with a temp home directory, for the RPC
 * integration tests, plus a JSON-RPC caller that can record exchanges (for docs/api.md: set
 * RPC_CAPTURE=<file> and the first few successes and errors of each method are written there as JSON).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { CONFIG_FILE_NAME, loadConfig } from "../../../src/config/index.js";
import type { NodeConfig } from "../../../src/config/types.js";
import { createLogger } from "../../../src/log/logger.js";
import { type RunningNode, startNode } from "../../../src/node.js";
import type { KeyPair } from "../../../src/protocol/address.js";
import { buyCredits, ecKeyOf, type RpcCall } from "../../support/ledgerWrites.js";
import { waitFor } from "../../support/waitFor.js";
import { rawRequest } from "./httpClient.js";

export interface Exchange {
  path: string;
  request: string;
  status: number;
  response: string;
}

export interface TestNode {
  node: RunningNode;
  base: string;
  home: string;
  /** JSON-RPC call; resolves with the HTTP status and the parsed body */
  call(method: string, params?: unknown, options?: { path?: string; auth?: string }): Promise<CallResult>;
  stop(): Promise<void>;
}

export interface CallResult {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test boundary — JSON results are inspected field by field
  result: any;
  error?: { code: number; message: string; data?: unknown };
  id: unknown;
}

/** Exchanges recorded for the docs, keyed `path method ok|error`: the first few of each. */
const captured = new Map<string, Exchange[]>();
const CAPTURE_PER_KEY = 40;

/** Write the captured exchanges to RPC_CAPTURE (if set), merged with what the file already holds. */
export function flushCapture(): void {
  const file = process.env.RPC_CAPTURE;
  if (file === undefined || file === "") return;
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Exchange[]>) : {};
  writeFileSync(file, JSON.stringify({ ...previous, ...Object.fromEntries(captured) }, null, 1));
}

/**
 * Start a LOCAL node. `blockTimeSeconds` small keeps the flow quick (a minute is a tenth of it).
 * @param flags extra command-line flags (e.g. "-journaling=true")
 */
export async function startTestNode(
  options: { blockTimeSeconds?: number; flags?: string[]; config?: Partial<NodeConfig>; configFile?: string } = {},
): Promise<TestNode> {
  const home = mkdtempSync(join(tmpdir(), "ledgerd-rpcnode-"));
  if (options.configFile !== undefined) writeFileSync(join(home, CONFIG_FILE_NAME), options.configFile);
  const argv = [
    "-network=LOCAL",
    `-homedir=${home}`,
    `-blktime=${options.blockTimeSeconds ?? 2}`,
    "-port=0",
    "-controlpanelport=0",
    ...(options.flags ?? []),
  ];
  const consoleLevel = process.env.RPC_TEST_LOG === "1" ? "debug" : "error";
  const config: NodeConfig = {
    ...loadConfig(argv, { HOME: home }),
    listenHost: "127.0.0.1",
    logLevel: "none",
    consoleLogLevel: consoleLevel,
    ...(options.config ?? {}),
  };
  const log = createLogger({ level: "none", consoleLevel });
  const node = await startNode(config, { argv, log });
  const base = `http://127.0.0.1:${node.port}`;
  return {
    node,
    base,
    home,
    async call(method, params, opts = {}) {
      const path = opts.path ?? "/v2";
      const body: Record<string, unknown> = { jsonrpc: "2.0", id: 1, method };
      if (params !== undefined) body.params = params;
      const request = JSON.stringify(body);
      const headers: Record<string, string> = { "Content-Type": "text/plain;" };
      if (opts.auth !== undefined) headers.Authorization = opts.auth;
      const a = await rawRequest(base, { path, body: request, headers });
      let json: { id?: unknown; result?: unknown; error?: CallResult["error"] } = {};
      try {
        json = JSON.parse(a.text) as typeof json;
      } catch {
        json = {};
      }
      const key = `${path} ${method} ${json.error === undefined ? "ok" : "error"}`;
      const list = captured.get(key) ?? [];
      const fresh = !list.some((x) => x.response === a.text);
      if (a.status !== 401 && fresh && list.length < CAPTURE_PER_KEY)
        captured.set(key, [...list, { path, request, status: a.status, response: a.text }]);
      return { status: a.status, text: a.text, result: json.result, error: json.error, id: json.id };
    },
    async stop() {
      await node.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The tests' one polling helper (test/support/waitFor.ts), here for the callers that import the harness. */
export { waitFor };

/**
 * A LOCAL node for the enclosing `describe`: started before its tests (handed to `use` with a `resultsOf` caller),
 * stopped after them.
 */
export function nodeForSuite(
  use: (t: TestNode, call: RpcCall) => void,
  options: Parameters<typeof startTestNode>[0] = { blockTimeSeconds: 2 },
): void {
  let started: TestNode | undefined;
  before(async () => {
    started = await startTestNode(options);
    use(started, resultsOf(started));
  });
  after(async () => {
    await started?.stop();
  });
}

/** A JSON-RPC caller of `t` that resolves with the answer's `result` and throws on an error answer. */
export function resultsOf(t: TestNode): RpcCall {
  return async (method, params) => {
    const r = await t.call(method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
}

/** An EC key (from `label`) with `credits` entry credits bought from the genesis key and seen in its balance. */
export async function fundedEcKey(call: RpcCall, label: string, credits: number): Promise<KeyPair> {
  const ec = ecKeyOf(label);
  await buyCredits(call, ec, credits);
  await waitFor("credits", async () => {
    const b = (await call("entry-credit-balance", { address: ec.publicAddress })) as { balance: number };
    return b.balance >= credits ? true : undefined;
  });
  return ec;
}
