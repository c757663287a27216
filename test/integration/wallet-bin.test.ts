// bin/ledgerd-wallet as a process: what the in-process tests of the command line
// (test/unit/wallet/walletCli.test.ts, through main(argv, io)) cannot see — the binary starts from a
// built checkout, its exit code is main's (0 / 1 usage / 2 user or node error), the streams are the
// process's, and `--content-file -` reads the process's stdin. No node: the commands here need none.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { unmarshalEntry } from "../../src/protocol/entry.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const WALLET_BIN = join(ROOT, "bin", "ledgerd-wallet");
const EC_SECRET = "Es2Rf7iM6PdsqfYCo3D1tnAR65SkLENyWJG1deUzpRMQmbh9F3eG";
const EC = "EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r";

const home = mkdtempSync(join(tmpdir(), "ledgerd-wallet-bin-"));
after(() => rmSync(home, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run bin/ledgerd-wallet with HOME = a temp dir, no LEDGERD_* variable from the outside, `stdin` on stdin. */
function wallet(args: string[], stdin?: Buffer): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  return new Promise((resolve) => {
    const child = execFile(
      WALLET_BIN,
      args,
      { env: { ...clean, HOME: home }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code =
          err === null ? 0 : typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin!.end(stdin ?? Buffer.alloc(0));
  });
}

test("exit codes of the process: 0 with help on stdout, 1 for a usage error, 2 for a user error, on stderr", async () => {
  const help = await wallet(["--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /exit codes: 0 ok, 1 usage error, 2/);
  const usage = await wallet(["frobnicate"]);
  assert.equal(usage.code, 1);
  assert.match(usage.stderr, /unknown command "frobnicate"/);
  assert.equal(usage.stdout, "");
  const user = await wallet(["balance", "FA2jK2Hc"]);
  assert.equal(user.code, 2);
  assert.match(user.stderr, /expected 52 characters, got 8/);
});

test("--content-file - reads the process's stdin, bytes as given", async () => {
  const imported = await wallet(["import", EC_SECRET]);
  assert.equal(imported.code, 0, imported.stderr);
  const chainId = "ab".repeat(32);
  const r = await wallet(
    ["compose-entry", "--chain", chainId, "--content-file", "-", EC],
    Buffer.from([0, 1, 2, 0xff]),
  );
  assert.equal(r.code, 0, r.stderr);
  const entry = unmarshalEntry(
    fromHex((JSON.parse(r.stdout) as { reveal: { params: { entry: string } } }).reveal.params.entry),
  );
  assert.equal(toHex(entry.content), "000102ff");
});
