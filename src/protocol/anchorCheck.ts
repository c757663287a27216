/**
 * The anchor's external transaction, checked against an Ethereum node: the rules the wallet (`receipt --verify
 * --anchor-rpc`, `proof --verify --anchor-rpc`) and the control panel's "verify in this browser" both run, so
 * they cannot diverge. Plain JSON-RPC over `fetch` (Node 20 and every browser have it), no Ethereum library:
 * the calldata is the reference's anchor contract call setAnchor(uint256 blockNumber, uint256 merkleRoot)
 * (anchor/ethereum.ts anchorCalldata writes it with viem; test/unit/protocol/anchorCheck.test.ts holds the two
 * to one another), which this module reads byte for byte.
 *
 * What holds when the check passes: the block the anchor names is the chain's block at its height (not one
 * of a side branch), it lists the named transaction at the named index, that transaction is mined in it, is
 * sent to the anchor's contract address, and its data is exactly setAnchor(DBHeightMax, WindowMR) of the
 * anchor. How deep the block is (confirmations) is reported, not judged. Free of Node built-ins (the panel
 * serves it to the browser with proofRules.ts).
 */
import { NodeError } from "../errors.js";
import { ProtocolError } from "./errors.js";
import type { ReceiptEthereumJson } from "./json/receiptJson.js";

/** First 4 bytes of keccak256("setAnchor(uint256,uint256)"): the function selector of the anchor call. */
export const SET_ANCHOR_SELECTOR = "0xbbcc0c80";

/** One Ethereum JSON-RPC call's time limit, ms (as anchor/ethereum.ts RPC_TIMEOUT_MS: a slow endpoint, not a hung one). */
export const ANCHOR_RPC_TIMEOUT_MS = 10_000;

/** An Ethereum node's JSON-RPC: `call` resolves with `result`; throws AnchorRpcError when there is no answer to judge. */
export interface EthereumRpc {
  readonly url: string;
  call(method: string, params: readonly unknown[]): Promise<unknown>;
}

/** The Ethereum node did not answer, answered an error, or answered something that is not JSON-RPC. */
export class AnchorRpcError extends NodeError {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`the Ethereum RPC ${url} does not answer: ${reason}`);
    this.name = "AnchorRpcError";
  }
}

/** An http(s) URL, or undefined (the wallet's --anchor-rpc and the panel's field accept nothing else). */
export function anchorRpcUrl(text: string): string | undefined {
  const t = text.trim();
  return /^https?:\/\/\S+$/i.test(t) ? t : undefined;
}

