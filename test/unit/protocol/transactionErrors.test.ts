/**
 * Edges of protocol/transaction.ts that the first mutation run left open (docs/testing.md): the exact
 * error of each rule of decodeTransaction, encodeTransaction, validateTransaction and
 * transactionSignatureChecks (what a client reads in `data`), the size limit at both sides of 10,240
 * bytes, and the checks that only objects built in code (not decoded bytes) can reach.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyPairFromSeed } from "../../../src/protocol/address.js";
import { fromHex } from "../../../src/protocol/bytes.js";
import {
  buildTransaction,
  decodeTransaction,
  encodeTransaction,
  type Transaction,
  transactionSignatureChecks,
  validateTransaction,
} from "../../../src/protocol/transaction.js";
import { expectProtocolError } from "../../support/fuzz.js";

/** `fn`'s ProtocolError as "CODE field: detail". */
function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const a = keyPairFromSeed("FA", new Uint8Array(32).fill(1));
const b = keyPairFromSeed("FA", new Uint8Array(32).fill(2));
const to = new Uint8Array(32).fill(9);
/** Two inputs, one output, one EC output. */
const tx = buildTransaction({
  milliTimestamp: 1_700_000_000_000,
  inputs: [
    { seed: a.seed, amount: 1000n },
    { seed: b.seed, amount: 2000n },
  ],
  outputs: [{ address: to, amount: 2500n }],
  ecOutputs: [{ address: to, amount: 400n }],
});
const signedLength = tx.signedPart.length;

describe("decodeTransaction errors", () => {
  test("version, RCD type and an amount of 2^63 are named", () => {
    const v = tx.raw.slice();
    v[0] = 3;
    assert.equal(
      errorOf(() => decodeTransaction(v)),
      "BAD_VERSION transaction.version: expected 2, got 3",
    );
    const r = tx.raw.slice();
    r[signedLength + 97] = 2; // the second input's RCD type
    assert.equal(
      errorOf(() => decodeTransaction(r)),
      "BAD_RCD transaction.rcds[1]: RCD type 2 is not supported (only type 1)",
    );
    // one input of 2^63 (varint 81 80 80 80 80 80 80 80 80 00), no outputs
    const big = fromHex(`02${"00".repeat(6)}010000${"81808080808080808000"}${"00".repeat(32)}`);
    assert.equal(
      errorOf(() => decodeTransaction(big)),
      `BAD_VALUE transaction.inputs[0].amount: amount ${2n ** 63n} is not below 2^63 base units`,
    );
  });

  test("10,240 bytes is the largest size: one byte more is TOO_LARGE before anything is read", () => {
    assert.notEqual(errorOf(() => decodeTransaction(new Uint8Array(10240))).split(" ")[0], "TOO_LARGE");
    assert.equal(
      errorOf(() => decodeTransaction(new Uint8Array(10241))),
      "TOO_LARGE transaction: 10241 bytes, the limit is 10240",
    );
  });
});

describe("encodeTransaction errors", () => {
  const fields = (t: Transaction): Omit<Transaction, "raw" | "signedPart"> => ({
    version: t.version,
    milliTimestamp: t.milliTimestamp,
    inputs: t.inputs,
    outputs: t.outputs,
    ecOutputs: t.ecOutputs,
    rcds: t.rcds,
    signatures: t.signatures,
  });
  test("lists, amounts, counts and RCD types are named", () => {
    const many = Array.from({ length: 256 }, () => ({ address: to, amount: 1n }));
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), outputs: many })),
      "TOO_LARGE transaction.outputs: 256 items, at most 255",
    );
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), outputs: [{ address: to, amount: -1n }] })),
      "BAD_VALUE transaction.outputs[0].amount: amount -1 outside 0..2^63-1 base units",
    );
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), ecOutputs: [{ address: to, amount: 2n ** 63n }] })),
      `BAD_VALUE transaction.ecOutputs[0].amount: amount ${2n ** 63n} outside 0..2^63-1 base units`,
    );
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), outputs: [{ address: to, amount: 5 as unknown as bigint }] })),
      "BAD_VALUE transaction.outputs[0].amount: amount 5 outside 0..2^63-1 base units",
    );
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), rcds: tx.rcds.slice(0, 1) })),
      "BAD_RCD transaction.rcds: 1 RCD(s) for 2 input(s)",
    );
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), signatures: tx.signatures.slice(0, 1) })),
      "BAD_SIGNATURE transaction.signatures: 1 signature block(s) for 2 input(s)",
    );
    const rcd2 = tx.rcds[1]!.slice();
    rcd2[0] = 2;
    assert.equal(
      errorOf(() => encodeTransaction({ ...fields(tx), rcds: [tx.rcds[0]!, rcd2] })),
      "BAD_RCD transaction.rcds[1]: RCD type 2 is not supported (only type 1)",
    );
  });
});

