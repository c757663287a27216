/**
 * Signals and the operator's log, with a real process: SIGHUP reopens the log file (logrotate moved the old
 * one away) and reloads the configuration file (CORS domains take effect) without stopping the node; each
 * saved block is one info line; writes refused below the disk reserve are logged once when they start and
 * once when they end; SIGTERM stops with the last line "stopped at height N".
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { httpRequest, killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";
import { waitUntil } from "../support/waitFor.js";

after(() => killAllNodes());

/** The node's log file under the default [Log] LogPath (docs/operations.md §2). */
function logFile(node: LedgerdProcess): string {
  return join(node.homeDir, "database", "Log", "ledgerd.log");
}

/** Wait (≤ 15 s) until `probe` holds. */
function until(what: string, probe: () => boolean): Promise<void> {
  return waitUntil(what, probe, 15_000, 100);
}

/** The log file at info (its default is error, as the reference's; stderr is at info by default). */
const LOG_INFO = ["[Log]", "LogLevel = info", "[App]"];

function writeConfig(node: LedgerdProcess, lines: string[]): void {
  writeFileSync(
    join(node.homeDir, "ledgerd.conf"),
    ["[App]", "ListenHost = 127.0.0.1", ...LOG_INFO, ...lines, ""].join("\n"),
  );
}

describe("signals and the operator's log", () => {
  test("SIGHUP reopens the log and reloads the configuration; SIGTERM says the height it stopped at", async () => {
    const node = await LedgerdProcess.start({
      blockTimeSeconds: 1,
      appConfig: LOG_INFO,
      extraArgs: ["-debugapi=readwrite"],
    });
    try {
      const file = logFile(node);
      await until("a saved block in the log", () =>
        /"msg":"block saved","fields":\{"height":1,/.test(readFileSync(file, "utf8")),
      );
      const saved = readFileSync(file, "utf8")
        .split("\n")
        .find((l) => l.includes('"block saved"'))!;
      const fields = (JSON.parse(saved) as { fields: Record<string, unknown> }).fields;
      assert.deepEqual(Object.keys(fields).sort(), [
        "closeMs",
        "commits",
        "entries",
        "height",
        "replayed",
        "transactions",
      ]);

      const origin = "https://explorer.example.com";
      const corsOf = async (): Promise<unknown> =>
        (
          await httpRequest(node.port, {
            body: '{"jsonrpc":"2.0","id":1,"method":"heights"}',
            headers: { Origin: origin },
          })
        ).headers["access-control-allow-origin"];
      assert.equal(await corsOf(), undefined);

      // logrotate: move the file away, then HUP
      renameSync(file, `${file}.1`);
      writeConfig(node, [`CorsDomains = ${origin}`]);
      process.kill(node.pid!, "SIGHUP");
      await until(
        "a new log file with the reload line",
        () => existsSync(file) && readFileSync(file, "utf8").includes("SIGHUP: configuration reloaded"),
      );
      assert.ok(node.isRunning, "SIGHUP stopped the node");
      assert.equal(await corsOf(), origin);
      assert.doesNotMatch(readFileSync(`${file}.1`, "utf8"), /SIGHUP/);
      await until("a block saved into the new file", () => readFileSync(file, "utf8").includes('"block saved"'));

      const { directoryblockheight } = await node.rpc<{ directoryblockheight: number }>("heights");
      assert.equal(await node.stop(), 0);
      const last = node.log.trimEnd().split("\n").at(-1)!;
      const m = /^ledgerd: stopped at height (\d+)$/.exec(last);
      assert.ok(m, `last line: ${last}`);
      assert.ok(Number(m[1]) >= directoryblockheight);
      const lastLogged = readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!;
      assert.match(lastLogged, new RegExp(`"msg":"stopped at height ${m[1]}"`));
    } finally {
      await node.kill9();
      node.cleanup();
    }
  });

  test("writes refused below the disk reserve: one warning when it starts, one line when it ends", async () => {
    const node = await LedgerdProcess.start({
      blockTimeSeconds: 2,
      appConfig: LOG_INFO,
      extraArgs: ["-debugapi=readwrite"],
    });
    try {
      const file = logFile(node);
      writeConfig(node, ["MinFreeDiskMB = 1048576"]); // 1 TiB: cannot be met
      await node.rpc("reload-configuration", undefined, "debug");
      await until("the refusal's warning", () => readFileSync(file, "utf8").includes("health check storage failing"));
      assert.match(
        readFileSync(file, "utf8")
          .split("\n")
          .find((l) => l.includes("health check storage failing"))!,
        /writes refused/,
      );

      writeConfig(node, ["MinFreeDiskMB = 1"]);
      await node.rpc("reload-configuration", undefined, "debug");
      await until("the end of the refusal", () =>
        readFileSync(file, "utf8").includes("health check storage passes again"),
      );
      // one line for each change, none for the looks in between (each look is checked in
      // test/unit/monitor/healthWatch.test.ts)
      const lines = readFileSync(file, "utf8").split("\n");
      assert.equal(lines.filter((l) => l.includes("health check storage failing")).length, 1);
      assert.equal(lines.filter((l) => l.includes("health check storage passes again")).length, 1);
    } finally {
      await node.kill9();
      node.cleanup();
    }
  });
});
