/**
 * The start-up warning about a configuration file that others can read while it holds a secret
 * (src/config/secrets.ts): NatsPassword is one of those secrets, like NodeRpcPass (security review 3, M1).
 * Real files with real modes.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { loadConfig } from "../../../src/config/index.js";
import { secretWarnings } from "../../../src/config/secrets.js";

describe("secret-file warning", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-secrets-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const configWith = (name: string, lines: string[], mode: number) => {
    const file = join(dir, name);
    writeFileSync(file, `${lines.join("\n")}\n`);
    chmodSync(file, mode);
    return loadConfig([`-config=${file}`, `-homedir=${dir}`]);
  };

  test("a follower's file holding NatsPassword, readable by others: warned, the password not quoted", () => {
    const config = configWith("open.conf", ["[Cluster]", "NatsUser = follower", "NatsPassword = s3cret-nats"], 0o644);
    const warnings = secretWarnings(config);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(
      warnings[0]!,
      /open\.conf holds NatsPassword and is readable by other users \(mode 0644\): chmod 600 it/,
    );
    assert.doesNotMatch(warnings[0]!, /s3cret-nats/);
  });

  test("the same file at 0600: no warning; 0640 (group): warned", () => {
    assert.deepEqual(secretWarnings(configWith("closed.conf", ["[Cluster]", "NatsPassword = x"], 0o600)), []);
    assert.equal(secretWarnings(configWith("group.conf", ["[Cluster]", "NatsPassword = x"], 0o640)).length, 1);
  });

  test("both secrets in one file are named together", () => {
    const w = secretWarnings(
      configWith("both.conf", ["[App]", "NodeRpcUser = u", "NodeRpcPass = a", "[Cluster]", "NatsPassword = b"], 0o644),
    );
    assert.match(w.join("\n"), /holds NodeRpcPass, NatsPassword and is readable/);
  });
});
