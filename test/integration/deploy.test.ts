/**
 * deploy/: the systemd unit's ExecStart flags are flags `bin/ledgerd -h` lists, its hardening and health check
 * are there, and the example configuration file names every field the file format knows and loads. Then
 * the unit's own command line runs for real with that example file (paths moved to a temp directory, ports
 * to free ones) until GET /health answers 200, and SIGTERM stops it with exit code 0.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { allFields } from "../../src/config/ini.js";
import { freeLoopbackPort, httpRequest, LEDGERD_BIN, PROJECT_ROOT } from "../support/nodeProcess.js";
import { waitUntil } from "../support/waitFor.js";

const UNIT = readFileSync(join(PROJECT_ROOT, "deploy", "ledgerd.service"), "utf8");
const EXAMPLE = readFileSync(join(PROJECT_ROOT, "deploy", "ledgerd.conf.example"), "utf8");
const INSTALL_ROOT = "/opt/ledgerd";
const HOME = "/var/lib/ledgerd";

/** The value of `Key=` in the unit (the last one). */
function directive(key: string): string {
  const lines = UNIT.split("\n").filter((l) => l.startsWith(`${key}=`));
  assert.ok(lines.length > 0, `the unit has no ${key}=`);
  return lines.at(-1)!.slice(key.length + 1);
}

const scratch = mkdtempSync(join(tmpdir(), "ledgerd-deploy-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe("deploy files", () => {
  test("the unit's ExecStart flags are the node's, with a user, restarts, hardening and a health check", () => {
    const [binary, ...args] = directive("ExecStart").split(/\s+/);
    assert.equal(binary, `${INSTALL_ROOT}/bin/ledgerd`);
    const help = spawnSync(LEDGERD_BIN, ["-h"], { encoding: "utf8" });
    assert.equal(help.status, 0, help.stderr);
    for (const arg of args) {
      const name = /^-{1,2}([a-z]+)(=|$)/.exec(arg)?.[1];
      assert.ok(name, `${arg}: not a flag`);
      assert.match(help.stdout, new RegExp(`^  -${name}\\b`, "m"), `-${name} is not in bin/ledgerd -h`);
    }
    assert.ok(args.includes(`-homedir=${HOME}`));
    assert.equal(directive("User"), "ledgerd");
    assert.equal(directive("Restart"), "on-failure");
    assert.equal(directive("RestartPreventExitStatus"), "2");
    assert.equal(directive("NoNewPrivileges"), "true");
    assert.equal(directive("ProtectSystem"), "strict");
    assert.equal(directive("ReadWritePaths"), HOME);
    assert.equal(directive("ExecReload"), "/bin/kill -HUP $MAINPID");
    assert.match(directive("ExecStartPost"), /curl -fsS -o \/dev\/null http:\/\/127\.0\.0\.1:8088\/health/);
  });

  test("the example configuration names every field, each after a comment, and loads", () => {
    const lines = EXAMPLE.split("\n");
    for (const { group, field } of allFields()) {
      const at = lines.findIndex((l, i) => new RegExp(`^(; )?${field.name} =`).test(l) && inGroup(lines, i) === group);
      assert.ok(
        at > 0,
        `[${group}] ${field.name} is missing from deploy/ledgerd.conf.example: run \`make build\` and commit it`,
      );
      assert.match(lines[at - 1]!, /^; \S/, `[${group}] ${field.name} has no comment line above it`);
    }
    const home = join(scratch, "load");
    const c = loadConfig([`-config=${join(PROJECT_ROOT, "deploy", "ledgerd.conf.example")}`, `-homedir=${home}`], {
      HOME: home,
    });
    assert.equal(c.network, "LOCAL");
    assert.equal(c.port, 8088);
    assert.equal(c.listenHost, "127.0.0.1");
    assert.equal(c.metricsPort, 9876);
    assert.equal(c.minFreeDiskMB, 1024);
    assert.equal(c.logLevel, "info");
  });

  test("the unit's command line with the example file starts a healthy node, and SIGTERM stops it", async () => {
    const home = join(scratch, "run");
    const [port, metricsPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const conf = EXAMPLE.replaceAll(HOME, home)
      .replace(/^PortNumber = 8088$/m, `PortNumber = ${port}`)
      .replace(/^MetricsPort = 9876$/m, `MetricsPort = ${metricsPort}`)
      .replace(/^MinFreeDiskMB = 1024$/m, "MinFreeDiskMB = 1");
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "ledgerd.conf"), conf, { mode: 0o600 });
    const [binary, ...args] = directive("ExecStart").replaceAll(HOME, home).split(/\s+/);
    const child = spawn(binary!.replace(INSTALL_ROOT, PROJECT_ROOT), args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await waitUntil(
        "the installed node healthy",
        async () => {
          if (child.exitCode !== null) throw new Error(`the node exited (${child.exitCode}):\n${output}`);
          return httpRequest(port, { method: "GET", path: "/health", timeoutMs: 10_000 }).then(
            (a) => a.status === 200,
            () => false,
          );
        },
        30_000,
        200,
        () => output,
      );
      assert.equal((await httpRequest(metricsPort, { method: "GET", path: "/health" })).status, 200);
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal(await exited, 0, output);
    assert.match(output, /ledgerd: stopped at height \d+\n$/);
  });
});

/** The [group] a line of the INI text is in. */
function inGroup(lines: readonly string[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const m = /^\[(\w+)\]/.exec(lines[i]!);
    if (m) return m[1]!;
  }
  return "";
}