describe("validateTransaction errors", () => {
  test("size at both sides of 10,240 bytes, no inputs, address and signature block shape", () => {
    validateTransaction({ ...tx, raw: new Uint8Array(10240) }, 0n);
    assert.equal(
      errorOf(() => validateTransaction({ ...tx, raw: new Uint8Array(10241) }, 0n)),
      "TOO_LARGE transaction: 10241 bytes, the limit is 10240",
    );
    assert.equal(
      errorOf(() => validateTransaction({ ...tx, inputs: [], rcds: [], signatures: [] }, 0n)),
      "BAD_VALUE transaction.inputs: a transaction other than the coinbase needs at least one input",
    );
    assert.equal(
      errorOf(() => validateTransaction({ ...tx, inputs: [tx.inputs[0]!, { ...tx.inputs[1]!, address: to }] }, 0n)),
      "BAD_RCD transaction.inputs[1].address: does not match the hash of RCD 1",
    );
    for (const block of [[tx.signatures[1]![0]!, tx.signatures[1]![0]!], [new Uint8Array(63)], []])
      assert.equal(
        errorOf(() => validateTransaction({ ...tx, signatures: [tx.signatures[0]!, block] }, 0n)),
        "BAD_SIGNATURE transaction.signatures[1]: an RCD1 signature block holds exactly one 64-byte signature",
      );
  });

  test("amounts within 0..2^63-1, sums below 2^63, a rate of 0 or more", () => {
    assert.equal(
      errorOf(() => validateTransaction({ ...tx, outputs: [{ address: to, amount: 2n ** 63n }] }, 0n)),
      `BAD_VALUE transaction.outputs[0].amount: amount ${2n ** 63n} outside 0..2^63-1 base units`,
    );
    assert.equal(
      errorOf(() => validateTransaction({ ...tx, inputs: [{ ...tx.inputs[0]!, amount: -1n }, tx.inputs[1]!] }, 0n)),
      "BAD_VALUE transaction.inputs[0].amount: amount -1 outside 0..2^63-1 base units",
    );
    const half = { address: to, amount: 2n ** 62n };
    assert.equal(
      errorOf(() => validateTransaction({ ...tx, outputs: [half], ecOutputs: [half] }, 0n)),
      "BAD_VALUE transaction.ecOutputs: sum of amounts reaches 2^63 base units",
    );
    assert.equal(
      errorOf(() =>
        validateTransaction(
          {
            ...tx,
            inputs: [
              { ...tx.inputs[0]!, amount: 2n ** 62n },
              { ...tx.inputs[1]!, amount: 2n ** 62n },
            ],
          },
          0n,
        ),
      ),
      "BAD_VALUE transaction.inputs: sum of amounts reaches 2^63 base units",
    );
    validateTransaction({ ...tx, outputs: [{ address: to, amount: 0n }], ecOutputs: [] }, 0n);
    assert.equal(
      errorOf(() => validateTransaction(tx, -1n)),
      "BAD_VALUE rate: exchange rate -1 is negative",
    );
  });
});

describe("transactionSignatureChecks and buildTransaction", () => {
  test("one RCD and one signature per input, each block exactly one signature", () => {
    assert.equal(transactionSignatureChecks(tx).length, 2);
    for (const bad of [{ rcds: tx.rcds.slice(0, 1) }, { signatures: tx.signatures.slice(0, 1) }])
      assert.equal(
        errorOf(() => transactionSignatureChecks({ ...tx, ...bad })),
        "BAD_RCD transaction.rcds: every input needs one RCD and one signature block",
      );
    assert.equal(
      errorOf(() => transactionSignatureChecks({ ...tx, signatures: [tx.signatures[0]!, []] })),
      "BAD_SIGNATURE transaction.signatures[1]: an RCD1 signature block holds exactly one 64-byte signature",
    );
  });

  test("a seed of another length is named; the built transaction keeps its own copies of the addresses", () => {
    assert.equal(
      errorOf(() =>
        buildTransaction({
          milliTimestamp: 1,
          inputs: [{ seed: new Uint8Array(31), amount: 1n }],
          outputs: [],
          ecOutputs: [],
        }),
      ),
      "BAD_LENGTH transaction.inputs[0].seed: expected a 32-byte ed25519 seed",
    );
    const out = new Uint8Array(32).fill(4);
    const ec = new Uint8Array(32).fill(5);
    const built = buildTransaction({
      milliTimestamp: 1,
      inputs: [{ seed: a.seed, amount: 10n }],
      outputs: [{ address: out, amount: 1n }],
      ecOutputs: [{ address: ec, amount: 1n }],
    });
    out.fill(0);
    ec.fill(0);
    assert.deepEqual(built.outputs[0]!.address, new Uint8Array(32).fill(4));
    assert.deepEqual(built.ecOutputs[0]!.address, new Uint8Array(32).fill(5));
  });
});
