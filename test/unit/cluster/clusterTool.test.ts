/**
 * `ledgerd-cluster`'s governance verbs without a node (tools/cluster/commands.ts): `-h` pages, "did you mean",
 * and `--dry-run`, whose message is the record the node would decode (send-raw-message 0x17 / 0x18 with the
 * kind byte in front) with a signature that verifies with the key that signed it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeRecord, RecordKind, verifyRecord } from "../../../src/cluster/records.js";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";
import { runClusterTool } from "../../support/clusterToolRun.js";

/** Run the tool in this process, its output captured. */
const run = runClusterTool;

const ID = "ab".repeat(32);

describe("ledgerd-cluster governance verbs", () => {
  it("each verb has a -h page; an unknown command is answered with the closest one", async () => {
    for (const verb of ["promote", "demote", "remove-server", "rotate-key"]) {
      const r = await run([verb, "-h"]);
      assert.equal(r.code, 0);
      assert.ok(r.out.startsWith(`ledgerd-cluster ${verb} `), r.out);
      assert.match(r.out, /--dry-run/);
    }
    const r = await run(["rotate-kye"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown command "rotate-kye"; did you mean rotate-key\?/);
  });

  it("--dry-run prints the signed record and the message a node decodes to it", async () => {
    const r = await run(["demote", "--identity", ID, "--height", "42", "--dry-run"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as { record: Record<string, unknown>; message: string };
    assert.deepEqual(
      { ...j.record, signature: undefined },
      { kind: "authorityChange", change: "demote", identity: ID, activationHeight: 42, signature: undefined },
    );
    const bytes = fromHex(j.message);
    assert.equal(bytes[0], 0x17);
    bytes[0] = RecordKind.authorityChange;
    const rec = decodeRecord(bytes);
    assert.equal(rec.kind, "authorityChange");
    assert.ok(
      rec.kind === "authorityChange" && verifyRecord(rec, networkId("LOCAL"), fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX)),
    );

    const seed = new Uint8Array(32).fill(7);
    const k = await run([
      "rotate-key",
      "--identity",
      ID,
      "--key",
      toHex(seed),
      "--new-pubkey",
      "cd".repeat(32),
      "--height",
      "9",
      "--dry-run",
    ]);
    assert.equal(k.code, 0, k.err);
    const m = fromHex((JSON.parse(k.out) as { message: string }).message);
    assert.equal(m[0], 0x18);
    m[0] = RecordKind.rotateKey;
    const rot = decodeRecord(m);
    assert.ok(rot.kind === "rotateKey" && verifyRecord(rot, networkId("LOCAL"), publicKeyFromSeed(seed)));
    assert.equal(rot.kind === "rotateKey" && toHex(rot.newKey), "cd".repeat(32));
  });

  it("bad arguments are named and nothing is printed as a record", async () => {
    const r = await run(["promote", "--identity", ID, "--height", "soon", "--dry-run"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /--height: expected a height N or \+N, got "soon"/);
    assert.equal(r.out, "");
    const u = await run(["promote", "--identity", ID, "--height", "+3", "--dry-run"]);
    assert.match(u.err, /--height \+N needs --url/);
    const n = await run(["remove-server", "--identity", ID, "--height", "5"]);
    assert.match(n.err, /--url is required/);
  });
});
