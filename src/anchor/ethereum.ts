/**
 * The external chain side of anchoring, through viem (never our own RLP or secp256k1): build and sign the
 * anchor transaction, send it, read its receipt and confirmations, and — for verifiers — read a transaction
 * back out of its block. The transaction calls `setAnchor(uint256 blockNumber, uint256 merkleRoot)` with
 * (DBHeightMax, WindowMR): the calldata of the reference's anchor contract (anchormaker-eth
 * anchorContract.sol), sent to the configured address (by default the paying account itself, so no contract
 * has to be deployed; the data is then only stored in the transaction).
 */
import {
  type Account,
  createPublicClient,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
  parseTransaction,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fromHex, toHex } from "../protocol/bytes.js";
import { AnchorError } from "./errors.js";

/** The reference anchor contract's setter; its calldata is what every anchor transaction carries. */
export const ANCHOR_ABI = parseAbi(["function setAnchor(uint256 blockNumber, uint256 merkleRoot)"]);

/**
 * One RPC call's time limit, ms. A public endpoint answers in well under a second; 10 s rides out a slow
 * one without holding the anchoring loop (which only retries later) for long.
 */
export const RPC_TIMEOUT_MS = 10_000;

export interface EthereumOptions {
  /** JSON-RPC URL of the chain (http or https) */
  rpcUrl: string;
}

export interface AnchorerOptions extends EthereumOptions {
  /** the chain ID the configuration expects; checked against eth_chainId before any transaction */
  chainId: number;
}

/** A signed transaction, ready to (re)broadcast. */
export interface SignedAnchorTx {
  /** 0x-prefixed lowercase transaction hash (keccak256 of the raw bytes) */
  hash: string;
  /** 0x-prefixed raw signed transaction */
  raw: string;
  nonce: number;
  /** lowercase 0x address the transaction is sent to */
  to: string;
}

/** Where a mined transaction is, and how deep. */
export interface MinedTx {
  blockHeight: number;
  /** 0x-prefixed lowercase */
  blockHash: string;
  txIndex: number;
  /** false when the transaction reverted (it then anchors nothing) */
  succeeded: boolean;
  /** blocks on top of and including its block: 1 = just mined */
  confirmations: number;
  gasUsed: bigint;
  /** wei per gas actually paid */
  effectiveGasPrice: bigint;
}

/** viem's error names for a chain that did not answer (connection refused, reset, timeout). */
const TRANSPORT_ERRORS = new Set(["HttpRequestError", "TimeoutError", "SocketClosedError"]);

/** Whether an error (or one it wraps: viem nests the transport's error as `cause`) means no answer. */
export function isTransportError(e: unknown): boolean {
  for (let at = e, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++)
    if (TRANSPORT_ERRORS.has(at.name)) return true;
  return false;
}

/** The calldata of an anchor: setAnchor(dbHeightMax, windowMR). */
export function anchorCalldata(dbHeightMax: number, windowMR: Uint8Array): Hex {
  return encodeFunctionData({
    abi: ANCHOR_ABI,
    functionName: "setAnchor",
    args: [BigInt(dbHeightMax), BigInt(`0x${toHex(windowMR)}`)],
  });
}

/** (dbHeightMax, windowMR) of anchor calldata; undefined when the data is not a setAnchor call. */
export function decodeAnchorCalldata(data: string): { dbHeightMax: number; windowMR: Uint8Array } | undefined {
  try {
    const call = decodeFunctionData({ abi: ANCHOR_ABI, data: data as Hex });
    const [height, root] = call.args;
    if (height > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    return { dbHeightMax: Number(height), windowMR: fromHex(root.toString(16).padStart(64, "0"), "merkleRoot", 32) };
  } catch {
    return undefined;
  }
}

/**
 * What a signed anchor transaction (raw, 0x hex) carries: its hash, nonce, `to` and anchored (height, root);
 * undefined when the bytes are not a transaction carrying a setAnchor call.
 */
export function decodeSignedAnchor(
  raw: string,
): { hash: string; nonce: number; to: string; dbHeightMax: number; windowMR: Uint8Array } | undefined {
  try {
    const tx = parseTransaction(raw as Hex);
    const anchored = tx.data === undefined ? undefined : decodeAnchorCalldata(tx.data);
    if (anchored === undefined || tx.to == null || tx.nonce === undefined) return undefined;
    return { hash: keccak256(raw as Hex).toLowerCase(), nonce: tx.nonce, to: tx.to.toLowerCase(), ...anchored };
  } catch {
    return undefined;
  }
}

/** The account of a hex private key (with or without 0x); throws AnchorError BAD_KEY without echoing it. */
export function accountFromKeyText(text: string, file: string): Account {
  const t = text.trim().replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(t))
    throw new AnchorError({ code: "BAD_KEY", file, reason: "expected 64 hex characters (optionally 0x-prefixed)" });
  try {
    return privateKeyToAccount(`0x${t.toLowerCase()}`);
  } catch {
    throw new AnchorError({ code: "BAD_KEY", file, reason: "not a valid secp256k1 private key" });
  }
}

/** Read access to an Ethereum-compatible chain (what verifiers need). */
export class EthereumReader {
  protected readonly client: PublicClient;

