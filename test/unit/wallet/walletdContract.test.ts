// The wallet service's contract: the daemon's handler table, the typed client's list and the node's list of
// wallet methods (which the node names in its -32601 answers) hold the same names; and the service's
// transactions under construction compute the txid and fee the signed transaction has.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { NodeClient } from "../../../src/client/nodeClient.js";
import { WALLET_METHOD_NAMES } from "../../../src/client/walletMethods.js";
import { keyPairFromSeed } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { transactionFeeEC, transactionId } from "../../../src/protocol/transaction.js";
import { V2_METHOD_NAMES, WALLET_SERVICE_METHODS } from "../../../src/rpc/methods.js";
import { WalletService } from "../../../tools/walletd/service.js";
import {
  expectAddress,
  parseAmount,
  setIo,
  signTmp,
  TmpTransactions,
  tmpFeeEC,
  tmpTxId,
} from "../../../tools/walletd/tmpTransactions.js";
import { WalletAccess } from "../../../tools/walletd/walletAccess.js";

describe("wallet service contract", () => {
  const dir = mkdtempSync(join(tmpdir(), "walletd-contract-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("handlers, client and the node's list name the same methods; none but properties is also the node's", () => {
    // a NodeClient is only constructed here, never called
    const node = new NodeClient({ url: "http://127.0.0.1:1" });
    const service = new WalletService({ access: new WalletAccess(join(dir, "w.json")), node });
    const handlers = Object.keys(service.handlers).sort();
    assert.deepEqual(handlers, Object.keys(WALLET_METHOD_NAMES).sort());
    assert.deepEqual([...WALLET_SERVICE_METHODS, "properties"].sort(), handlers);
    const shared = handlers.filter((m) => Object.hasOwn(V2_METHOD_NAMES, m));
    assert.deepEqual(shared, ["properties"]);
    node.close();
  });

  test("a transaction under construction has the txid and fee of its signed form", () => {
    const a = keyPairFromSeed("FA", new Uint8Array(32).fill(7));
    const b = keyPairFromSeed("FA", new Uint8Array(32).fill(8));
    const ec = keyPairFromSeed("EC", new Uint8Array(32).fill(9));
    const txs = new TmpTransactions();
    const tx = txs.create("t1", 1_700_000_000_000);
    setIo(tx, "inputs", { address: a.publicAddress, key: expectAddress(a.publicAddress, "FA"), amount: 5n });
    setIo(tx, "inputs", { address: b.publicAddress, key: expectAddress(b.publicAddress, "FA"), amount: 300_000_000n });
    setIo(tx, "outputs", { address: a.publicAddress, key: expectAddress(a.publicAddress, "FA"), amount: 1n });
    setIo(tx, "ecOutputs", { address: ec.publicAddress, key: expectAddress(ec.publicAddress, "EC"), amount: 2n });
    // setting an address again changes its amount, it adds no second entry
    setIo(tx, "inputs", { address: a.publicAddress, key: expectAddress(a.publicAddress, "FA"), amount: 6n });
    assert.equal(tx.inputs.length, 2);
    const before = tmpTxId(tx);
    const signed = signTmp(tx, [a.seed, b.seed]);
    assert.equal(toHex(transactionId(signed)), before);
    assert.equal(tmpFeeEC(tx), transactionFeeEC(signed));
    assert.equal(tmpFeeEC(tx), 1 + 10 * 2 + 2);
    setIo(tx, "outputs", { address: a.publicAddress, key: expectAddress(a.publicAddress, "FA"), amount: 2n });
    assert.equal(tx.signed, undefined, "a change drops the signatures");
    assert.throws(() => signTmp(tx, [b.seed, a.seed]), /a key does not match its input/);
  });

  test("names and amounts are refused with the reason", () => {
    const txs = new TmpTransactions();
    assert.throws(() => txs.create("has space", 0), /not a valid name/);
    assert.throws(() => txs.create("x".repeat(33), 0), /not a valid name/);
    txs.create("ok_1-A", 0);
    assert.throws(() => txs.create("ok_1-A", 0), /already exists/);
    assert.throws(() => txs.get("missing"), /no transaction named "missing"/);
    assert.equal(parseAmount("9223372036854775807"), (1n << 63n) - 1n);
    assert.throws(() => parseAmount("9223372036854775808"), /not in 0\.\.2\^63-1/);
    assert.throws(() => parseAmount(1.5), /whole number of base units/);
    assert.throws(() => parseAmount(-1), /not in 0\.\.2\^63-1/);
    assert.throws(
      () => expectAddress("EC2KnJQN86MYq4pQyeSGTHSiVdkhRCPXS3udzD4im6BXRBjZFMmR", "FA"),
      /not a valid FA address/,
    );
  });
});
