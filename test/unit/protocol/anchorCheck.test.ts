/**
 * The anchor transaction's rules (src/protocol/anchorCheck.ts), shared by the wallet's --anchor-rpc and the
 * control panel's page: the calldata reader against the node's own writer (anchor/ethereum.ts anchorCalldata,
 * viem), then the checks against a real local chain (ganache in this process, test/support/ethereumChain.ts)
 * holding real anchor transactions: the true anchor passes; each member changed to another real value (another
 * anchor's transaction, a plain transfer, a block of the chain, a height, an address) fails naming it; an
 * endpoint that does not answer is told apart from a chain that contradicts the anchor.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toFunctionSelector } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anchorCalldata } from "../../../src/anchor/ethereum.js";
import {
  AnchorRpcError,
  anchorRpcUrl,
  checkAnchorTransaction,
  decodeSetAnchor,
  fetchEthereumRpc,
  SET_ANCHOR_SELECTOR,
} from "../../../src/protocol/anchorCheck.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import type { ReceiptEthereumJson } from "../../../src/protocol/json/receiptJson.js";
import { EthereumChain } from "../../support/ethereumChain.js";
import { Random } from "../../support/random.js";

const KEY = `0x${toHex(new Random(2901).bytes(32))}`;
const FROM = privateKeyToAccount(KEY as `0x${string}`).address.toLowerCase();
const TO = "0x00000000000000000000000000000000000a0c40";

/** A ProtocolError check naming `field` with a detail matching `re`. */
const refused =
  (field: string, re: RegExp) =>
  (e: unknown): boolean => {
    assert.ok(e instanceof ProtocolError, String(e));
    assert.equal(e.field, field);
    assert.match(e.detail, re);
    return true;
  };

describe("anchor transaction rules: the calldata", () => {
  it("reads exactly what the anchorer writes (setAnchor(uint256,uint256), viem)", () => {
    assert.equal(SET_ANCHOR_SELECTOR, toFunctionSelector("setAnchor(uint256,uint256)"));
    const random = new Random(7);
    for (const height of [0, 1, 255, 70_000, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER]) {
      const root = random.bytes(32);
      const data = anchorCalldata(height, root);
      assert.deepEqual(decodeSetAnchor(data), { dbHeightMax: height, windowMR: toHex(root) });
      assert.deepEqual(decodeSetAnchor(data.toUpperCase().replace(/^0X/, "0x")), decodeSetAnchor(data));
      assert.equal(decodeSetAnchor(`${data}00`), undefined, "a trailing byte");
      assert.equal(decodeSetAnchor(data.slice(0, -2)), undefined, "a byte short");
      assert.equal(decodeSetAnchor(`0x00000000${data.slice(10)}`), undefined, "another function");
    }
    assert.equal(
      decodeSetAnchor(`${SET_ANCHOR_SELECTOR}${"0".repeat(49)}2${"0".repeat(14)}${"1".repeat(64)}`),
      undefined,
    );
    assert.equal(decodeSetAnchor(undefined), undefined);
    assert.equal(decodeSetAnchor("0x"), undefined);
    assert.equal(anchorRpcUrl(" http://127.0.0.1:8545 "), "http://127.0.0.1:8545");
    assert.equal(anchorRpcUrl("https://eth.example/rpc"), "https://eth.example/rpc");
    for (const bad of ["", "ftp://x", "127.0.0.1:8545", "http://a b", "javascript:alert(1)"])
      assert.equal(anchorRpcUrl(bad), undefined, bad);
  });
});