  constructor(readonly options: EthereumOptions) {
    this.client = createPublicClient({
      transport: http(options.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }),
    }) as PublicClient;
  }

  /** Height of the chain's newest block (never cached). */
  async blockNumber(): Promise<number> {
    return Number(await this.client.getBlockNumber({ cacheTime: 0 }));
  }

  /** Where `hash` was mined; undefined while it is not (pending, dropped or unknown). */
  async mined(hash: string): Promise<MinedTx | undefined> {
    let receipt: Awaited<ReturnType<PublicClient["getTransactionReceipt"]>>;
    try {
      receipt = await this.client.getTransactionReceipt({ hash: hash as Hex });
    } catch (e) {
      if (e instanceof Error && e.name === "TransactionReceiptNotFoundError") return undefined;
      throw e;
    }
    const head = await this.blockNumber();
    return {
      blockHeight: Number(receipt.blockNumber),
      blockHash: receipt.blockHash.toLowerCase(),
      txIndex: receipt.transactionIndex,
      succeeded: receipt.status === "success",
      confirmations: head - Number(receipt.blockNumber) + 1,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
    };
  }
}

/** Limits of the anchoring account's transactions. */
export interface SendLimits {
  /** most gas one anchor may use; the estimate (plus a margin) above it is refused */
  gasLimit: number;
  /** most wei per gas; 0 = whatever the node suggests */
  maxFeePerGasWei: bigint;
}

/** Read and write access: signs with the anchoring account. */
export class EthereumAnchorer extends EthereumReader {
  constructor(
    private readonly anchorerOptions: AnchorerOptions,
    private readonly account: Account,
  ) {
    super(anchorerOptions);
  }

  /** Throws AnchorError WRONG_CHAIN when the endpoint serves another chain than the configured one. */
  async checkChain(): Promise<void> {
    const got = await this.client.getChainId();
    if (got !== this.anchorerOptions.chainId)
      throw new AnchorError({ code: "WRONG_CHAIN", expected: this.anchorerOptions.chainId, got });
  }

  /** 0x address of the paying account, lowercase. */
  address(): string {
    return this.account.address.toLowerCase();
  }

  /**
   * Build and sign the anchor transaction of (dbHeightMax, windowMR) to `to` at the account's next nonce
   * (pending transactions counted). Nothing is sent: the caller records the signed bytes first, so a crash
   * between signing and sending re-sends the very same transaction instead of making another.
   */
  async sign(dbHeightMax: number, windowMR: Uint8Array, to: string, limits: SendLimits): Promise<SignedAnchorTx> {
    await this.checkChain();
    const data = anchorCalldata(dbHeightMax, windowMR);
    const from = this.account.address;
    const nonce = await this.client.getTransactionCount({ address: from, blockTag: "pending" });
    const estimate = await this.client.estimateGas({ account: from, to: to as Hex, data });
    // 20 % margin: the estimate is exact for a plain transfer with data, and a contract's storage write
    // can cost more in the block than in the estimate's state.
    const gas = (estimate * 12n) / 10n;
    if (gas > BigInt(limits.gasLimit))
      throw new AnchorError({
        code: "FAILED",
        info: `an anchor needs about ${gas} gas, above the configured GasLimit ${limits.gasLimit}`,
      });
    const fees = await this.client.estimateFeesPerGas();
    if (limits.maxFeePerGasWei > 0n && fees.maxFeePerGas > limits.maxFeePerGasWei)
      throw new AnchorError({
        code: "FAILED",
        info: `the chain asks ${fees.maxFeePerGas} wei per gas, above the configured MaxFeeGwei (${limits.maxFeePerGasWei} wei)`,
      });
    const signTransaction = this.account.signTransaction;
    if (signTransaction === undefined)
      throw new AnchorError({ code: "FAILED", info: "the anchoring account cannot sign transactions" });
    const raw = await signTransaction({
      type: "eip1559",
      chainId: this.anchorerOptions.chainId,
      nonce,
      to: to as Hex,
      data,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return { hash: keccak256(raw).toLowerCase(), raw, nonce, to: to.toLowerCase() };
  }

  /**
   * Broadcast a signed transaction. Sending one the chain already has is not an error (a restart re-sends
   * what it recorded); AnchorError NONCE_USED when another transaction of the account took its nonce; any
   * other refusal throws.
   */
  async send(tx: SignedAnchorTx): Promise<void> {
    try {
      await this.client.sendRawTransaction({ serializedTransaction: tx.raw as Hex });
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      if (/already known|known transaction|already imported|AlreadyKnown/i.test(text)) return;
      if (isTransportError(e)) throw e;
      // Clients word a spent nonce differently (geth "nonce too low", ganache "doesn't have the correct
      // nonce"): ask the chain instead. Mined = fine; the account past this nonce without it = dead.
      if ((await this.mined(tx.hash)) !== undefined) return;
      const next = await this.client.getTransactionCount({ address: this.account.address, blockTag: "latest" });
      if (next > tx.nonce) throw new AnchorError({ code: "NONCE_USED", txId: tx.hash, nonce: tx.nonce });
      throw e;
    }
  }
}
