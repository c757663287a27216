// The `proof` extension (docs/api.md §5.8) against a real node process: a proof saved by `ledgerd-wallet proof`
// verifies with `ledgerd-wallet proof --verify` after the node is stopped (no node asked), and a single changed
// byte anywhere in the saved file makes it fail — every byte position, two different bit flips each.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { encodeAddress } from "../../src/protocol/address.js";
import { ProtocolError } from "../../src/protocol/errors.js";
import { type ProofJson, verifyProof } from "../../src/protocol/proof.js";
import { addEntry, buyCredits, createChain, ecKeyOf } from "../support/ledgerWrites.js";
import { LedgerdProcess, PROJECT_ROOT, RpcCallError } from "../support/nodeProcess.js";
import { waitFor } from "../support/waitFor.js";

const WALLET_BIN = join(PROJECT_ROOT, "bin", "ledgerd-wallet");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function wallet(home: string, args: string[]): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  return new Promise((resolve) => {
    execFile(WALLET_BIN, args, { env: { ...clean, HOME: home }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code =
        err === null ? 0 : typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** True when the text, as a proof, is refused (not JSON, or verifyProof throws ProtocolError). */
function refused(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return true;
  }
  try {
    verifyProof(parsed);
    return false;
  } catch (e) {
    if (e instanceof ProtocolError) return true;
    throw e;
  }
}

describe("proof: saved from a real node, verified with no node", () => {
  let node: LedgerdProcess;
  const home = mkdtempSync(join(tmpdir(), "ledgerd-proof-"));
  const file = join(home, "proof.json");
  let entryHash = "";

  before(async () => {
    node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    const call = (method: string, params?: unknown) => node.rpc(method, params);
    const ec = ecKeyOf("proof-test");
    await buyCredits(call, ec, 100);
    await waitFor(
      "entry credits bought",
      async () => {
        const b = await node.rpc<{ balance: number }>("entry-credit-balance", {
          address: encodeAddress("EC", ec.publicKey),
        });
        return b.balance >= 100 ? true : undefined;
      },
      60_000,
      100,
    );
    const chain = await createChain(call, ec, "proof-test-chain");
    entryHash = (await addEntry(call, ec, chain.chainId, "a document to prove", { extIds: ["doc", "42"] })).entryHash;
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  it("refuses bad input naming the member, and answers -32010 for an entry not saved", async () => {
    await assert.rejects(node.rpc("proof", { hash: "zz" }), (e: unknown) => {
      assert.ok(e instanceof RpcCallError);
      assert.equal(e.code, -32602);
      assert.match(String(e.data), /hash/);
      return true;
    });
    await assert.rejects(node.rpc("proof", { hash: "ab".repeat(32) }), (e: unknown) => {
      assert.ok(e instanceof RpcCallError);
      assert.equal(e.code, -32010);
      return true;
    });
  });

  it("the wallet saves the node's proof once the next block signs the entry's block", async () => {
    // the signatures over block H are in admin block H+1: poll until the node can answer
    await waitFor(
      "a proof of the entry",
      async () => {
        try {
          await node.rpc<ProofJson>("proof", { hash: entryHash });
          return true;
        } catch (e) {
          if (e instanceof RpcCallError && (e.code === -32010 || e.code === -32000)) return undefined;
          throw e;
        }
      },
      120_000,
      200,
    );
    const saved = await wallet(home, ["proof", entryHash, "--out", file, "--node", node.url]);
    assert.equal(saved.code, 0, saved.stderr);
    const proof = JSON.parse(readFileSync(file, "utf8")) as ProofJson;
    assert.equal(proof.entry.entryhash, entryHash);
    assert.equal(proof.signatures.adminblockheight, proof.receipt.directoryblockheight + 1);
    assert.equal(proof.authority.federated.length, 1);
    assert.equal(proof.signatures.signers.length, 1);
    // the genesis admin block names the bootstrap server: at least one change block
    assert.ok(proof.authority.changes.length >= 1);
    const receipt = await node.rpc<{ receipt: { directoryblockkeymr: string } }>("receipt", { hash: entryHash });
    assert.equal(proof.receipt.directoryblockkeymr, receipt.receipt.directoryblockkeymr);
  });

  it("verifies with the node stopped: the wallet's --verify asks no node", async () => {
    await node.stop();
    const ok = await wallet(home, ["proof", "--verify", file, "--node", "http://127.0.0.1:9"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, new RegExp(`Proof verified \\(no node asked\\): entry ${entryHash}`));
    assert.match(ok.stdout, /signed by 1 of 1 federated servers \(1 needed\)/);
    assert.match(ok.stdout, /the network's, as this wallet knows it/);
    const summary = await wallet(home, ["proof", "--verify", file, "--json"]);
    assert.equal(summary.code, 0, summary.stderr);
    assert.equal(JSON.parse(summary.stdout).entryhash, entryHash);
    // a key other than the network's as trust root: refused
    const pinned = await wallet(home, ["proof", "--verify", file, "--bootstrap-key", "11".repeat(32)]);
    assert.equal(pinned.code, 2);
    assert.match(pinned.stderr, /bootstrap\.publickey: is not the network's bootstrap key/);
  });

  it("a single flipped byte anywhere in the saved file fails it (every position, bit 0 and bit 5)", async (t) => {
    const original = readFileSync(file);
    assert.equal(refused(original.toString("utf8")), false, "the untouched proof verifies");
    let tried = 0;
    const passed: string[] = [];
    for (let i = 0; i < original.length; i++) {
      for (const mask of [0x01, 0x20]) {
        const copy = Buffer.from(original);
        copy[i] = copy[i]! ^ mask;
        // the trailing newline after the JSON is not part of the proof
        if (i === original.length - 1 && original[i] === 0x0a) continue;
        tried++;
        if (!refused(copy.toString("latin1"))) passed.push(`byte ${i} ^ ${mask}`);
      }
    }
    assert.deepEqual(passed, [], `changed proofs that still verified (of ${tried})`);
    assert.ok(tried > 2000, `${tried} changed copies tried`);
    t.diagnostic(`${tried} changed copies of a ${original.length}-byte proof, all refused`);
    // and through the command line, a few of them: exit code 2, "does NOT verify"
    for (const at of [10, Math.floor(original.length / 2), original.length - 20]) {
      const copy = Buffer.from(original);
      copy[at] = copy[at]! ^ 0x01;
      const bad = join(home, `bad-${at}.json`);
      writeFileSync(bad, copy);
      const run = await wallet(home, ["proof", "--verify", bad]);
      assert.equal(run.code, 2, `byte ${at}: ${run.stdout}`);
      assert.match(run.stderr, /does NOT verify/);
    }
  });
});