describe("anchor transaction rules: against a real chain", () => {
  let chain: EthereumChain;
  /** what the chain holds: two anchors to TO, a plain transfer to TO with other data */
  let first: ReceiptEthereumJson;
  let second: ReceiptEthereumJson;
  let plain: { txid: string; blockhash: string; blockheight: number; txindex: number };

  async function send(
    data: string,
  ): Promise<{ txid: string; blockhash: string; blockheight: number; txindex: number }> {
    const txid = await chain.rpc<string>("eth_sendTransaction", [{ from: FROM, to: TO, data, gas: "0x186a0" }]);
    for (;;) {
      const r = await chain.rpc<{ blockHash: string; blockNumber: string; transactionIndex: string } | null>(
        "eth_getTransactionReceipt",
        [txid],
      );
      if (r !== null)
        return {
          txid: txid.toLowerCase(),
          blockhash: r.blockHash.toLowerCase(),
          blockheight: Number(r.blockNumber),
          txindex: Number(r.transactionIndex),
        };
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  function anchorOf(
    tx: { txid: string; blockhash: string; blockheight: number; txindex: number },
    height: number,
    root: Uint8Array,
  ): ReceiptEthereumJson {
    return {
      dbheightmin: height,
      dbheightmax: height,
      windowmr: toHex(root),
      recordheight: height + 1,
      contractaddress: TO,
      ...tx,
      merklebranch: [],
      anchorrecordentryhash: "00".repeat(32),
    };
  }

  before(async () => {
    chain = await EthereumChain.start({ chainId: 1337, fundedKeys: [KEY], blockTimeSeconds: 0 });
    const random = new Random(11);
    const [r1, r2] = [random.bytes(32), random.bytes(32)];
    first = anchorOf(await send(anchorCalldata(10, r1)), 10, r1);
    second = anchorOf(await send(anchorCalldata(20, r2)), 20, r2);
    plain = await send("0x1234");
  });
  after(async () => {
    await chain?.close();
  });

  it("the true anchor passes, telling each check; its block, index, data and address as the chain has them", async () => {
    const rpc = fetchEthereumRpc(chain.directUrl);
    const checks: string[] = [];
    const found = await checkAnchorTransaction(first, rpc, "proof.anchor", (c) => checks.push(c.field));
    assert.deepEqual(checks, ["proof.anchor.blockhash", "proof.anchor.txid", "proof.anchor.windowmr"]);
    assert.equal(found.to, TO);
    assert.equal(found.blockHeight, first.blockheight);
    const head = Number(await chain.rpc<string>("eth_blockNumber"));
    assert.equal(found.confirmations, head - first.blockheight + 1);
    assert.ok(found.confirmations >= 3, "two transactions mined after it");
    // upper-case hex in the anchor reads the same (the chain answers lower case)
    const upper = { ...first, txid: first.txid.toUpperCase().replace("0X", "0x") };
    assert.equal((await checkAnchorTransaction(upper, rpc, "a")).blockHeight, first.blockheight);
  });

  it("each member changed to another real value fails, naming it", async () => {
    const rpc = fetchEthereumRpc(chain.directUrl);
    const check = (a: ReceiptEthereumJson) => checkAnchorTransaction(a, rpc, "proof.anchor");
    // another anchor's transaction in this anchor's block
    await assert.rejects(check({ ...first, txid: second.txid }), refused("proof.anchor.txid", /does not hold/));
    // another anchor's transaction and block: its data anchors another window
    await assert.rejects(
      check({ ...second, dbheightmax: first.dbheightmax, windowmr: first.windowmr }),
      refused("proof.anchor.windowmr", /anchors height 20 root .*, the anchor says height 10/),
    );
    // a transaction to the anchor's address whose data is no setAnchor call
    await assert.rejects(check({ ...first, ...plain }), refused("proof.anchor.txid", /carries no setAnchor call/));
    // the right transaction at another index, at another height, in a block not in the chain
    await assert.rejects(
      check({ ...first, txindex: first.txindex + 1 }),
      refused("proof.anchor.txid", /does not hold/),
    );
    await assert.rejects(
      check({ ...first, blockheight: first.blockheight + 1 }),
      refused("proof.anchor.blockheight", new RegExp(`is at height ${first.blockheight}, not`)),
    );
    await assert.rejects(
      check({ ...first, blockhash: `0x${"ab".repeat(32)}` }),
      refused("proof.anchor.blockhash", /is not in the chain/),
    );
    await assert.rejects(
      check({ ...second, txid: `0x${"cd".repeat(32)}`, txindex: 7 }),
      refused("proof.anchor.txid", /does not hold/),
    );
    // sent to another address than the anchor names
    await assert.rejects(
      check({ ...first, contractaddress: FROM }),
      refused("proof.anchor.contractaddress", new RegExp(`sent to ${TO}, not ${FROM}`)),
    );
    // the same height, another root
    await assert.rejects(
      check({ ...first, windowmr: second.windowmr }),
      refused("proof.anchor.windowmr", /anchors height 10/),
    );
  });

  it("an endpoint that does not answer, or answers no JSON-RPC, is AnchorRpcError, not a verdict", async () => {
    await chain.cut();
    try {
      await assert.rejects(
        checkAnchorTransaction(first, fetchEthereumRpc(chain.relayUrl), "proof.anchor"),
        (e: unknown) => e instanceof AnchorRpcError && /does not answer: eth_getBlockByHash/.test(e.message),
      );
    } finally {
      await chain.restore();
    }
    const notRpc = fetchEthereumRpc(
      "http://127.0.0.1:1/",
      (async () => new Response("<html>no</html>", { status: 200 })) as typeof fetch,
    );
    await assert.rejects(checkAnchorTransaction(first, notRpc, "a"), AnchorRpcError);
    const refusedCall = fetchEthereumRpc("http://127.0.0.1:1/", (async () =>
      Response.json({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "method not found" } })) as typeof fetch);
    await assert.rejects(checkAnchorTransaction(first, refusedCall, "a"), /answered an error: method not found/);
    const status = fetchEthereumRpc(
      "http://127.0.0.1:1/",
      (async () => new Response("", { status: 503 })) as typeof fetch,
    );
    await assert.rejects(checkAnchorTransaction(first, status, "a"), /HTTP 503 to eth_getBlockByHash/);
  });
});
