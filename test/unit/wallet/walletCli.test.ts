// The wallet's command line run in this process through `main(argv, io)` (tools/wallet/commands.ts), exactly
// as bin/ledgerd-wallet runs it, without a node: usage errors (exit 1), user errors (exit 2), an unreachable
// node and a node that demands a password (local HTTP servers), compose output. The binary itself (its
// start, exit codes and stdin) is run as a process in test/integration/wallet-bin.test.ts.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, describe, test } from "node:test";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { decodeChainCommit, decodeEntryCommit, verifyCommitSignature } from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, entryHash, unmarshalEntry } from "../../../src/protocol/entry.js";
import {
  decodeTransaction,
  validateTransaction,
  verifyTransactionSignatures,
} from "../../../src/protocol/transaction.js";
import { COMMANDS, type Io, main } from "../../../tools/wallet/commands.js";

const home = mkdtempSync(join(tmpdir(), "ledgerd-wallet-cli-"));
after(() => rmSync(home, { recursive: true, force: true }));
/** The wallet file every run uses: the one a process with HOME = `home` would use by default. */
const WALLET_PATH = join(home, ".ledgerd", "wallet.json");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it (not a terminal: no progress lines). */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/**
 * Run the wallet's command line in this process: the environment has no LEDGERD_* variable from the
 * outside, the wallet file is under the temp home, stdin is `stdin` (empty unless given).
 */
