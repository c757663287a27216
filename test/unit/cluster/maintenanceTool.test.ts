/**
 * `ledgerd-cluster set-ec-rate` and `swap` without a node (tools/cluster/maintenance.ts): `-h` pages, "did you
 * mean" for a verb and for an option, `--dry-run` (set-ec-rate: the message a node decodes to a setEcRate record
 * whose signature verifies with LOCAL's rate authority key; swap: what would be written), a swap's writes to two
 * real files (both directions) and its refusals, and the INI edit it makes (comments and other lines kept).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { decodeRecord, RecordKind, verifyRecord } from "../../../src/cluster/records.js";
import { loadConfig } from "../../../src/config/index.js";
import { fromHex } from "../../../src/protocol/bytes.js";
import { networkId } from "../../../src/protocol/network.js";
import { parseRate, setIniField } from "../../../tools/cluster/maintenance.js";
import { runClusterTool } from "../../support/clusterToolRun.js";

/** Run the tool in this process, its output captured. */
const run = runClusterTool;

/** LOCAL's rate authority public key, as [App] ExchangeRateAuthorityPublicKeyLocalNet names it by default. */
const LOCAL_RATE_KEY = fromHex("3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29");
const ID = "ab".repeat(32);
const SEED = "cd".repeat(32);

describe("ledgerd-cluster set-ec-rate and swap", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-swap-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("-h pages; a misspelled verb or option gets the closest one", async () => {
    for (const verb of ["set-ec-rate", "swap"]) {
      const r = await run([verb, "-h"]);
      assert.equal(r.code, 0);
      assert.ok(r.out.startsWith(`ledgerd-cluster ${verb} `), r.out);
      assert.match(r.out, /--dry-run/);
    }
    assert.match((await run(["set-ec-rat"])).err, /did you mean set-ec-rate\?/);
    const r = await run(["set-ec-rate", "--rate", "2000", "--hieght", "9", "--dry-run"]);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /set-ec-rate: unknown option --hieght; did you mean --height\? \(ledgerd-cluster set-ec-rate -h\)/,
    );
  });

  it("set-ec-rate --dry-run: the message decodes to the record, signed by LOCAL's rate authority", async () => {
    const r = await run(["set-ec-rate", "--rate", "2500", "--height", "77", "--dry-run"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as { record: Record<string, unknown>; message: string };
    assert.deepEqual(
      { ...j.record, signature: undefined },
      { kind: "setEcRate", rate: "2500", activationHeight: 77, signature: undefined },
    );
    const bytes = fromHex(j.message);
    assert.equal(bytes[0], 0x19);
    bytes[0] = RecordKind.setEcRate;
    const rec = decodeRecord(bytes);
    assert.ok(rec.kind === "setEcRate" && rec.rate === 2500n && rec.activationHeight === 77);
    assert.ok(verifyRecord(rec, networkId("LOCAL"), LOCAL_RATE_KEY), "signed by the LOCAL rate authority");
    assert.ok(
      !verifyRecord(
        rec,
        networkId("LOCAL"),
        fromHex("cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a"),
      ),
    );
    // refused by the tool before anything is signed
    for (const [rate, re] of [
      ["0", /--rate: 0 would give entry credits away/],
      ["1.5", /--rate: expected base units per entry credit/],
      ["18446744073709551616", /does not fit in 64 bits/],
    ] as const) {
      const bad = await run(["set-ec-rate", "--rate", rate, "--height", "77", "--dry-run"]);
      assert.equal(bad.code, 1);
      assert.match(bad.err, re);
    }
    assert.equal(parseRate("18446744073709551615"), 2n ** 64n - 1n);
  });

  it("setIniField: replaces the field in its group, adds it at the group's end, or adds the group", () => {
    const text = "; comment\n[App]\nPortNumber = 1\n; note\nIdentityStopHeight = 5\n\n[Log]\nLogLevel = error\n";
    assert.equal(
      setIniField(text, "App", "IdentityStopHeight", "9"),
      "; comment\n[App]\nPortNumber = 1\n; note\nIdentityStopHeight = 9\n\n[Log]\nLogLevel = error\n",
    );
    assert.equal(
      setIniField(text, "App", "IdentityActivationHeight", "9"),
      "; comment\n[App]\nPortNumber = 1\n; note\nIdentityStopHeight = 5\nIdentityActivationHeight = 9\n\n[Log]\nLogLevel = error\n",
    );
    assert.equal(setIniField("[Log]\nLogLevel = error\n", "App", "X", "1"), "[Log]\nLogLevel = error\n[App]\nX = 1\n");
    // a field of another group with the same name is not touched
    assert.equal(setIniField("[Log]\nX = 1\n[App]\n", "App", "X", "2"), "[Log]\nX = 1\n[App]\nX = 2\n");
  });

  it("swap: writes both files (both directions); the node reads the windows back; refusals", async () => {
    const a = join(dir, "a.conf");
    const b = join(dir, "b.conf");
    const conf = (extra = "") => `[App]\nIdentityChainID = ${ID}\nLocalServerPrivKey = ${SEED}\n${extra}`;
    writeFileSync(a, conf("; machine A\n"));
    writeFileSync(b, conf());
    const dry = await run(["swap", "--from", a, "--to", b, "--height", "50", "--dry-run"]);
    assert.equal(dry.code, 0, dry.err);
    assert.deepEqual(JSON.parse(dry.out), {
      identity: ID,
      height: 50,
      from: { file: a, set: ["[App] IdentityStopHeight = 50"] },
      to: { file: b, set: ["[App] IdentityActivationHeight = 50", "[App] IdentityStopHeight = 0"] },
    });
    assert.equal(readFileSync(a, "utf8"), conf("; machine A\n"), "--dry-run writes nothing");

    const window = (file: string) => loadConfig([`-config=${file}`], {}).signingWindow;
    assert.equal((await run(["swap", "--from", a, "--to", b, "--height", "50"])).code, 0);
    assert.deepEqual(window(a), { fromHeight: 0, untilHeight: 50 });
    assert.deepEqual(window(b), { fromHeight: 50, untilHeight: 0 });
    assert.match(readFileSync(a, "utf8"), /; machine A/, "comments kept");
    // and back at 80: A signs again from 80, B stops there
    assert.equal((await run(["swap", "--from", b, "--to", a, "--height", "80"])).code, 0);
    assert.deepEqual(window(a), { fromHeight: 80, untilHeight: 0 });
    assert.deepEqual(window(b), { fromHeight: 50, untilHeight: 80 });
    // refused: B (active from 50) cannot hand over at 40, before it ever signs
    const never = await run(["swap", "--from", b, "--to", a, "--height", "40"]);
    assert.equal(never.code, 1);
    assert.match(never.err, /IdentityActivationHeight 50 is not before 40: it would never sign/);
    // refused: another identity, another key
    const c = join(dir, "c.conf");
    writeFileSync(c, `[App]\nIdentityChainID = ${"ef".repeat(32)}\nLocalServerPrivKey = ${SEED}\n`);
    assert.match((await run(["swap", "--from", a, "--to", c, "--height", "90"])).err, /not the identity of --from/);
    writeFileSync(c, `[App]\nIdentityChainID = ${ID}\nLocalServerPrivKey = ${"01".repeat(32)}\n`);
    assert.match((await run(["swap", "--from", a, "--to", c, "--height", "90"])).err, /LocalServerPrivKey differs/);
    assert.match((await run(["swap", "--from", a, "--to", b, "--height", "+3"])).err, /needs --url|needs a URL/);
  });
});
