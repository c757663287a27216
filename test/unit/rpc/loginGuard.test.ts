// The failed-login budgets of rpc/loginGuard.ts on a clock the test moves: per address, in total, the
// address that logged in recently still getting in while the total is spent, and the refill.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createLogger } from "../../../src/log/logger.js";
import { LoginGuard, SOURCE_BURST, TOTAL_BURST } from "../../../src/rpc/loginGuard.js";

describe("LoginGuard budgets", () => {
  it("per address, in total, a recent login kept in, refilled with time", async () => {
    let now = 1_000_000;
    const log = createLogger({ level: "none", consoleLevel: "none" }, { stderr: { write: () => true } });
    const guard = new LoginGuard({ log, now: () => now });
    try {
      guard.succeeded("10.0.0.99");
      const fails: Promise<void>[] = [];
      for (let i = 0; i < SOURCE_BURST; i++) {
        assert.equal(guard.refusal("10.0.0.1"), undefined, `failure ${i + 1} is within the burst`);
        fails.push(guard.failed("10.0.0.1", "wrong", "/v2"));
      }
      assert.equal(guard.refusal("10.0.0.1"), 1, "the address's burst is spent: 429, retry in 1 s");
      assert.equal(guard.refusal("10.0.0.2"), undefined, "another address is not held up");
      now += 500; // 2 a second: one more failure after half a second
      assert.equal(guard.refusal("10.0.0.1"), undefined);
      // spend the total (full again: 20 a second refilled what the burst took) from other addresses
      for (let i = 0; i < TOTAL_BURST; i++) fails.push(guard.failed(`10.1.${i >> 3}.${i & 7}`, "wrong", "/v2"));
      assert.equal(guard.refusal("10.0.0.3"), 1, "the total is spent: a new address waits");
      assert.equal(guard.refusal("10.0.0.99"), undefined, "an address that logged in recently still gets in");
      now += 1000; // 20 a second in total
      assert.equal(guard.refusal("10.0.0.3"), undefined);
      assert.equal(guard.failures, SOURCE_BURST + TOTAL_BURST);
      assert.equal(guard.throttled, 2);
      await Promise.all(fails);
    } finally {
      guard.close();
    }
  });
});
