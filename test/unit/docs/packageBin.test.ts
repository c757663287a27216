/**
 * Every launcher in bin/ is a `bin` entry of package.json and of the lock file's root package (what
 * `npm install -g` and `npm ci` put on the PATH), and every entry names a file of bin/.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..", "..", "..");

test("package.json and package-lock.json list exactly the launchers of bin/", () => {
  const launchers = Object.fromEntries(readdirSync(join(ROOT, "bin")).map((f) => [f, `bin/${f}`]));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { bin?: Record<string, string> }>;
  };
  const sorted = (o: Record<string, string>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  assert.deepEqual(sorted(pkg.bin), sorted(launchers), "package.json bin");
  assert.deepEqual(sorted(lock.packages[""]?.bin ?? {}), sorted(launchers), "package-lock.json packages[''].bin");
});
