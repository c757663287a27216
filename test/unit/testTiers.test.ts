/**
 * The unit tier (`make test-unit`, test/support/tiers.ts) starts no process: every unit-tier file is
 * followed through its compiled imports (type-only imports are gone from the JavaScript, so only what
 * really loads is followed) across dist/test, dist/tools and dist/bench; reaching node:child_process
 * fails, unless through a listed in-process exception. The list of test/unit files kept out of the tier
 * is checked the other way too: each must exist and really reach node:child_process.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, test } from "node:test";
import {
  compiled,
  IN_PROCESS_EXCEPTIONS,
  PROCESS_TESTS_IN_UNIT,
  processLanes,
  processTier,
  ROOT,
  testFiles,
  unitTier,
} from "../support/tiers.js";

/** `from "x"`, `import "x"`, `import("x")` in compiled JavaScript. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
const CHILD_PROCESS = new Set(["node:child_process", "child_process"]);
const EXCEPTIONS = new Set(Object.keys(IN_PROCESS_EXCEPTIONS).map(compiled));

/**
 * The chain of compiled modules (ROOT-relative) from `file` to a node:child_process import, or undefined.
 * Stops at dist/src/ (the node's own processes are under test) and at the listed exceptions.
 */
function pathToChildProcess(file: string, seen = new Set<string>()): string[] | undefined {
  if (seen.has(file) || file.startsWith("dist/src/") || EXCEPTIONS.has(file)) return undefined;
  seen.add(file);
  const text = readFileSync(join(ROOT, file), "utf8");
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1]!;
    if (CHILD_PROCESS.has(spec)) return [file, spec];
    if (!spec.startsWith(".")) continue;
    const next = relative(ROOT, join(ROOT, dirname(file), spec));
    if (!existsSync(join(ROOT, next))) continue;
    const rest = pathToChildProcess(next, seen);
    if (rest !== undefined) return [file, ...rest];
  }
  return undefined;
}

describe("the unit tier starts no process", () => {
  test("no unit-tier file reaches node:child_process through what it imports", () => {
    const unit = unitTier();
    assert.ok(unit.length > 100, `only ${unit.length} unit-tier files found`);
    const offenders = unit
      .map((f) => pathToChildProcess(compiled(f)))
      .filter((p) => p !== undefined)
      .map((p) => p.join(" → "));
    assert.deepEqual(
      offenders,
      [],
      "a unit-tier file starts processes: make it run in-process, or list it in test/support/tiers.ts PROCESS_TESTS_IN_UNIT with what it starts",
    );
  });

  test("every file listed out of the unit tier exists and does reach node:child_process", () => {
    for (const f of Object.keys(PROCESS_TESTS_IN_UNIT)) {
      assert.ok(existsSync(join(ROOT, f)), `${f} is listed in PROCESS_TESTS_IN_UNIT but does not exist`);
      assert.ok(pathToChildProcess(compiled(f)) !== undefined, `${f} starts no process: take it off the list`);
    }
    for (const f of Object.keys(IN_PROCESS_EXCEPTIONS))
      assert.ok(existsSync(join(ROOT, f)), `${f} is listed in IN_PROCESS_EXCEPTIONS but does not exist`);
  });

  test("the two tiers together are every test file, each once", () => {
    const unit = unitTier();
    const rest = processTier();
    assert.deepEqual([...unit, ...rest].sort(), testFiles("test"));
    assert.equal(new Set([...unit, ...rest]).size, unit.length + rest.length);
    assert.ok(unit.includes("test/unit/testTiers.test.ts"), "this test runs in the unit tier");
  });

  test("the process tier's two lanes are the tier, each file in one lane; the federation's files in the cluster lane", () => {
    const { cluster, other } = processLanes();
    assert.deepEqual([...cluster, ...other].sort(), processTier());
    assert.equal(new Set([...cluster, ...other]).size, cluster.length + other.length);
    assert.ok(cluster.length > 0 && other.length > 0, "both lanes have files");
    assert.ok(
      processTier()
        .filter((f) => f.startsWith("test/cluster/"))
        .every((f) => cluster.includes(f)),
    );
  });

  test("the walk finds a launcher: the NATS test helper reaches node:child_process through the devnet's", () => {
    const path = pathToChildProcess("dist/test/unit/cluster/jetStreamLog.test.js") ?? [];
    assert.ok(path.includes("dist/test/support/natsServer.js"), path.join(" → "));
    assert.equal(path.at(-1), "node:child_process");
  });
});
