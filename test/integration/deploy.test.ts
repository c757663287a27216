/**
 * deploy/: the systemd unit's ExecStart flags are flags `bin/ledgerd -h` lists, its hardening and health check
 * are there, and the example configuration file names every field the file format knows and loads. Then
 * the unit's own command line runs for real with that example file (paths moved to a temp directory, ports
 * to free ones) until GET /health answers 200, and SIGTERM stops it with exit code 0.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { allFields } from "../../src/config/ini.js";
import { ensureCertificate } from "../../src/rpc/tls.js";
import { freeLoopbackPort, httpRequest, LEDGERD_BIN, LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";
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
    // the start check follows the configuration: the node's own flags plus -waithealthy
    assert.equal(directive("ExecStartPost"), `${directive("ExecStart")} -waithealthy=60`);
    for (const [key, value] of [
      ["SystemCallFilter", "@system-service"],
      ["SystemCallArchitectures", "native"],
      ["RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6 AF_NETLINK"],
      ["ProtectClock", "true"],
      ["ProtectHostname", "true"],
      ["ProtectKernelLogs", "true"],
      ["ProtectProc", "invisible"],
      ["PrivateUsers", "true"],
    ])
      assert.equal(directive(key!), value, key);
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
      // the unit's start check, its own command line: healthy at the file's port
      const [checkBinary, ...checkArgs] = directive("ExecStartPost").replaceAll(HOME, home).split(/\s+/);
      const check = spawnSync(checkBinary!.replace(INSTALL_ROOT, PROJECT_ROOT), checkArgs, { encoding: "utf8" });
      assert.equal(check.status, 0, check.stderr);
      assert.equal(check.stdout, `ledgerd: healthy at http://127.0.0.1:${port}/health\n`);
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal(await exited, 0, output);
    assert.match(output, /ledgerd: stopped at height \d+\n$/);
  });
});

describe("deploy/nginx.conf.example with Debian's nginx in front of a real node", () => {
  const NGINX_EXAMPLE = readFileSync(join(PROJECT_ROOT, "deploy", "nginx.conf.example"), "utf8");

  /**
   * Run nginx (foreground, its own prefix) with the example, the node's port, a free port for TLS and a
   * certificate made for 127.0.0.1; `edit` changes the example first. Resolves with the port and a stop.
   */
  async function nginxInFront(
    nodePort: number,
    dir: string,
    edit: (conf: string) => string = (c) => c,
  ): Promise<{ port: number; ca: Buffer; stop: () => Promise<void> }> {
    mkdirSync(dir, { recursive: true });
    const tls = await ensureCertificate({
      keyFile: join(dir, "key.pem"),
      certFile: join(dir, "cert.pem"),
      hosts: ["127.0.0.1", "localhost"],
    });
    const port = await freeLoopbackPort();
    const site = edit(NGINX_EXAMPLE)
      .replaceAll("127.0.0.1:8088", `127.0.0.1:${nodePort}`)
      .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${port} ssl http2;`)
      .replace(/^\s*listen \[::\]:443 ssl http2;$/m, "")
      .replace(/^\s*listen (\[::\]:)?80;$/gm, "")
      .replace("return 301", `listen 127.0.0.1:${await freeLoopbackPort()};\n    return 301`)
      .replace("/etc/ssl/ledgerd/fullchain.pem", tls.certFile)
      .replace("/etc/ssl/ledgerd/privkey.pem", tls.keyFile);
    writeFileSync(join(dir, "ledgerd-site.conf"), site);
    const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
    writeFileSync(
      join(dir, "nginx.conf"),
      [
        "user root;",
        "worker_processes 1;",
        `pid ${join(dir, "nginx.pid")};`,
        `error_log ${join(dir, "error.log")} info;`,
        "events { worker_connections 256; }",
        `http { access_log off; ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join(" ")}`,
        `  include ${join(dir, "ledgerd-site.conf")}; }`,
        "",
      ].join("\n"),
    );
    const check = spawnSync("nginx", ["-t", "-p", dir, "-c", join(dir, "nginx.conf")], { encoding: "utf8" });
    assert.equal(check.status, 0, `nginx -t: ${check.stderr}`);
    const child = spawn("nginx", ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const ca = readFileSync(tls.certFile);
    await waitUntil(
      "nginx listening",
      async () => (await httpsGet(port, "/health", ca).catch(() => undefined)) !== undefined,
      20_000,
      100,
    );
    return {
      port,
      ca,
      stop: async () => {
        child.kill("SIGQUIT");
        await exited;
      },
    };
  }

  /** One HTTPS request through nginx; resolves with the status and body. */
  function httpsGet(port: number, path: string, ca: Buffer, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        { host: "127.0.0.1", port, path, method: body === undefined ? "GET" : "POST", ca, servername: "localhost" },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  test("TLS at nginx, the node on loopback: JSON-RPC, /health and a body over the limit; without proxy_http_version 1.1 every request is a 502", async (t) => {
    assert.ok(spawnSync("nginx", ["-v"]).error === undefined, "nginx missing: run make os-packages-test as root");
    const node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    t.after(async () => {
      await node.stop();
      node.cleanup();
    });
    const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
    const front = await nginxInFront(node.port, join(scratch, "nginx"));
    try {
      const h = await httpsGet(front.port, "/health", front.ca);
      assert.equal(h.status, 200, h.text);
      // several requests over nginx's kept-alive upstream connections
      for (let i = 0; i < 5; i++) {
        const r = await httpsGet(front.port, "/v2", front.ca, heights);
        assert.equal(r.status, 200, r.text);
        assert.match(r.text, /"directoryblockheight":\d+/);
      }
      const big = await httpsGet(front.port, "/v2", front.ca, `{"x":"${"a".repeat(2 * 1024 * 1024)}"}`);
      assert.equal(big.status, 413, "nginx refuses a body over 1 MiB itself");
    } finally {
      await front.stop();
    }
    // the mistake the example warns about first: nginx's default HTTP/1.0 to the upstream
    const bare = await nginxInFront(node.port, join(scratch, "nginx-10"), (c) =>
      c.replace(/^\s*proxy_http_version 1\.1;.*$/m, ""),
    );
    try {
      const r = await httpsGet(bare.port, "/v2", bare.ca, heights);
      assert.equal(r.status, 502, `without proxy_http_version 1.1: ${r.status} ${r.text}`);
      assert.match(
        readFileSync(join(scratch, "nginx-10", "error.log"), "utf8"),
        /upstream prematurely closed connection/,
      );
    } finally {
      await bare.stop();
    }
  });
});

describe("bin/ledgerd -waithealthy (the unit's start check)", () => {
  test("https under -tls on another port; a node that is not there: exit 1 with the reason", async (t) => {
    const started = await LedgerdProcess.startExpectingExit({ extraArgs: ["-tls"], waitMs: 180_000 });
    const node = started.process;
    t.after(() => node.cleanup());
    assert.equal(started.code, undefined, started.output);
    const args = [`-homedir=${node.homeDir}`, "-tls", `-port=${node.port}`, "-waithealthy=60"];
    const ok = spawnSync(LEDGERD_BIN, args, { encoding: "utf8" });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(ok.stdout, `ledgerd: healthy at https://127.0.0.1:${node.port}/health\n`);
    await node.stop();
    const gone = spawnSync(LEDGERD_BIN, args.with(-1, "-waithealthy=2"), { encoding: "utf8" });
    assert.equal(gone.status, 1);
    assert.match(
      gone.stderr,
      new RegExp(`not healthy at https://127\\.0\\.0\\.1:${node.port}/health within 2 s \\(.*ECONNREFUSED`),
    );
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
