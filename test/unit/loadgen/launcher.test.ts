/**
 * The generator starts `node` itself, so it applies bin/ledgerd's first line on its own
 * (tools/loadgen/nodeProcess.ts launcherSettings): the node it measures must get the environment and the
 * node flags that `/usr/bin/env -S` gives the node an operator starts with bin/ledgerd.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { launcherSettings, projectRoot } from "../../../tools/loadgen/nodeProcess.js";

const PREFIX = "#!/usr/bin/env -S ";

/** What `env -S` hands a node started by `shebang` (as the kernel runs a script): its environment and flags. */
function underEnv(shebang: string): { env: Record<string, string>; execArgv: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-launcher-"));
  try {
    const script = join(dir, "show.mjs");
    writeFileSync(script, "console.log(JSON.stringify({ env: process.env, execArgv: process.execArgv }));\n");
    const r = spawnSync("/usr/bin/env", ["-S", shebang.slice(PREFIX.length), script], { encoding: "utf8", env: {} });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { env: Record<string, string>; execArgv: string[] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("bin/ledgerd's first line: the generator's node gets the environment and flags env -S gives", () => {
  const shebang = readFileSync(join(projectRoot(), "bin", "ledgerd"), "utf8").split("\n", 1)[0]!;
  assert.ok(shebang.startsWith(PREFIX), `bin/ledgerd starts with ${PREFIX}: ${shebang}`);
  const settings = launcherSettings(shebang);
  const real = underEnv(shebang);
  assert.deepEqual(settings.env, real.env);
  assert.deepEqual(settings.nodeArgs, real.execArgv);
});

test("assignments, then the program, then its flags; a value may hold '='", () => {
  const line = `${PREFIX}A_1=x B=y=z node --max-semi-space-size=8 --no-warnings`;
  assert.deepEqual(launcherSettings(line), {
    env: { A_1: "x", B: "y=z" },
    nodeArgs: ["--max-semi-space-size=8", "--no-warnings"],
  });
  assert.deepEqual(underEnv(line), {
    env: { A_1: "x", B: "y=z" },
    execArgv: ["--max-semi-space-size=8", "--no-warnings"],
  });
});

test("a plain `#!/usr/bin/env node` line sets nothing", () => {
  assert.deepEqual(launcherSettings("#!/usr/bin/env node"), { env: {}, nodeArgs: [] });
});
