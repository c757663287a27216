/**
 * A new user's first run: the launchers of an unbuilt checkout say "run `make build` first" (no stack trace),
 * `make run` takes PORT/HOMEDIR (or the quickstart's LEDGERD_PORT/LEDGERD_HOME), and an `[App] ExchangeRate`
 * that cannot take effect is reported at start instead of silently doing nothing.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { killAllNodes, LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";

after(() => killAllNodes());

const LAUNCHERS = ["ledgerd", "ledgerd-wallet", "ledgerd-backup", "ledgerd-devnet"] as const;

describe("first run", () => {
  test("an unbuilt checkout's launchers say to run `make build` first", () => {
    const checkout = mkdtempSync(join(tmpdir(), "ledgerd-unbuilt-"));
    try {
      mkdirSync(join(checkout, "bin"));
      copyFileSync(join(PROJECT_ROOT, "package.json"), join(checkout, "package.json"));
      for (const name of LAUNCHERS) copyFileSync(join(PROJECT_ROOT, "bin", name), join(checkout, "bin", name));
      for (const name of LAUNCHERS) {
        const r = spawnSync(join(checkout, "bin", name), ["-h"], { encoding: "utf8", timeout: 120_000 });
        assert.equal(r.status, 1, `${name}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^${name}: not built yet: run \`make build\` first`));
        assert.doesNotMatch(r.stderr, /ERR_MODULE_NOT_FOUND|\n\s+at /, `${name} printed a stack trace`);
      }
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  test("make run takes PORT, HOMEDIR and PANELPORT, else LEDGERD_PORT, LEDGERD_HOME and LEDGERD_PANELPORT; the panel defaults to the API port + 2", () => {
    // -n: print the commands, run none (a real `make run` rebuilds dist/ under the other tests).
    const env = { ...process.env };
    // and none of the outer make's variables when the suite runs under `make test`
    for (const name of [
      "LEDGERD_PORT",
      "LEDGERD_HOME",
      "LEDGERD_PANELPORT",
      "PORT",
      "HOMEDIR",
      "PANELPORT",
      "MAKEFLAGS",
      "MAKELEVEL",
      "MFLAGS",
    ])
      delete env[name];
    const dry = (args: string[], extra: Record<string, string> = {}): string => {
      const r = spawnSync("make", ["-n", "--no-print-directory", "run", ...args], {
        cwd: PROJECT_ROOT,
        encoding: "utf8",
        env: { ...env, ...extra },
      });
      assert.equal(r.status, 0, r.stderr);
      const line = r.stdout.split("\n").find((l) => l.startsWith("bin/ledgerd "));
      assert.ok(line, r.stdout);
      return line;
    };
    assert.equal(
      dry(["PORT=18123", "HOMEDIR=/tmp/node2"]),
      "bin/ledgerd -network=LOCAL -homedir=/tmp/node2 -port=18123 -controlpanelport=18125",
    );
    assert.equal(
      dry([], { LEDGERD_PORT: "18124", LEDGERD_HOME: "/tmp/node3" }),
      "bin/ledgerd -network=LOCAL -homedir=/tmp/node3 -port=18124 -controlpanelport=18126",
    );
    assert.match(dry(["PORT=18123", "PANELPORT=19000"]), / -port=18123 -controlpanelport=19000$/);
    assert.match(dry([], { LEDGERD_PANELPORT: "19001" }), / -port=8088 -controlpanelport=19001$/);
    assert.match(dry([]), / -port=8088 -controlpanelport=8090$/);
  });

  test("an [App] ExchangeRate the network does not use is reported at start", async () => {
    const node = await LedgerdProcess.start({ appConfig: ["ExchangeRate = 5000"] });
    try {
      assert.equal(await node.rpc<{ rate: number }>("entry-credit-rate").then((r) => r.rate), 1000);
      assert.match(node.log, /ExchangeRate is informational.*"configured":5000.*"networkRate":1000/);
    } finally {
      await node.kill9();
      node.cleanup();
    }
  });
});
