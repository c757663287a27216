// compose-chain / compose-entry / compose-transaction: byte-exact against public vectors where they
// exist, and every output decodes back with the protocol decoders to what was asked for.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeAddress, keyPairFromPrivate } from "../../../src/protocol/address.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import {
  commitTxId,
  decodeChainCommit,
  decodeEntryCommit,
  verifyCommitSignature,
} from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, entryCreditCost, entryHash, unmarshalEntry, weld } from "../../../src/protocol/entry.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { sha256d } from "../../../src/protocol/hash.js";
import {
  decodeTransaction,
  transactionFeeEC,
  transactionId,
  validateTransaction,
  verifyTransactionSignatures,
} from "../../../src/protocol/transaction.js";
import { composeChain, composeEntry, composeTransaction } from "../../../tools/wallet/compose.js";
import { loadVectorFiles, type Vector } from "../../support/vectors.js";

const vectors = loadVectorFiles();
function vector(file: string, id: string): Vector {
  const v = vectors.get(file)?.find((x) => x.id === id);
  assert.ok(v, `vector ${file}/${id} missing`);
  return v;
}

const EC_SECRET = "Es2Rf7iM6PdsqfYCo3D1tnAR65SkLENyWJG1deUzpRMQmbh9F3eG";
const ec = keyPairFromPrivate(EC_SECRET);
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

describe("compose vs. public vectors", () => {
  test("compose-entry reproduces factom.js's entry commit byte for byte", () => {
    const v = vector("commits", "commitentry-factomjs-payloadhere");
    const raw = fromHex(v.input.entryHex as string);
    const e = unmarshalEntry(raw);
    const c = composeEntry({
      chainId: e.chainId,
      extIds: e.extIds,
      content: e.content,
      ecSeed: keyPairFromPrivate(v.input.ecPrivate as string).seed,
      milliTime: v.input.millis as number,
    });
    assert.equal(c.commit.params.message, v.expected.commitHex);
    assert.equal(c.reveal.params.entry, v.input.entryHex);
    assert.equal(c.commit.method, "commit-entry");
    assert.equal(c.reveal.method, "reveal-entry");
  });

  test("compose-chain reproduces factom.js's chain commit byte for byte", () => {
    const v = vector("commits", "commitchain-factomjs-my-ext-id");
    const raw = fromHex(v.input.entryHex as string);
    const e = unmarshalEntry(raw);
    const c = composeChain({
      extIds: e.extIds,
      content: e.content,
      ecSeed: keyPairFromPrivate(v.input.ecPrivate as string).seed,
      milliTime: v.input.millis as number,
    });
    assert.equal(c.reveal.params.entry, v.input.entryHex, "chain ID derived from the ext IDs equals the vector's");
    assert.equal(c.commit.params.message, v.expected.commitHex);
    assert.equal(c.credits, 11);
  });
});

