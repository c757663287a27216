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
    assert.equal(e.code, "BAD_VALUE");
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
    assert.equal(anchorRpcUrl("HTTP://127.0.0.1:8545"), "HTTP://127.0.0.1:8545");
    for (const bad of [
      "",
      "ftp://x",
      "127.0.0.1:8545",
      "http://a b",
      "javascript:alert(1)",
      "xhttp://a",
      "see http://a",
    ])
      assert.equal(anchorRpcUrl(bad), undefined, bad);
  });
});

describe("anchor transaction rules: against a real chain", () => {
  let chain: EthereumChain;
  /** what the chain holds: two anchors to TO, a plain transfer to TO with other data */
  let first: ReceiptEthereumJson;
  let second: ReceiptEthereumJson;
  let plain: { txid: string; blockhash: string; blockheight: number; txindex: number };
  /** a transaction with the first anchor's root and another height */
  let sameRoot: ReceiptEthereumJson;

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
    // heights of two hex digits and more (0x14…): a reader of one digit would be caught
    for (let i = 0; i < 20; i++) await chain.rpc("evm_mine");
    const random = new Random(11);
    const [r1, r2] = [random.bytes(32), random.bytes(32)];
    first = anchorOf(await send(anchorCalldata(10, r1)), 10, r1);
    second = anchorOf(await send(anchorCalldata(20, r2)), 20, r2);
    plain = await send("0x1234");
    sameRoot = anchorOf(await send(anchorCalldata(11, r1)), 10, r1);
  });

  /**
   * The chain's JSON-RPC through an endpoint that lies: each method of `edit` has its result rewritten (what a
   * hostile or broken Ethereum endpoint could answer); `seen` is told of every request as sent.
   */
  function lyingRpc(
    edit: Record<string, (result: Record<string, unknown>) => unknown>,
    seen?: (init: RequestInit) => void,
  ) {
    const fetchFn = (async (url: string, init: RequestInit) => {
      seen?.(init);
      const body = (await (await fetch(url, init)).json()) as Record<string, unknown>;
      const method = (JSON.parse(String(init.body)) as { method: string }).method;
      const rewrite = edit[method];
      if (rewrite !== undefined) body.result = rewrite(body.result as Record<string, unknown>);
      return Response.json(body);
    }) as typeof fetch;
    return fetchEthereumRpc(chain.directUrl, fetchFn);
  }
  after(async () => {
    await chain?.close();
  });

  it("the true anchor passes, telling each check; its block, index, data and address as the chain has them", async () => {
    const sent: RequestInit[] = [];
    const rpc = lyingRpc({}, (init) => sent.push(init));
    const checks: string[] = [];
    const found = await checkAnchorTransaction(first, rpc, "proof.anchor", (c) =>
      checks.push(`${c.field}: ${c.detail}`),
    );
    assert.deepEqual(checks, [
      `proof.anchor.blockhash: the chain's block at height ${first.blockheight}`,
      `proof.anchor.txid: listed at index ${first.txindex} of that block, and mined in it`,
      `proof.anchor.windowmr: the transaction's data is setAnchor(10, the window root), sent to ${TO}`,
    ]);
    // plain JSON-RPC 2.0 POSTs, one call each, numbered
    assert.deepEqual(
      sent.map((i) => [i.method, i.headers, JSON.parse(String(i.body))]),
      [
        ["eth_getBlockByHash", [first.blockhash, false]],
        ["eth_getBlockByNumber", [`0x${first.blockheight.toString(16)}`, false]],
        ["eth_getTransactionByHash", [first.txid]],
        ["eth_blockNumber", []],
      ].map(([method, params], i) => [
        "POST",
        { "Content-Type": "application/json" },
        { jsonrpc: "2.0", id: i + 1, method, params },
      ]),
    );
    assert.ok(
      sent.every((i) => i.signal instanceof AbortSignal),
      "each call has its time limit",
    );
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
    // the same height, another root; the same root, another height
    await assert.rejects(
      check({ ...first, windowmr: second.windowmr }),
      refused("proof.anchor.windowmr", /anchors height 10/),
    );
    await assert.rejects(
      check({ ...sameRoot }),
      refused(
        "proof.anchor.windowmr",
        new RegExp(`anchors height 11 root ${first.windowmr}, the anchor says height 10`),
      ),
    );
  });

  it("an endpoint that lies about the chain is caught at the member it lies about", async () => {
    const lie = (edit: Parameters<typeof lyingRpc>[0]) => checkAnchorTransaction(first, lyingRpc(edit), "a");
    const other = `0x${"ee".repeat(32)}`;
    await assert.rejects(lie({ eth_getBlockByHash: () => "0xabc" }), refused("a.blockhash", /is not in the chain/));
    for (const number of [
      null,
      20,
      [`0x${first.blockheight.toString(16)}`],
      "20",
      `x0x14`,
      "0x14zz",
      `0x${"f".repeat(14)}`,
    ])
      await assert.rejects(
        lie({ eth_getBlockByHash: (r) => ({ ...r, number }) }),
        refused("a.blockhash", /has no height \(pending\)/),
        JSON.stringify(number),
      );
    await assert.rejects(
      lie({ eth_getBlockByNumber: () => null }),
      refused("a.blockhash", new RegExp(`is not the chain's block at height ${first.blockheight} \\(undefined\\)`)),
    );
    await assert.rejects(
      lie({ eth_getBlockByNumber: (r) => ({ ...r, hash: other }) }),
      refused("a.blockhash", new RegExp(`is not the chain's block at height ${first.blockheight} \\(${other}\\)`)),
    );
    await assert.rejects(
      lie({ eth_getBlockByHash: (r) => ({ ...r, transactions: "x" }) }),
      refused("a.txid", /does not hold/),
    );
    for (const tx of [null, "0x12"])
      await assert.rejects(lie({ eth_getTransactionByHash: () => tx }), refused("a.txid", /is not in the chain/));
    await assert.rejects(
      lie({ eth_getTransactionByHash: (r) => ({ ...r, blockHash: other }) }),
      refused("a.txid", new RegExp(`is in block ${other}, not ${first.blockhash}`)),
    );
    await assert.rejects(
      lie({ eth_getTransactionByHash: (r) => ({ ...r, to: null }) }),
      refused("a.contractaddress", new RegExp(`is sent to no address, not ${TO}`)),
    );
    await assert.rejects(
      lie({ eth_getTransactionByHash: (r) => ({ ...r, input: "0x" }) }),
      refused("a.txid", /carries no setAnchor call/),
    );
    for (const head of ["latest", null, 30])
      await assert.rejects(lie({ eth_blockNumber: () => head }), (e: unknown) => {
        assert.ok(e instanceof AnchorRpcError);
        assert.equal(
          e.message,
          `the Ethereum RPC ${chain.directUrl} does not answer: eth_blockNumber: not a block number`,
        );
        return true;
      });
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
    const answering = (answer: unknown, status = 200) =>
      fetchEthereumRpc(
        "http://127.0.0.1:1/",
        (async () =>
          new Response(typeof answer === "string" ? answer : JSON.stringify(answer), { status })) as typeof fetch,
      );
    const says = async (rpc: ReturnType<typeof fetchEthereumRpc>, reason: string | RegExp) =>
      assert.rejects(checkAnchorTransaction(first, rpc, "a"), (e: unknown) => {
        assert.ok(e instanceof AnchorRpcError, String(e));
        assert.equal(e.name, "AnchorRpcError", "the page tells it apart by name");
        assert.equal(e.url, "http://127.0.0.1:1/");
        if (typeof reason === "string") assert.equal(e.reason, reason);
        else assert.match(e.reason, reason);
        assert.equal(e.message, `the Ethereum RPC http://127.0.0.1:1/ does not answer: ${e.reason}`);
        return true;
      });
    // not JSON at all: the parser's own words after the method
    await says(answering("<html>no</html>"), /^eth_getBlockByHash: .*JSON/);
    // JSON, but no JSON-RPC answer (a string is sent as is: '"x"' is the JSON string x)
    for (const notRpc of [null, 5, '"x"', { jsonrpc: "2.0", id: 1 }])
      await says(answering(notRpc), "eth_getBlockByHash: not a JSON-RPC answer");
    await says(
      answering({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "method not found" } }),
      "eth_getBlockByHash answered an error: method not found",
    );
    await says(answering({ jsonrpc: "2.0", id: 1, error: { code: -32000 } }), "eth_getBlockByHash answered an error: ");
    await says(answering({ jsonrpc: "2.0", id: 1, error: null }), "eth_getBlockByHash answered an error: ");
    await says(answering("", 503), "HTTP 503 to eth_getBlockByHash");
  });
});
