import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseArgs } from "../../../tools/wallet/args.js";
import { UsageError } from "../../../tools/wallet/errors.js";

describe("wallet command line", () => {
  test("the four option spellings, anywhere on the line", () => {
    const a = parseArgs([
      "-node=http://a",
      "balance",
      "--wallet",
      "/w.json",
      "FA1",
      "--rpcuser=u",
      "-rpcpass",
      "p",
      "FA2",
    ]);
    assert.equal(a.command, "balance");
    assert.deepEqual(a.positionals, ["FA1", "FA2"]);
    assert.deepEqual(Object.fromEntries(a.values), { node: "http://a", wallet: "/w.json", rpcuser: "u", rpcpass: "p" });
  });

  test("repeatable options keep their relative order; values may start with '-' via '='", () => {
    const a = parseArgs(["add-chain", "--ext", "a", "--ext-hex", "00", "--ext=-b", "--content=-x", "EC1"]);
    assert.deepEqual(a.repeated, [
      { name: "ext", value: "a" },
      { name: "ext-hex", value: "00" },
      { name: "ext", value: "-b" },
    ]);
    assert.equal(a.values.get("content"), "-x");
    assert.deepEqual(a.positionals, ["EC1"]);
  });

  test("switches, '--' and values that look negative", () => {
    const a = parseArgs(["receipt", "--verify", "-q=true", "--json=false", "--", "--not-an-option"]);
    assert.deepEqual([...a.flags].sort(), ["q", "verify"]);
    assert.deepEqual(a.positionals, ["--not-an-option"]);
    assert.deepEqual(parseArgs(["send", "FA", "FA", "-1.5"]).positionals, ["FA", "FA", "-1.5"]);
    assert.deepEqual(parseArgs(["add-entry", "--content-file", "-"]).values.get("content-file"), "-");
  });

  test("unknown options, switches with values and options without values are usage errors", () => {
    assert.throws(
      () => parseArgs(["list", "--frob"]),
      (e: unknown) => e instanceof UsageError && e.message === "unknown option --frob; did you mean --from?",
    );
    assert.throws(
      () => parseArgs(["list", "--pass=secret"]),
      (e: unknown) => e instanceof UsageError && !e.message.includes("secret"),
    );
    assert.throws(() => parseArgs(["receipt", "--verify=yes"]), /is a switch/);
    assert.throws(() => parseArgs(["balance", "-node"]), /option -node needs a value/);
  });
});
