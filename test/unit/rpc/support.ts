/**
 * The real node (startNode: store, ledger, RpcServer) on a loopback port with a temp home, for the
 * HTTP/envelope tests. The block clock is off: these tests need the server and a ledger that answers, not
 * block production. The configuration object handed to the node is the one the server reads on every
 * request (`getConfig()`), so a test can change credentials or CORS while it runs, as
 * reload-configuration does. The logger is the real one, writing into `logs`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config/index.js";
import type { NodeConfig } from "../../../src/config/types.js";
import { createLogger } from "../../../src/log/logger.js";
import { type RunningNode, startNode } from "../../../src/node.js";
import type { RpcServer } from "../../../src/rpc/server.js";

export interface TestServer {
  node: RunningNode;
  server: RpcServer;
  base: string;
  config: NodeConfig;
  logs: string[];
  close(): Promise<void>;
}

/** Start a LOCAL node on 127.0.0.1 with a free port; `overrides` change the loaded configuration. */
export async function startTestServer(overrides: Partial<NodeConfig> = {}): Promise<TestServer> {
  const home = mkdtempSync(join(tmpdir(), "ledgerd-rpc-"));
  const argv = ["-network=LOCAL", `-homedir=${home}`, "-port=0", "-controlpanelport=0"];
  const config: NodeConfig = {
    ...loadConfig(argv, { HOME: home }),
    listenHost: "127.0.0.1",
    verifyThreads: 0,
    ...overrides,
  };
  const logs: string[] = [];
  const log = createLogger(
    { level: "none", consoleLevel: "debug" },
    { stderr: { write: (l: string) => logs.push(l) } },
  );
  const node = await startNode(config, { argv, log, clock: false });
  return {
    node,
    server: node.server,
    base: `${config.tls.enabled ? "https" : "http"}://127.0.0.1:${node.port}`,
    config,
    logs,
    async close() {
      await node.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
