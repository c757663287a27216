/**
 * `bin/ledgerd-devnet` as an operator runs it: `up` starts nats-servers and nodes that outlive the
 * command, prints the table and writes DIR/devnet.json in the documented shape; `status` shows every
 * node's heights; after a `kill -9`, `restart NAME` brings the process back with its old arguments and
 * data; `add follower` adds a node from an empty directory; `down` stops every process by pid; `resume` starts
 * them all again on their data. Runtime: ~30–60 s.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { promisify } from "node:util";
import type { DevnetJson } from "../../tools/devnet/devnet.js";
import { commandLineOf } from "../../tools/devnet/process.js";
import { PROJECT_ROOT } from "../support/nodeProcess.js";
import { waitFor } from "../support/waitFor.js";

const run = promisify(execFile);
const DEVNET_BIN = join(PROJECT_ROOT, "bin", "ledgerd-devnet");

async function devnet(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(DEVNET_BIN, args, { cwd: PROJECT_ROOT, timeout: 240_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === "number" ? err.code : -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

function readJson(dir: string): DevnetJson {
  return JSON.parse(readFileSync(join(dir, "devnet.json"), "utf8")) as DevnetJson;
}

/** SIGKILL whatever a devnet.json still lists as running (test cleanup; each pid checked against its command line). */
function killListed(dir: string): void {
  let j: DevnetJson;
  try {
    j = readJson(dir);
  } catch {
    return;
  }
  for (const p of [...j.nats, ...j.nodes])
    if (p.pid !== null && (commandLineOf(p.pid)?.includes(dir) ?? false)) process.kill(p.pid, "SIGKILL");
}

