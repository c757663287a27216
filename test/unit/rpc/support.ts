/**
 * Starts the real RpcServer on a loopback port for the HTTP/envelope tests. The configuration is a real
 * one (config/loadConfig on a temp home) held in a mutable box, so a test can change credentials or CORS
 * while the server runs, as reload-configuration does. The logger is the real one writing into a list.
 *
 * The ledger: these tests exercise only what happens before any ledger call (HTTP, auth, CORS, limits,
 * envelope, params validation, the debug intake knobs). The ledger given is an absent one — every call
 * throws — so a test that reached the ledger would fail with -32603 rather than pass on invented data.
 * Method behaviour against the real ledger is tested in test/integration/rpc-*.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config/index.js";
import type { NodeConfig } from "../../../src/config/types.js";
import type { LedgerApi, LedgerDebugApi } from "../../../src/ledger/api.js";
import { createLogger } from "../../../src/log/logger.js";
import { RpcServer } from "../../../src/rpc/server.js";

export interface TestServer {
  server: RpcServer;
  base: string;
  config: NodeConfig;
  logs: string[];
  close(): Promise<void>;
}

/** A ledger that is not there: any call throws. */
export function absentLedger(): LedgerApi & LedgerDebugApi {
  return new Proxy({} as LedgerApi & LedgerDebugApi, {
    get(_target, name) {
      return () => {
        throw new Error(`ledger.${String(name)} called in an envelope test`);
      };
    },
  });
}

/** Start a server on 127.0.0.1 with a free port; `overrides` change the loaded configuration. */
export async function startTestServer(overrides: Partial<NodeConfig> = {}): Promise<TestServer> {
  const home = mkdtempSync(join(tmpdir(), "ledgerd-rpc-"));
  const config: NodeConfig = { ...loadConfig(["-network=LOCAL", `-homedir=${home}`], { HOME: home }), ...overrides };
  const logs: string[] = [];
  const log = createLogger({ level: "none", consoleLevel: "debug" }, { stderr: { write: (l: string) => logs.push(l) } });
  const server = new RpcServer(
    { port: 0, host: "127.0.0.1" },
    {
      ledger: absentLedger(),
      log,
      getConfig: () => config,
      reloadConfig: () => ({ config, restartNeeded: [] }),
    },
  );
  await server.listen();
  return {
    server,
    base: `http://127.0.0.1:${server.port}`,
    config,
    logs,
    async close() {
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
