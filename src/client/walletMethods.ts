/**
 * The wallet service's method contract (`ledgerd-walletd`, docs/wallet.md): every method's params and result, as
 * the reference wallet daemon (FactomProject/wallet wsapi) shapes them, with the spec's neutral words where a
 * name held the vendor's or the asset's name (`generate-asset-address`, `assetaccountbalances`, `asset-submit`).
 * The daemon (tools/walletd/) implements this table and the typed `WalletClient` is derived from it, so the two
 * cannot drift apart. Amounts are base units (asset) or entry credits, as JSON integers.
 */
import type { Method, ParamsOf, ResultOf } from "../rpc/methods.js";

export type { ParamsOf, ResultOf };

/** `{public, secret}` of one key; `secret` is the Fs…/Es… private key. */
export interface WalletAddress {
  public: string;
  secret: string;
}

/** One input or output of a transaction: FA… (inputs, outputs) or EC… (EC outputs), amount in base units. */
export interface WalletTxIo {
  address: string;
  amount: number;
}

/** A transaction as the wallet shows it (the reference's factom.Transaction). */
export interface WalletTransaction {
  /** name of a transaction under construction */
  name?: string;
  /** txid (hex); for one under construction, the hash of its signed part as it stands */
  txid?: string;
  /** directory block height of a saved transaction (history) */
  blockheight?: number;
  /** ISO-8601 time of the transaction's timestamp */
  timestamp: string;
  signed: boolean;
  totalinputs: number;
  totaloutputs: number;
  totalecoutputs: number;
  /** base units the inputs pay beyond the outputs (absent when none) */
  feespaid?: number;
  /** base units the fee must be at the node's current rate (under construction, when not yet paid) */
  feesrequired?: number;
  inputs: WalletTxIo[];
  outputs: WalletTxIo[];
  ecoutputs: WalletTxIo[];
}

/** A JSON-RPC request for the node, as compose-* return it (member order of the reference). */
export interface NodeRequest<P> {
  jsonrpc: "2.0";
  id: number;
  params: P;
  method: string;
}

/** compose-chain / compose-entry: the two node requests, commit first. */
export interface ComposedEntryResult {
  commit: NodeRequest<{ message: string }>;
  reveal: NodeRequest<{ entry: string }>;
}

/** An entry as compose-chain / compose-entry take it: hex external IDs and content. */
export interface WalletEntryJson {
  chainid?: string;
  extids?: string[];
  content?: string;
}

export interface BalancePair {
  ack: number;
  saved: number;
}

type NoParams = Record<string, never> | undefined;
interface TxName {
  "tx-name": string;
}
interface TxValue extends TxName {
  address: string;
  amount: number | string;
}
interface TxAddress extends TxName {
  address: string;
}

/** The wallet service's methods (`/v2` of ledgerd-walletd). */
export interface WalletMethods {
  // addresses
  address: Method<{ address: string }, WalletAddress>;
  "all-addresses": Method<NoParams, { addresses: WalletAddress[] }>;
  "generate-ec-address": Method<NoParams, WalletAddress>;
  "generate-asset-address": Method<NoParams, WalletAddress>;
  "import-addresses": Method<{ addresses: { secret: string }[] }, { addresses: WalletAddress[] }>;
  "remove-address": Method<{ address: string }, { success: true }>;
  /** ledgerd's extension (the reference restores only at start, factom-walletd -m): restore a 12-word seed */
  "import-mnemonic": Method<{ words: string }, { success: true }>;
  // backup and lock
  "wallet-backup": Method<NoParams, { "wallet-seed": string; addresses: WalletAddress[] }>;
  "unlock-wallet": Method<{ passphrase: string; timeout: number }, { success: true; unlockeduntil: number }>;
  // state
  "get-height": Method<NoParams, { height: number }>;
  properties: Method<NoParams, { walletversion: string; walletapiversion: string }>;
  "wallet-balances": Method<NoParams, { assetaccountbalances: BalancePair; ecaccountbalances: BalancePair }>;
  // transactions under construction
  "new-transaction": Method<TxName, WalletTransaction>;
  "delete-transaction": Method<TxName, { name: string }>;
  "tmp-transactions": Method<NoParams, { transactions: WalletTransaction[] }>;
  "transaction-hash": Method<TxName, { name: string; txid: string }>;
  "add-input": Method<TxValue, WalletTransaction>;
  "add-output": Method<TxValue, WalletTransaction>;
  "add-ec-output": Method<TxValue, WalletTransaction>;
  "add-fee": Method<TxAddress, WalletTransaction>;
  "sub-fee": Method<TxAddress, WalletTransaction>;
  "sign-transaction": Method<TxName & { force?: boolean }, WalletTransaction>;
  // signing and composing
  "sign-data": Method<{ signer: string; data: string }, { pubkey: string; signature: string }>;
  "compose-transaction": Method<TxName, NodeRequest<{ transaction: string }>>;
  "compose-chain": Method<
    { chain: { firstentry: WalletEntryJson }; ecpub: string; force?: boolean },
    ComposedEntryResult
  >;
  "compose-entry": Method<{ entry: WalletEntryJson; ecpub: string; force?: boolean }, ComposedEntryResult>;
  // history
  transactions: Method<
    { txid?: string; address?: string; range?: { start: number; end: number } } | undefined,
    { transactions: WalletTransaction[] }
  >;
}

/** Every wallet method name (a runtime list of the contract, checked complete by the compiler). */
export const WALLET_METHOD_NAMES: Readonly<Record<keyof WalletMethods, true>> = {
  address: true,
  "all-addresses": true,
  "generate-ec-address": true,
  "generate-asset-address": true,
  "import-addresses": true,
  "remove-address": true,
  "import-mnemonic": true,
  "wallet-backup": true,
  "unlock-wallet": true,
  "get-height": true,
  properties: true,
  "wallet-balances": true,
  "new-transaction": true,
  "delete-transaction": true,
  "tmp-transactions": true,
  "transaction-hash": true,
  "add-input": true,
  "add-output": true,
  "add-ec-output": true,
  "add-fee": true,
  "sub-fee": true,
  "sign-transaction": true,
  "sign-data": true,
  "compose-transaction": true,
  "compose-chain": true,
  "compose-entry": true,
  transactions: true,
};

/** Default address of the wallet service (the reference's port 8089, loopback). */
export const DEFAULT_WALLETD_URL = "http://127.0.0.1:8089";

export type WalletParams<M extends keyof WalletMethods> = ParamsOf<WalletMethods, M>;
export type WalletResult<M extends keyof WalletMethods> = ResultOf<WalletMethods, M>;