describe("bin/ledgerd-devnet", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-devnet-cli-"));
  after(() => {
    killListed(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  test("bad command lines are refused with the usage (exit 2)", async () => {
    for (const args of [
      [],
      ["up"],
      ["up", "--dir", dir, "--federated", "0"],
      ["frobnicate", "--dir", dir],
      ["up", "--dir", dir, "--nats", "x"],
    ]) {
      const r = await devnet(...args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, /usage:/);
    }
    const typo = await devnet("stauts", "--dir", dir);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown command stauts; did you mean status\?/);
    const r = await devnet("status", "--dir", join(dir, "nothing-here"));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /holds no devnet/);
  });

  test("up, status, kill -9 + restart, down", async () => {
    const up = await devnet(
      "up",
      "--dir",
      dir,
      "--federated",
      "2",
      "--audit",
      "1",
      "--followers",
      "1",
      "--nats",
      "3",
      "--blktime",
      "2",
    );
    assert.equal(up.code, 0, up.stderr);
    const j = readJson(dir);
    assert.deepEqual(
      j.nats.map((n) => n.name),
      ["nats0", "nats1", "nats2"],
    );
    assert.deepEqual(
      j.nodes.map((n) => [n.name, n.role]),
      [
        ["fed0", "federated"],
        ["fed1", "federated"],
        ["audit0", "audit"],
        ["follower0", "follower"],
      ],
    );
    for (const p of [...j.nats, ...j.nodes]) {
      assert.ok(p.pid !== null, `${p.name} has a pid`);
      assert.ok(commandLineOf(p.pid)?.includes(join(dir, p.name)), `${p.name}'s pid runs in ${join(dir, p.name)}`);
      assert.match(up.stdout, new RegExp(`^${p.name} +\\S+ +${p.url.replace(/[.]/g, "\\.")} +\\S+ +${p.pid}$`, "m"));
    }
    for (const n of j.nats) assert.match(n.url, /^nats:\/\/127\.0\.0\.1:\d+$/);
    for (const n of j.nodes) {
      assert.match(n.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      if (n.role === "follower") assert.equal(n.identity, null);
      else assert.match(n.identity ?? "", /^[0-9a-f]{64}$/);
    }
    assert.equal(new Set(j.nodes.map((n) => n.identity)).size, 4, "every server its own identity");
    // every node its own control panel, listed by `up` and answering
    for (const n of j.nodes) {
      assert.match(n.panel ?? "", /^http:\/\/127\.0\.0\.1:\d+\/$/, `${n.name}'s panel`);
      assert.ok(up.stdout.includes(` ${n.panel} `), `up lists ${n.name}'s panel ${n.panel}`);
      const page = await fetch(n.panel!);
      assert.equal(page.status, 200, `${n.name}'s panel at ${n.panel}`);
      assert.match(await page.text(), /<title>ledgerd control panel<\/title>/);
    }
    assert.equal(new Set(j.nodes.map((n) => n.panel)).size, 4, "four panel ports");

    // the processes outlived `up`; status shows heights
    const status = await devnet("status", "--dir", dir);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^NAME +ROLE +URL +PANEL +PID +DBLOCK +LEADER +ENTRYBLOCK +ENTRY +NOTE$/m);
    assert.match(status.stdout, /^fed0 +federated +\S+ +http:\S+ +\d+ +\d+ +\d+ +\d+ +\d+/m);
    assert.match(status.stdout, /leads LEDGER_LOCAL/);

    // up again on the same directory is refused
    const again = await devnet("up", "--dir", dir);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds a devnet/);

    // crash a node and a nats-server, then restart both with their old arguments and data
    const fed1 = j.nodes.find((n) => n.name === "fed1")!;
    const nats1 = j.nats.find((n) => n.name === "nats1")!;
    const fed1Args = commandLineOf(fed1.pid!);
    process.kill(fed1.pid!, "SIGKILL");
    process.kill(nats1.pid!, "SIGKILL");
    // status shows fed1 down once its process is gone (the kill is not instant)
    await waitFor(
      "devnet status to show fed1 down",
      async () => {
        const down1 = await devnet("status", "--dir", dir);
        return /^fed1 +federated +\S+ +\S+ +- +- +- +- +- +down$/m.test(down1.stdout) ? true : undefined;
      },
      30_000,
      200,
    );
    for (const name of ["nats1", "fed1"]) {
      const r = await devnet("restart", name, "--dir", dir);
      assert.equal(r.code, 0, `restart ${name}: ${r.stderr}`);
    }
    const j2 = readJson(dir);
    const fed1b = j2.nodes.find((n) => n.name === "fed1")!;
    assert.ok(fed1b.pid !== null && fed1b.pid !== fed1.pid, "fed1 runs with a new pid");
    assert.equal(commandLineOf(fed1b.pid), fed1Args, "with the same arguments");
    assert.ok(j2.nats.find((n) => n.name === "nats1")!.pid !== null, "nats1 runs again");

    // a follower added to the running devnet starts from an empty directory and serves
    const added = await devnet("add", "follower", "--dir", dir);
    assert.equal(added.code, 0, added.stderr);
    const j2b = readJson(dir);
    const follower1 = j2b.nodes.find((n) => n.name === "follower1");
    assert.ok(follower1?.pid !== null && follower1?.role === "follower", `follower1 listed: ${JSON.stringify(j2b)}`);
    assert.match(added.stdout, /^follower1 +follower +http:\/\/127\.0\.0\.1:\d+ +http:\/\/127\.0\.0\.1:\d+\/ +\d+$/m);
    assert.equal((await devnet("add", "observer", "--dir", dir)).code, 2, "an unknown role is refused");

    // down stops every process by pid
    const down = await devnet("down", "--dir", dir);
    assert.equal(down.code, 0, down.stderr);
    assert.match(down.stdout, /stopped 8 process/);
    const j3 = readJson(dir);
    for (const p of [...j3.nats, ...j3.nodes]) assert.equal(p.pid, null, `${p.name} stopped`);
    for (const p of [...j2b.nats, ...j2b.nodes])
      assert.equal(commandLineOf(p.pid!)?.includes(dir) ?? false, false, `${p.name} (pid ${p.pid}) is gone`);

    // resume starts the stopped devnet again on its data: the chain goes on from where it was
    const resumed = await devnet("resume", "--dir", dir);
    assert.equal(resumed.code, 0, resumed.stderr);
    // resume prints its progress, as up does
    assert.match(resumed.stderr, /ledgerd-devnet: starting 3 nats-server\(s\)\n.*starting fed0/s);
    const j4 = readJson(dir);
    for (const p of [...j4.nats, ...j4.nodes]) assert.ok(p.pid !== null, `${p.name} runs again`);
    const st = await devnet("status", "--dir", dir);
    const h = Number(/^follower0 +follower +\S+ +\S+ +\d+ +(\d+)/m.exec(st.stdout)?.[1]);
    assert.ok(h >= 1, `follower0 serves its saved blocks after resume: ${st.stdout}`);
    assert.equal((await devnet("down", "--dir", dir)).code, 0);
  });
});