/** JSON-RPC 2.0 over `fetch` (POST, one call per request). */
export function fetchEthereumRpc(url: string, fetchFn: typeof fetch = fetch): EthereumRpc {
  let id = 0;
  const call = async (method: string, params: readonly unknown[]): Promise<unknown> => {
    let answer: unknown;
    try {
      const res = await fetchFn(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        signal: AbortSignal.timeout(ANCHOR_RPC_TIMEOUT_MS),
      });
      if (!res.ok) throw new AnchorRpcError(url, `HTTP ${res.status} to ${method}`);
      answer = await res.json();
    } catch (e) {
      if (e instanceof AnchorRpcError) throw e;
      throw new AnchorRpcError(url, `${method}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const a = answer as { result?: unknown; error?: { message?: unknown } } | null;
    if (typeof a !== "object" || a === null) throw new AnchorRpcError(url, `${method}: not a JSON-RPC answer`);
    if (a.error !== undefined)
      throw new AnchorRpcError(url, `${method} answered an error: ${String(a.error?.message ?? "")}`);
    if (!("result" in a)) throw new AnchorRpcError(url, `${method}: not a JSON-RPC answer`);
    return a.result;
  };
  return { url, call };
}

/** What the chain showed of a valid anchor transaction. */
export interface AnchorTransactionFound {
  /** the transaction's `to`, lower case */
  to: string;
  /** the height of the block holding it */
  blockHeight: number;
  /** blocks from it to the chain's newest, both counted */
  confirmations: number;
}

/** One check that passed: the anchor member it is about and what held. */
export interface AnchorCheckPassed {
  field: string;
  detail: string;
}

/** setAnchor(height, root) of transaction data: exactly the selector and two words, else undefined. */
export function decodeSetAnchor(input: unknown): { dbHeightMax: number; windowMR: string } | undefined {
  if (typeof input !== "string") return undefined;
  const data = input.toLowerCase();
  if (!new RegExp(`^${SET_ANCHOR_SELECTOR}[0-9a-f]{128}$`).test(data)) return undefined;
  const height = BigInt(`0x${data.slice(10, 74)}`);
  if (height > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { dbHeightMax: Number(height), windowMR: data.slice(74) };
}

/** A 0x quantity of a JSON-RPC answer as a number, or undefined. */
function quantity(v: unknown): number | undefined {
  // at most 13 hex digits: below 2^52, a safe integer
  if (typeof v !== "string" || !/^0x[0-9a-f]{1,13}$/i.test(v)) return undefined;
  return Number(v);
}

function lower(v: unknown): string | undefined {
  return typeof v === "string" ? v.toLowerCase() : undefined;
}

/**
 * Check `anchor` (a receipt's `ethereum`, a proof's `anchor`) against the chain `rpc` serves; `field` names
 * the anchor in failures ("proof.anchor"). Throws ProtocolError naming the member the chain contradicts, or
 * AnchorRpcError when the chain cannot be asked. The window branch (keyMR → WindowMR) is the offline part
 * (proofRules.ts, the wallet's receipt check), made before this.
 */
export async function checkAnchorTransaction(
  anchor: ReceiptEthereumJson,
  rpc: EthereumRpc,
  field: string,
  onCheck?: (check: AnchorCheckPassed) => void,
): Promise<AnchorTransactionFound> {
  const fail = (member: string, detail: string): never => {
    throw new ProtocolError("BAD_VALUE", `${field}.${member}`, detail);
  };
  const blockHash = anchor.blockhash.toLowerCase();
  const txId = anchor.txid.toLowerCase();
  const block = (await rpc.call("eth_getBlockByHash", [blockHash, false])) as {
    number?: unknown;
    transactions?: unknown;
  } | null;
  if (block === null || typeof block !== "object") return fail("blockhash", `block ${blockHash} is not in the chain`);
  const height = quantity(block.number);
  if (height === undefined) return fail("blockhash", `block ${blockHash} has no height (pending)`);
  const canonical = (await rpc.call("eth_getBlockByNumber", [`0x${height.toString(16)}`, false])) as {
    hash?: unknown;
  } | null;
  if (lower(canonical?.hash) !== blockHash)
    fail("blockhash", `block ${blockHash} is not the chain's block at height ${height} (${String(canonical?.hash)})`);
  if (height !== anchor.blockheight)
    fail("blockheight", `block ${blockHash} is at height ${height}, not ${anchor.blockheight}`);
  onCheck?.({ field: `${field}.blockhash`, detail: `the chain's block at height ${height}` });
  const listed = Array.isArray(block.transactions) ? block.transactions[anchor.txindex] : undefined;
  if (lower(listed) !== txId)
    fail("txid", `block ${blockHash} does not hold transaction ${txId} at index ${anchor.txindex}`);
  const tx = (await rpc.call("eth_getTransactionByHash", [txId])) as {
    blockHash?: unknown;
    to?: unknown;
    input?: unknown;
  } | null;
  if (tx === null || typeof tx !== "object") return fail("txid", `transaction ${txId} is not in the chain`);
  if (lower(tx.blockHash) !== blockHash)
    fail("txid", `transaction ${txId} is in block ${String(tx.blockHash)}, not ${blockHash}`);
  onCheck?.({ field: `${field}.txid`, detail: `listed at index ${anchor.txindex} of that block, and mined in it` });
  const to = lower(tx.to) ?? "";
  if (to !== anchor.contractaddress.toLowerCase())
    fail("contractaddress", `transaction ${txId} is sent to ${to || "no address"}, not ${anchor.contractaddress}`);
  const call = decodeSetAnchor(tx.input);
  if (call === undefined) return fail("txid", `transaction ${txId} carries no setAnchor call`);
  if (call.dbHeightMax !== anchor.dbheightmax || call.windowMR !== anchor.windowmr.toLowerCase())
    fail(
      "windowmr",
      `transaction ${txId} anchors height ${call.dbHeightMax} root ${call.windowMR}, the anchor says height ${anchor.dbheightmax} root ${anchor.windowmr}`,
    );
  onCheck?.({
    field: `${field}.windowmr`,
    detail: `the transaction's data is setAnchor(${call.dbHeightMax}, the window root), sent to ${to}`,
  });
  const head = quantity(await rpc.call("eth_blockNumber", []));
  if (head === undefined) throw new AnchorRpcError(rpc.url, "eth_blockNumber: not a block number");
  return { to, blockHeight: height, confirmations: head - height + 1 };
}
