// Secrets others can read (security review 3, L4), on real files: a 0644 password file named by -rpcpassfile,
// a 0644 configuration file holding NatsPassword, and a malformed line whose value is not quoted back.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadConfig } from "../../../src/config/index.js";
import { secretWarnings } from "../../../src/config/secrets.js";

describe("secret warnings", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-secrets-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { HOME: dir };

  it("a password file others can read is warned about; 0600 is not", () => {
    const pass = join(dir, "rpc.pass");
    writeFileSync(pass, "s3cret\n");
    chmodSync(pass, 0o644);
    const argv = [`-homedir=${dir}`, "-rpcuser=alice", `-rpcpassfile=${pass}`];
    assert.deepEqual(secretWarnings(loadConfig(argv, env)), [
      `the password file ${pass} is readable by other users (mode 0644): chmod 600 it`,
    ]);
    chmodSync(pass, 0o600);
    assert.deepEqual(secretWarnings(loadConfig(argv, env)), []);
  });

  it("a configuration file others can read holding NatsPassword is warned about", () => {
    const conf = join(dir, "nats.conf");
    writeFileSync(conf, "[Cluster]\nNatsUser = node\nNatsPassword = Leaky-Secret-123\n");
    chmodSync(conf, 0o644);
    const warnings = secretWarnings(loadConfig([`-homedir=${dir}`, `-config=${conf}`], env));
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0]!, /holds NatsPassword and is readable by other users \(mode 0644\): chmod 600 it/);
  });

  it("a malformed line does not quote its value", () => {
    const conf = join(dir, "bad.conf");
    writeFileSync(conf, "[Cluster]\nNatsPassword: Leaky-Secret-123\n", { mode: 0o600 });
    assert.throws(
      () => loadConfig([`-homedir=${dir}`, `-config=${conf}`], env),
      (e: Error) => {
        assert.match(e.message, /expected "=" after NatsPassword, got ":" \(the rest of the line is not shown/);
        assert.ok(!e.message.includes("Leaky"), e.message);
        return true;
      },
    );
  });
});