async function wallet(args: string[], env: Record<string, string> = {}, stdin = Buffer.alloc(0)): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  const out = collector();
  const err = collector();
  const io: Io = {
    stdout: out.stream,
    stderr: err.stream as unknown as NodeJS.WriteStream,
    env: { ...clean, HOME: home, LEDGERD_WALLET: WALLET_PATH, ...env },
    readStdin: () => stdin,
  };
  const code = await main(args, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

async function server(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

/**
 * A port nobody listens on: 1 (tcpmux, privileged, unused on build machines). A port picked with
 * listen(0) and released can be taken again at once by a parallel test's node, so it is not used here.
 */
const CLOSED_PORT = 1;

const SAND_SECRET = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
const SAND = "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q";
const EC_SECRET = "Es2Rf7iM6PdsqfYCo3D1tnAR65SkLENyWJG1deUzpRMQmbh9F3eG";
const EC = "EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r";

describe("ledgerd-wallet usage errors exit 1", () => {
  test("no command, unknown command, unknown option, wrong argument count, option without value", async () => {
    const cases: [string[], RegExp][] = [
      [[], /usage: ledgerd-wallet/],
      [["frobnicate"], /unknown command "frobnicate"/],
      [["list", "--bogus"], /unknown option --bogus/],
      [["list", "-rpcpasswd=secret"], /unknown option -rpcpasswd; did you mean -rpcpass\?$/m],
      [["sned", SAND, SAND, "1"], /unknown command "sned"; did you mean send\?/],
      [["help", "nosuch"], /unknown command "nosuch"\n/],
      [["help", "ad-chain"], /unknown command "ad-chain"; did you mean add-chain\?/],
      [["send", SAND, SAND], /send takes 3 argument\(s\), got 2[\s\S]*usage: ledgerd-wallet send/],
      [["balance", SAND, "-node"], /option -node needs a value/],
      [["list", "--verify"], /list does not take -verify[\s\S]*usage: ledgerd-wallet list/],
      [["send", SAND, SAND, "1", "-rate=5"], /send does not take -rate/],
      [
        ["add-chain", "--content", "a", "--content-hex", "00", "EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r"],
        /give the content once/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const r = await wallet(args);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.ok(!r.stderr.includes("secret"), "a mistyped option's value (maybe a password) is not echoed");
    }
  });

  test("--help prints the commands and exit codes on stdout, exit 0", async () => {
    const r = await wallet(["--help"]);
    assert.equal(r.code, 0);
    for (const c of ["new-fa", "buy-ec", "add-chain", "receipt", "exit codes: 0 ok, 1 usage error, 2"])
      assert.ok(r.stdout.includes(c), c);
    const one = await wallet(["help", "add-entry"]);
    assert.match(one.stdout, /usage: ledgerd-wallet add-entry --chain <chain ID>/);
  });

  test("every command has a full help page: what it does, options, limits and costs, one example", async () => {
    for (const name of Object.keys(COMMANDS)) {
      const r = await wallet(["help", name]);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      const example = /\nexample:\n {2}(.+)\n?$/.exec(r.stdout);
      assert.ok(example, `help ${name} has no example:\n${r.stdout}`);
      assert.ok(example[1]!.startsWith(`ledgerd-wallet ${name} `) || example[1] === `ledgerd-wallet ${name}`);
      assert.ok(r.stdout.split("\n").length >= 6, `help ${name} is only a usage line`);
      for (const option of COMMANDS[name]!.opts.filter((o) => o !== "quiet"))
        assert.match(r.stdout, new RegExp(`-${option}\\b`), `help ${name} does not explain -${option}`);
    }
    const chain = await wallet(["help", "add-chain"]);
    for (const words of ["10,240 bytes", "entry credit", "10 more", "-timeout=SECONDS", "-q"])
      assert.ok(chain.stdout.includes(words), `help add-chain: no "${words}"`);
    assert.match((await wallet(["help", "send"])).stdout, /fee: paid in asset units/);
  });
});

describe("ledgerd-wallet user and node errors exit 2", () => {
  test("bad addresses are named with the reason", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["balance", "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1X"],
        /address: "FA2j.*" is not a valid FA address \(address checksum does not match\)/,
      ],
      [["balance", "FA2jK2Hc"], /expected 52 characters, got 8/],
      [["send", SAND_SECRET, SAND, "1"], /from: that is a private key \(Fs…, not shown\), not an FA address/],
      [["send", SAND, EC, "1"], /to: .* is not a valid FA address \(expected an FA address, got EC\)/],
      [["import", SAND], /is a public address; import takes private keys/],
      [["import", "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCX"], /not a valid private key/],
      [["entry", "abc"], /entry hash: expected 64 hex characters, got "abc" \(3 characters\)/],
    ];
    for (const [args, pattern] of cases) {
      const r = await wallet(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
    }
  });

  test("amounts that are not exact decimals are refused before anything is sent", async () => {
    await wallet(["import", SAND_SECRET]);
    for (const [amount, pattern] of [
      ["1.123456789", /9 decimal places; at most 8/],
      ["-1", /not a decimal number/],
      ["1e5", /not a decimal number/],
    ] as const) {
      const r = await wallet(["compose-transaction", "-rate=1000", SAND, SAND, amount]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
    }
  });

  test("a node that is not running: exit 2, message names the URL and how to fix it", async () => {
    const port = CLOSED_PORT;
    const r = await wallet(["balance", SAND, `-node=http://127.0.0.1:${port}`]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      new RegExp(`cannot reach the node at http://127\\.0\\.0\\.1:${port}/v2: connection refused`),
    );
    assert.match(r.stderr, /-node=URL/);
    // LEDGERD_NODE is the environment form of -node
    const viaEnv = await wallet(["balance", SAND], { LEDGERD_NODE: `http://127.0.0.1:${port}` });
    assert.match(viaEnv.stderr, new RegExp(`127\\.0\\.0\\.1:${port}/v2`));
  });

  test("a node that wants a password: exit 2, says whether credentials were missing or wrong", async () => {
    const s = await server((_req, res) => {
      res.writeHead(401, { "www-authenticate": 'Basic realm="node RPC"' });
      res.end("401 Unauthorized.\n");
    });
    try {
      const missing = await wallet(["balance", SAND, `-node=${s.url}`]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /authentication required/);
      assert.match(missing.stderr, /pass -rpcuser=USER -rpcpass=PASS/);
      const wrong = await wallet(["balance", SAND, `-node=${s.url}`, "-rpcuser=u", "-rpcpass=nope"]);
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /authentication failed/);
      assert.ok(!wrong.stderr.includes("nope"), "the password is not printed");
    } finally {
      await s.close();
    }
  });

  test("signing with an address that is not in the wallet says how to import it", async () => {
    const r = await wallet(["compose-chain", "--ext", "x", EC]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /EC address: EC2DKS.* is not in the wallet .*wallet\.json, so it cannot sign/);
    assert.match(r.stderr, /ledgerd-wallet import Es…/);
  });

  test("a wallet file readable by others triggers a warning", async () => {
    await wallet(["import", EC_SECRET]);
    const path = join(home, ".ledgerd", "wallet.json");
    chmodSync(path, 0o644);
    try {
      const r = await wallet(["list"]);
      assert.equal(r.code, 0);
      assert.match(r.stderr, /can be read by other users \(mode 644\); run: chmod 600/);
    } finally {
      chmodSync(path, 0o600);
    }
  });
});

describe("ledgerd-wallet compose commands", () => {
  test("compose-chain / compose-entry print commit and reveal requests that decode back", async () => {
    await wallet(["import", EC_SECRET, SAND_SECRET]);
    const chain = await wallet([
      "compose-chain",
      "--ext",
      "hello",
      "--ext-hex",
      "00ff",
      "--ext",
      "world",
      "--content",
      "Hi there",
      EC,
    ]);
    assert.equal(chain.code, 0, chain.stderr);
    const c = JSON.parse(chain.stdout) as {
      commit: { jsonrpc: string; method: string; params: { message: string } };
      reveal: { method: string; params: { entry: string } };
    };
    assert.equal(c.commit.jsonrpc, "2.0");
    assert.equal(c.commit.method, "commit-chain");
    assert.equal(c.reveal.method, "reveal-chain");
    const entry = unmarshalEntry(fromHex(c.reveal.params.entry));
    assert.deepEqual(
      entry.extIds.map((x) => Buffer.from(x).toString("hex")),
      ["68656c6c6f", "00ff", "776f726c64"],
      "ext IDs in command-line order",
    );
    assert.equal(Buffer.from(entry.content).toString("utf8"), "Hi there");
    const commit = decodeChainCommit(fromHex(c.commit.params.message));
    assert.ok(verifyCommitSignature(commit));
    assert.equal(toHex(commit.entryHash), toHex(entryHash(fromHex(c.reveal.params.entry))));
    assert.ok(Math.abs(commit.milliTime - Date.now()) < 60_000, "timestamped now");

    const chainId = toHex(chainIdFromExtIds(entry.extIds));
    const e = await wallet(["compose-entry", "--chain", chainId, "--content-hex", "deadbeef", EC]);
    assert.equal(e.code, 0, e.stderr);
    const ej = JSON.parse(e.stdout) as typeof c;
    assert.equal(ej.commit.method, "commit-entry");
    assert.equal(ej.reveal.method, "reveal-entry");
    const entry2 = unmarshalEntry(fromHex(ej.reveal.params.entry));
    assert.equal(toHex(entry2.chainId), chainId);
    assert.equal(toHex(entry2.content), "deadbeef");
    assert.ok(verifyCommitSignature(decodeEntryCommit(fromHex(ej.commit.params.message))));

    const missingChain = await wallet(["compose-entry", "--content", "x", EC]);
    assert.equal(missingChain.code, 1);
    assert.match(missingChain.stderr, /--chain <chain ID> is required/);
  });

  test("content from a file or from stdin (--content-file -)", async () => {
    const chainId = "ab".repeat(32);
    const viaStdin = await wallet(
      ["compose-entry", "--chain", chainId, "--content-file", "-", EC],
      {},
      Buffer.from([0, 1, 2, 0xff]),
    );
    assert.equal(viaStdin.code, 0, viaStdin.stderr);
    const entry = unmarshalEntry(
      fromHex((JSON.parse(viaStdin.stdout) as { reveal: { params: { entry: string } } }).reveal.params.entry),
    );
    assert.equal(toHex(entry.content), "000102ff");
    const missing = await wallet(["compose-entry", "--chain", chainId, "--content-file", join(home, "nope.txt"), EC]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--content-file .*nope\.txt: cannot read it \(ENOENT\)/);
  });

  test("compose-transaction prints an asset-submit request with the minimum fee", async () => {
    const to = "FA1zT4aFpEvcnPqPCigB3fvGu4Q4mTXY22iiuV69DqE1pNhdF2MC";
    const r = await wallet(["compose-transaction", "-rate=1000", SAND, to, "1.5"]);
    assert.equal(r.code, 0, r.stderr);
    const req = JSON.parse(r.stdout) as { method: string; params: { transaction: string } };
    assert.equal(req.method, "asset-submit");
    const tx = decodeTransaction(fromHex(req.params.transaction));
    assert.ok(verifyTransactionSignatures(tx));
    assert.equal(tx.outputs[0]!.amount, 150000000n);
    assert.equal(tx.inputs[0]!.amount, 150000000n + 12000n, "fee 12 EC × 1000");
    validateTransaction(tx, 1000n);

    const toEc = await wallet(["compose-transaction", "-rate=1000", SAND, EC, "25"]);
    const txEc = decodeTransaction(fromHex((JSON.parse(toEc.stdout) as typeof req).params.transaction));
    assert.equal(txEc.ecOutputs[0]!.amount, 25000n, "25 EC at 1000 base units each");
  });
});
