import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  AmountError,
  formatAssetAmount,
  MAX_AMOUNT,
  parseAssetAmount,
  parseEcAmount,
} from "../../../tools/wallet/amount.js";

describe("wallet amounts", () => {
  test("decimal asset units → exact base units", () => {
    const cases: [string, bigint][] = [
      ["1", 100000000n],
      ["1.5", 150000000n],
      ["0.00000001", 1n],
      [".5", 50000000n],
      ["2.", 200000000n],
      ["20000", 2000000000000n],
      ["0.1", 10000000n], // 0.1 is not exact as a float; here it is
      ["1234567.89012345", 123456789012345n],
      ["92233720368.54775807", MAX_AMOUNT],
      [" 3 ", 300000000n],
    ];
    for (const [text, base] of cases) assert.equal(parseAssetAmount(text), base, text);
  });

  test("refuses what is not an exact positive amount, naming the field", () => {
    const bad = [
      "",
      ".",
      "-1",
      "+1",
      "1e3",
      "1,5",
      "1_000",
      "0x10",
      "abc",
      "1.000000001",
      "0",
      "0.00000000",
      "92233720368.54775808",
      "NaN",
      "Infinity",
    ];
    for (const text of bad)
      assert.throws(
        () => parseAssetAmount(text, "amount"),
        (e: unknown) => e instanceof AmountError && /^amount: /.test(e.message),
        text,
      );
    assert.match(
      (() => {
        try {
          parseAssetAmount("1.123456789");
        } catch (e) {
          return (e as Error).message;
        }
        return "";
      })(),
      /9 decimal places; at most 8/,
    );
    assert.equal(parseAssetAmount("0", "amount", true), 0n, "zero when allowed");
  });

  test("base units → shortest decimal and back", () => {
    const cases: [bigint, string][] = [
      [0n, "0"],
      [1n, "0.00000001"],
      [150000000n, "1.5"],
      [2000000000000n, "20000"],
      [123456789012345n, "1234567.89012345"],
      [-150000000n, "-1.5"],
    ];
    for (const [base, text] of cases) {
      assert.equal(formatAssetAmount(base), text);
      if (base > 0n) assert.equal(parseAssetAmount(text), base);
    }
  });

  test("entry credits are whole positive numbers", () => {
    assert.equal(parseEcAmount("100"), 100n);
    for (const bad of ["0", "1.5", "-3", "", "1e2", "ten"]) assert.throws(() => parseEcAmount(bad), AmountError, bad);
  });
});
