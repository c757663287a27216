// What a node's start loads (docs/performance.md §Restart): a child Node.js resolves every module the node's
// composition root (dist/src/node.js) and the entry point's imports pull in, through a resolve hook that writes
// each URL down; the Ethereum client (viem), the NATS client and `ledgerd verify`'s modules must not be among
// them (they are `import()`ed only when configured), and the cluster side (cluster/nodeStart.ts) is imported
// when a configuration names NATS servers. Loading viem alone was ~0.5–1 s of CPU of every start.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";

const DIST_SRC = new URL("../../src/", import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "ledgerd-startup-modules-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every URL the child resolves while it imports `modules` (in order), one per line. */
function resolvedWhileImporting(modules: readonly string[]): string[] {
  const list = join(dir, `resolved-${modules.length}.txt`);
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(spec, context, next) {
  const r = await next(spec, context);
  appendFileSync(${JSON.stringify(list)}, r.url + "\\n");
  return r;
}
`,
  );
  writeFileSync(list, "");
  const script = `import { register } from "node:module";
register(${JSON.stringify(new URL(`file://${hooks}`).href)});
for (const m of ${JSON.stringify(modules.map((m) => new URL(m, DIST_SRC).href))}) await import(m);
`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  return readFileSync(list, "utf8")
    .split("\n")
    .filter((l) => l !== "");
}

const NOT_AT_START = [/\/node_modules\/viem\//, /\/node_modules\/@nats-io\//, /\/dist\/src\/history\//];

describe("the modules a node's start loads", () => {
  test("the node's composition root and the entry point's imports load no Ethereum, NATS or verify code", () => {
    const urls = resolvedWhileImporting(["node.js", "config/index.js", "monitor/idleCollector.js", "store/errors.js"]);
    assert.ok(
      urls.some((u) => u.endsWith("/dist/src/ledger/ledger.js")),
      "the hook saw the node's modules (the check is live)",
    );
    for (const pattern of NOT_AT_START)
      assert.deepEqual(
        urls.filter((u) => pattern.test(u)),
        [],
        `${pattern} is loaded by every start`,
      );
  });

  test("the parts loaded when configured still load: the anchoring node's Ethereum side, the cluster side", () => {
    const urls = resolvedWhileImporting(["anchor/ethereum.js", "cluster/nodeStart.js"]);
    assert.ok(
      urls.some((u) => NOT_AT_START[0]!.test(u)),
      "viem behind anchor/ethereum.js",
    );
    assert.ok(
      urls.some((u) => NOT_AT_START[1]!.test(u)),
      "the NATS client behind cluster/nodeStart.js",
    );
  });
});
