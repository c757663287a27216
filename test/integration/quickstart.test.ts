// docs/quickstart.md, executed: every ```sh block of the page, exactly as written, against a real
// node. Only the variables the page itself documents are set — HOME (wallet file), LEDGERD_HOME (node
// data) and LEDGERD_PORT — so the page stays copy-pasteable with its defaults.
//
// How the blocks run, as a reader would:
//   * the block that is only `make build` is the install step; this test runs from that build (dist/),
//     so it checks the block and that the build exists instead of wiping dist/ under other tests;
//   * the block starting with "# Terminal 1" is the node: started in the background, left running;
//   * every other block is typed into terminal 2, in order, in ONE shell (variables carry over), with
//     `set -euo pipefail`, so any failing command fails the test.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { NodeClient } from "../../src/client/index.js";
import { freeLoopbackPort } from "../../tools/net/freePorts.js";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, "..", "..", "..");
const DOC = join(ROOT, "docs", "quickstart.md");

/** The ```sh blocks of a Markdown text, in order. */
function shellBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const re = /^```sh\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) blocks.push(m[1]!);
  return blocks;
}

function commands(block: string): string[] {
  return block
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

const scratch = mkdtempSync(join(tmpdir(), "ledgerd-quickstart-"));
let nodeProcess: ChildProcess | undefined;
after(async () => {
  if (nodeProcess !== undefined && nodeProcess.exitCode === null && nodeProcess.pid !== undefined) {
    const exited = new Promise((r) => nodeProcess!.once("exit", r));
    process.kill(-nodeProcess.pid, "SIGTERM"); // the shell and the node it started
    const timer = setTimeout(() => process.kill(-nodeProcess!.pid!, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Wait until the node started by `child` answers on `port` — and is that node (its configured HomeDir).
 * False when the child exits first; throws after 60 s.
 */
async function nodeAnswers(child: ChildProcess, port: number, home: string): Promise<boolean> {
  const probe = new NodeClient({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      try {
        await probe.heights();
        const config = await probe.configuration();
        if (config.App?.HomeDir === home) return true;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(`the node did not answer on port ${port} within 60 s (${String(e)})`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    probe.close();
  }
}

test("docs/quickstart.md runs as written against a real node", async () => {
  const blocks = shellBlocks(readFileSync(DOC, "utf8"));
  assert.ok(blocks.length >= 6, `expected the quickstart's shell blocks, found ${blocks.length}`);

  const build = blocks.filter((b) => commands(b).join("\n") === "make build");
  const nodeBlocks = blocks.filter((b) => b.trimStart().startsWith("# Terminal 1"));
  const terminal2 = blocks.filter((b) => !build.includes(b) && !nodeBlocks.includes(b));
  assert.equal(build.length, 1, "one build block (make build)");
  assert.equal(nodeBlocks.length, 1, 'one node block starting with "# Terminal 1"');
  assert.ok(
    existsSync(join(ROOT, "dist", "tools", "wallet", "cli.js")) && existsSync(join(ROOT, "bin", "ledgerd")),
    "the build the page's first step makes",
  );

  // Terminal 1: the node, exactly the page's block, in its own process group. The port is picked free and
  // released, so a parallel test may grab it first: then the node exits (address in use) and another
  // port is tried. `configuration` confirms the answering node is this one (its HomeDir).
  let env: NodeJS.ProcessEnv = {};
  let port = 0;
  let nodeLog = "";
  for (let attempt = 1; ; attempt++) {
    port = await freeLoopbackPort();
    env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_"))),
      HOME: join(scratch, "home"),
      LEDGERD_HOME: join(scratch, `node${attempt}`),
      LEDGERD_PORT: String(port),
    };
    nodeLog = "";
    const child = spawn("bash", ["-c", nodeBlocks[0]!], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    nodeProcess = child;
    child.stdout!.on("data", (d: Buffer) => (nodeLog += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (nodeLog += d.toString()));
    if (await nodeAnswers(child, port, env.LEDGERD_HOME!)) break;
    const inUse = /EADDRINUSE|in use/i.test(nodeLog);
    assert.ok(inUse && attempt < 3, `the node block did not start on port ${port}:\n${nodeLog}`);
  }

  // Terminal 2: every other block in one shell; a marker on stderr names the block that fails.
  const script = [
    "set -euo pipefail",
    ...terminal2.map((b, i) => `echo "── quickstart block ${i + 1}" >&2\n${b}`),
  ].join("\n");
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const sh = spawn("bash", ["-c", script], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    sh.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    sh.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    sh.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
  const lastBlock = [...result.stderr.matchAll(/── quickstart block (\d+)/g)].pop()?.[1];
  assert.equal(
    result.code,
    0,
    `quickstart block ${lastBlock} failed:\n${terminal2[Number(lastBlock) - 1]}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n--- node\n${nodeLog}`,
  );

  // What the page tells the reader they will see.
  const out = result.stdout;
  const lines = out.split("\n");
  assert.match(out, /"result":\{"directoryblockheight":\d+/, "curl heights answer");
  assert.ok(
    lines.includes("FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q"),
    "import prints the genesis key's address",
  );
  assert.match(out, /^asset address: FA[1-9A-HJ-NP-Za-km-z]{50}$/m);
  assert.match(out, /^entry credit address: EC[1-9A-HJ-NP-Za-km-z]{50}$/m);
  assert.ok(lines.includes("10"), "asset balance 10");
  assert.ok(lines.includes("100"), "100 entry credits bought");
  assert.match(out, /^chain: [0-9a-f]{64}$/m);
  assert.match(out, /^entry: [0-9a-f]{64}$/m);
  assert.match(out, /^Content:\nMy first entry$/m);
  assert.match(out, /^Entry \[1\/2\][\s\S]*Hello, ledger[\s\S]*^Entry \[2\/2\][\s\S]*My first entry/m);
  assert.match(out, /^Receipt verified: entry [0-9a-f]{64}$/m);
  assert.equal(lines.filter((l) => l !== "").pop(), "88", "11 EC for the chain, 1 for the entry");
  assert.ok(existsSync(join(scratch, "home", ".ledgerd", "wallet.json")), "the wallet lives in ~/.ledgerd/wallet.json");

  // The README's short quickstart, as written, against the same node: its wallet talks to the default node
  // address, so the node's URL comes in through LEDGERD_NODE (which the wallet honours), and it gets a home
  // of its own so it starts from an empty wallet like a newcomer.
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quickstart"));
  const readmeBlock = shellBlocks(section)[0];
  assert.ok(readmeBlock?.includes("ledgerd-wallet"), "the README's quickstart block");
  const readmeRun = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const sh = spawn("bash", ["-c", `set -euo pipefail\n${readmeBlock}`], {
      cwd: ROOT,
      env: { ...env, HOME: join(scratch, "readme-home"), LEDGERD_NODE: `http://127.0.0.1:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    sh.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    sh.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    sh.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
  assert.equal(readmeRun.code, 0, `README quickstart failed:\n${readmeRun.stdout}\n${readmeRun.stderr}`);
  assert.match(readmeRun.stdout, /My first entry/);
  assert.match(readmeRun.stdout, /^Receipt verified: entry [0-9a-f]{64}$/m);
});
