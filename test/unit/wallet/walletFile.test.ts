// The wallet file: private keys at mode 0600, atomic replacement (a reader never sees a torn file),
// and no lost updates when several wallet processes add keys at once.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { keyPairFromPrivate, keyPairFromSeed } from "../../../src/protocol/address.js";
import { WalletError } from "../../../tools/wallet/errors.js";
import { addKey, WALLET_FILE_MODE, WalletFile, writeAtomically } from "../../../tools/wallet/walletFile.js";

const here = dirname(fileURLToPath(import.meta.url));
/** dist/tools/wallet/walletFile.js, for child processes */
const WALLET_MODULE = pathToFileURL(join(here, "..", "..", "..", "tools", "wallet", "walletFile.js")).href;

const root = mkdtempSync(join(tmpdir(), "ledgerd-wallet-file-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function freshDir(): string {
  return join(root, `w${n++}`);
}

function runChild(script: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("wallet file", () => {
  test("a new wallet is created with mode 0600 in a 0700 directory, even with umask 0", () => {
    const dir = freshDir();
    const path = join(dir, "sub", "wallet.json");
    const old = process.umask(0);
    try {
      WalletFile.load(path).update((keys) => addKey(keys, keyPairFromSeed("FA", new Uint8Array(32).fill(1))));
    } finally {
      process.umask(old);
    }
    assert.equal(statSync(path).mode & 0o777, WALLET_FILE_MODE);
    assert.equal(WALLET_FILE_MODE, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    assert.equal(WalletFile.mode(path), 0o600);
  });

  test("keys persist, duplicates are not added, public addresses are checked on load", () => {
    const path = join(freshDir(), "wallet.json");
    const sand = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
    const ec = keyPairFromPrivate("Es2Rf7iM6PdsqfYCo3D1tnAR65SkLENyWJG1deUzpRMQmbh9F3eG");
    const w = WalletFile.load(path);
    assert.equal(w.exists, false);
    assert.deepEqual(
      w.update((keys) => [addKey(keys, sand), addKey(keys, ec), addKey(keys, sand)]),
      [true, true, false],
    );
    const again = WalletFile.load(path);
    assert.deepEqual(
      again.list().map((k) => [k.kind, k.public]),
      [
        ["FA", "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q"],
        ["EC", "EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r"],
      ],
    );
    assert.deepEqual(again.keyPair("FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q")?.seed, sand.seed);
    assert.equal(again.keyPair("FA1zT4aFpEvcnPqPCigB3fvGu4Q4mTXY22iiuV69DqE1pNhdF2MC"), undefined);

    // A public address that does not match its secret means damage: refuse rather than sign with the wrong key.
    const json = JSON.parse(readFileSync(path, "utf8")) as { keys: { public: string }[] };
    json.keys[0]!.public = "FA1zT4aFpEvcnPqPCigB3fvGu4Q4mTXY22iiuV69DqE1pNhdF2MC";
    writeFileSync(path, JSON.stringify(json));
    assert.throws(
      () => WalletFile.load(path),
      (e: unknown) => e instanceof WalletError && /does not belong to its private key/.test(e.message),
    );
  });

  test("a damaged file gives a clear error naming it", () => {
    const path = join(freshDir(), "wallet.json");
    WalletFile.load(path).update(() => undefined);
    writeFileSync(path, '{"version":1,"keys":[');
    assert.throws(
      () => WalletFile.load(path),
      (e: unknown) => e instanceof WalletError && e.message.includes(path) && /not valid JSON/.test(e.message),
    );
    writeFileSync(path, '{"version":9,"keys":[]}');
    assert.throws(() => WalletFile.load(path), /format version 9 is not supported/);
  });

  test("atomic replacement: a concurrent reader only ever sees a complete old or new file", async () => {
    const path = join(freshDir(), "wallet.json");
    mkdirSync(dirname(path));
    // Two contents of very different sizes (~2 MB and ~1 KB): a torn or truncated read would match neither.
    // The child builds the same strings from the same expressions (the big one does not fit in argv).
    const makeBig = 'JSON.stringify({ pad: "x".repeat(2_000_000) }) + "\\n"';
    const makeSmall = 'JSON.stringify({ pad: "y".repeat(1000) }) + "\\n"';
    const big = JSON.stringify({ pad: "x".repeat(2_000_000) }) + "\n";
    const small = JSON.stringify({ pad: "y".repeat(1000) }) + "\n";
    writeAtomically(path, small);
    const rounds = 60;
    const child = runChild(
      `import { writeAtomically } from ${JSON.stringify(WALLET_MODULE)};
       const big = ${makeBig}; const small = ${makeSmall};
       for (let i = 0; i < ${rounds}; i++) writeAtomically(${JSON.stringify(path)}, i % 2 ? small : big);`,
    );
    let done = false;
    void child.then(() => (done = true));
    let reads = 0;
    let sawBig = false;
    while (!done) {
      const text = readFileSync(path, "utf8");
      assert.ok(text === big || text === small, `read ${text.length} bytes: neither complete version`);
      if (text === big) sawBig = true;
      reads++;
      await new Promise((r) => setImmediate(r));
    }
    const { code, stderr } = await child;
    assert.equal(code, 0, stderr);
    assert.ok(reads > 5, `only ${reads} reads overlapped the writer`);
    assert.ok(sawBig, "the reader saw the big version at least once");
    assert.equal(readFileSync(path, "utf8"), small, "last write wins");
    assert.deepEqual(readdirSync(dirname(path)), ["wallet.json"], "no temporary files left behind");
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  test("concurrent wallet processes adding keys lose none (lock file)", async () => {
    const path = join(freshDir(), "wallet.json");
    const perProcess = 15;
    const processes = 4;
    const script = `import { WalletFile, addKey } from ${JSON.stringify(WALLET_MODULE)};
      import { keyPairFromSeed } from ${JSON.stringify(WALLET_MODULE.replace(/tools\/wallet\/walletFile\.js$/, "src/protocol/address.js"))};
      import { randomBytes } from "node:crypto";
      for (let i = 0; i < ${perProcess}; i++) {
        const w = WalletFile.load(${JSON.stringify(path)});
        w.update((keys) => addKey(keys, keyPairFromSeed("EC", new Uint8Array(randomBytes(32)))));
      }`;
    const results = await Promise.all(Array.from({ length: processes }, () => runChild(script)));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const keys = WalletFile.load(path).list();
    assert.equal(keys.length, perProcess * processes);
    assert.equal(new Set(keys.map((k) => k.public)).size, perProcess * processes);
    assert.deepEqual(readdirSync(dirname(path)), ["wallet.json"], "lock and temporary files removed");
  });

  test("a stale lock left by a dead process is taken over", () => {
    const path = join(freshDir(), "wallet.json");
    WalletFile.load(path).update(() => undefined);
    const lock = `${path}.lock`;
    writeFileSync(lock, "99999\n");
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old); // two minutes old: its writer is gone
    WalletFile.load(path).update((keys) => addKey(keys, keyPairFromSeed("FA", new Uint8Array(randomBytes(32)))));
    assert.equal(WalletFile.load(path).list().length, 1);
  });
});