describe("compose output decodes back", () => {
  test("chain: commit and reveal agree (entry hash, chain ID hash, weld, credits, signature)", () => {
    const extIds = [utf8("quickstart"), Uint8Array.of(0, 1, 2, 255)];
    const content = utf8("Hello, ledger");
    const milliTime = 1_700_000_000_123;
    const c = composeChain({ extIds, content, ecSeed: ec.seed, milliTime });

    const raw = fromHex(c.reveal.params.entry);
    const entry = unmarshalEntry(raw);
    assert.deepEqual(entry.extIds.map(toHex), extIds.map(toHex));
    assert.equal(toHex(entry.content), toHex(content));
    assert.equal(toHex(entry.chainId), toHex(chainIdFromExtIds(extIds)));
    assert.equal(c.chainId, toHex(entry.chainId));

    const commit = decodeChainCommit(fromHex(c.commit.params.message));
    assert.ok(verifyCommitSignature(commit));
    assert.equal(toHex(commit.entryHash), toHex(entryHash(raw)));
    assert.equal(toHex(commit.chainIdHash), toHex(sha256d(entry.chainId)));
    assert.equal(toHex(commit.weld), toHex(weld(entryHash(raw), entry.chainId)));
    assert.equal(toHex(commit.ecPublicKey), toHex(ec.publicKey));
    assert.equal(commit.milliTime, milliTime);
    assert.equal(commit.credits, entryCreditCost(raw.length, true));
    assert.equal(c.entryHash, toHex(commit.entryHash));
    assert.equal(c.commitTxId, toHex(commitTxId(commit)));
    assert.deepEqual(
      Object.keys(c.commit),
      ["jsonrpc", "id", "params", "method"],
      "the reference wallet's member order",
    );
  });

  test("entry: 1 KiB boundaries set the credits; the signature covers the commit", () => {
    const chainId = chainIdFromExtIds([utf8("c")]);
    for (const [size, credits] of [
      [0, 1],
      [1, 1],
      [1024, 1],
      [1025, 2],
      [10240, 10],
    ] as const) {
      const c = composeEntry({
        chainId,
        extIds: [],
        content: new Uint8Array(size).fill(7),
        ecSeed: ec.seed,
        milliTime: 1,
      });
      const commit = decodeEntryCommit(fromHex(c.commit.params.message));
      assert.equal(commit.credits, credits, `payload ${size} bytes`);
      assert.ok(verifyCommitSignature(commit));
      assert.equal(toHex(commit.entryHash), toHex(entryHash(fromHex(c.reveal.params.entry))));
      // a flipped bit in the signed part must break the signature
      const tampered = fromHex(c.commit.params.message);
      tampered[10] = tampered[10]! ^ 1; // a bit of the entry hash
      assert.equal(verifyCommitSignature(decodeEntryCommit(tampered)), false);
    }
  });

  test("an entry over 10 KiB is refused with a ProtocolError", () => {
    const chainId = chainIdFromExtIds([utf8("c")]);
    assert.throws(
      () => composeEntry({ chainId, extIds: [], content: new Uint8Array(10241), ecSeed: ec.seed, milliTime: 1 }),
      ProtocolError,
    );
  });

  test("transaction: decodes, signatures verify, fee is exactly the minimum at the rate", () => {
    const sand = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
    const to = decodeAddress("FA1zT4aFpEvcnPqPCigB3fvGu4Q4mTXY22iiuV69DqE1pNhdF2MC", "FA").key;
    // amounts around varint length boundaries (the fee is part of the input amount)
    for (const amount of [1n, 127n, 16383n, 16384n - 1000n, 2097151n, 150000000n, 2000000000000n]) {
      for (const rate of [1n, 1000n, 90000n]) {
        const c = composeTransaction({
          inputSeed: sand.seed,
          outputs: [{ address: to, amount }],
          ecOutputs: [],
          rate,
          milliTimestamp: 1_700_000_000_000,
        });
        const tx = decodeTransaction(fromHex(c.request.params.transaction));
        assert.ok(verifyTransactionSignatures(tx));
        const feeEC = transactionFeeEC(tx);
        assert.equal(c.feeEC, feeEC);
        assert.equal(c.fee, BigInt(feeEC) * rate);
        assert.equal(tx.inputs[0]!.amount, amount + c.fee);
        assert.equal(c.inputAmount, amount + c.fee);
        assert.equal(toHex(tx.inputs[0]!.address), toHex(decodeAddress(sand.publicAddress, "FA").key));
        validateTransaction(tx, rate); // enough fee at this rate
        if (feeEC > 0)
          assert.throws(
            () => validateTransaction(tx, rate + 1n),
            "minimum fee: one more base unit per EC is not covered",
          );
        assert.equal(c.txId, toHex(transactionId(tx)));
      }
    }
  });

  test("EC purchase: one EC output of credits × rate to the EC public key", () => {
    const sand = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
    const rate = 1000n;
    const c = composeTransaction({
      inputSeed: sand.seed,
      outputs: [],
      ecOutputs: [{ address: ec.publicKey, amount: 100n * rate }],
      rate,
      milliTimestamp: 1_700_000_000_000,
    });
    const tx = decodeTransaction(fromHex(c.request.params.transaction));
    assert.equal(tx.outputs.length, 0);
    assert.equal(tx.ecOutputs.length, 1);
    assert.equal(toHex(tx.ecOutputs[0]!.address), toHex(ec.publicKey));
    assert.equal(tx.ecOutputs[0]!.amount, 100000n);
    // 1 KiB or less → 1, one output → 10, one signature → 1
    assert.equal(c.feeEC, 12);
    assert.equal(c.request.method, "asset-submit");
    validateTransaction(tx, rate);
  });
});
