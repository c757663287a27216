/**
 * The entry-credit rate's rules and its schedule file (src/cluster/ecRate.ts) without a ledger: each refusal
 * of setEcRateRefusal named; the schedule written at each add and read back keeping only the changes recorded
 * up to the saved block's log sequence and not yet in a saved block; `openAt` answering a change's rate at its
 * height only; a damaged file logged as an error and read as empty.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EcRateSchedule, type SetEcRateRecord, setEcRateRefusal } from "../../../src/cluster/ecRate.js";
import { signRecord } from "../../../src/cluster/records.js";
import { BOOT_SEED, NET, RATE_KEY, RATE_SEED } from "../../support/memoryFederation.js";
import { MemoryLog } from "../ledger/harness.js";

const NO_SIG = new Uint8Array(64);
const rec = (rate: bigint, activationHeight: number, seed: Uint8Array = RATE_SEED): SetEcRateRecord =>
  signRecord({ kind: "setEcRate", rate, activationHeight, signature: NO_SIG }, NET, seed);

describe("entry-credit rate: rules and schedule file", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-ecrate-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("setEcRateRefusal names each refusal", () => {
    const at = (pending: { activationHeight: number; rate: bigint; seq: number }[] = []) => ({
      openHeight: 10,
      networkId: NET,
      authority: RATE_KEY as Uint8Array | undefined,
      pending,
      maxLead: 100,
    });
    assert.equal(setEcRateRefusal(rec(2000n, 20), at()), undefined);
    assert.equal(
      setEcRateRefusal(rec(2000n, 20), { ...at(), authority: undefined }),
      "this network names no entry-credit rate authority",
    );
    assert.equal(setEcRateRefusal(rec(2000n, 20, BOOT_SEED), at()), "the signature is not the rate authority's");
    assert.equal(
      setEcRateRefusal(rec(2000n, 20), { ...at(), networkId: NET + 1 }),
      "the signature is not the rate authority's",
    );
    assert.match(setEcRateRefusal(rec(0n, 20), at())!, /a rate of 0/);
    assert.equal(setEcRateRefusal(rec(2000n, 10), at()), "activation height 10 is not after the open height 10");
    assert.equal(setEcRateRefusal(rec(2000n, 110), at()), undefined);
    assert.equal(
      setEcRateRefusal(rec(2000n, 111), at()),
      "activation height 111 is more than 100 blocks after the open height 10",
    );
    const pending = [{ activationHeight: 20, rate: 2000n, seq: 5 }];
    assert.equal(
      setEcRateRefusal(rec(2000n, 20), at(pending)),
      "replay: the rate 2000 is already scheduled for height 20",
    );
    assert.equal(
      setEcRateRefusal(rec(3000n, 20), at(pending)),
      "activation height 20 is not after the rate change already scheduled for 20",
    );
    assert.equal(
      setEcRateRefusal(rec(3000n, 15), at(pending)),
      "activation height 15 is not after the rate change already scheduled for 20",
    );
    assert.equal(setEcRateRefusal(rec(3000n, 21), at(pending)), undefined);
  });

  it("the file keeps what a restart needs; openAt answers at the height only", () => {
    const file = join(dir, "rates.json");
    const log = new MemoryLog();
    const s = new EcRateSchedule({ file }, { logger: log });
    s.load(0, 0);
    assert.deepEqual(s.scheduled(), []);
    s.add(rec(2000n, 20), 7);
    s.add(rec(3000n, 30), 9);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), {
      format: 1,
      pending: [
        { activationHeight: 20, rate: "2000", seq: 7 },
        { activationHeight: 30, rate: "3000", seq: 9 },
      ],
    });
    // a restart with block 19 saved at log sequence 8: the change recorded at 9 comes again from the log
    const r = new EcRateSchedule({ file }, { logger: log });
    r.load(8, 19);
    assert.deepEqual(r.scheduled(), [{ activationHeight: 20, rate: 2000n, seq: 7 }]);
    // a restart with block 20 saved: that change is in the chain now (the asset block of 20 carries it)
    r.load(9, 20);
    assert.deepEqual(r.scheduled(), [{ activationHeight: 30, rate: 3000n, seq: 9 }]);
    // openAt: only at the change's height
    s.load(9, 0);
    assert.equal(s.openAt(19), undefined);
    assert.equal(s.openAt(20), 2000n);
    assert.equal(s.openAt(21), undefined);
    assert.deepEqual(
      s.scheduled().map((x) => x.activationHeight),
      [30],
      "changes before the open height are forgotten",
    );
    assert.equal(s.openAt(30), 3000n);
    assert.equal(log.lines.filter((l) => l.level === "error").length, 0);
  });

  it("a damaged or foreign file is an error in the log and an empty schedule", () => {
    const file = join(dir, "bad.json");
    const log = new MemoryLog();
    for (const body of [
      "{not json",
      JSON.stringify({ format: 2, pending: [] }),
      JSON.stringify({ format: 1, pending: [{ activationHeight: 5, rate: "0", seq: 1 }] }),
      JSON.stringify({ format: 1, pending: [{ activationHeight: "5", rate: "10", seq: 1 }] }),
    ]) {
      writeFileSync(file, body);
      const s = new EcRateSchedule({ file }, { logger: log });
      s.load(100, 0);
      assert.deepEqual(s.scheduled(), [], body);
    }
    assert.equal(log.lines.filter((l) => l.level === "error" && /damaged/.test(l.msg)).length, 4);
    // no file: nothing, and nothing to say
    const none = new EcRateSchedule({ file: join(dir, "missing.json") }, { logger: log });
    none.load(100, 0);
    assert.deepEqual(none.scheduled(), []);
    assert.equal(log.lines.length, 4);
  });
});
