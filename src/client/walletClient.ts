/**
 * Typed JSON-RPC client of the wallet service (`ledgerd-walletd`, docs/wallet.md): one async method per method of
 * the contract in walletMethods.ts, each result typed from its method name, as `NodeClient` is derived from the
 * node's contract. Transport, authentication, TLS and errors are NodeClient's (the same `/v2` envelope), so every
 * failure rejects with RpcError, AuthError, UnreachableError or HttpError (errors.ts).
 */
import { NodeClient, type NodeClientOptions } from "./nodeClient.js";
import { DEFAULT_WALLETD_URL, type WalletMethods, type WalletParams, type WalletResult } from "./walletMethods.js";

export interface WalletClientOptions extends Omit<NodeClientOptions, "url"> {
  /** base URL of the wallet service (default http://127.0.0.1:8089; a trailing /v2 is accepted) */
  url?: string;
}

export class WalletClient {
  private readonly rpc: NodeClient;
  readonly baseUrl: string;

  constructor(options: WalletClientOptions = {}) {
    this.rpc = new NodeClient({ ...options, url: options.url ?? DEFAULT_WALLETD_URL });
    this.baseUrl = this.rpc.baseUrl;
  }

  /** Close idle keep-alive connections. */
  close(): void {
    this.rpc.close();
  }

  /** Call any wallet method by name; params omitted → no `params` member. */
  call<M extends keyof WalletMethods>(method: M, params?: WalletParams<M>): Promise<WalletResult<M>> {
    return this.rpc.call<WalletResult<M>>(method, params);
  }

  address(params: WalletParams<"address">) {
    return this.call("address", params);
  }
  allAddresses() {
    return this.call("all-addresses");
  }
  generateEcAddress() {
    return this.call("generate-ec-address");
  }
  generateAssetAddress() {
    return this.call("generate-asset-address");
  }
  importAddresses(params: WalletParams<"import-addresses">) {
    return this.call("import-addresses", params);
  }
  removeAddress(params: WalletParams<"remove-address">) {
    return this.call("remove-address", params);
  }
  importMnemonic(params: WalletParams<"import-mnemonic">) {
    return this.call("import-mnemonic", params);
  }
  walletBackup() {
    return this.call("wallet-backup");
  }
  unlockWallet(params: WalletParams<"unlock-wallet">) {
    return this.call("unlock-wallet", params);
  }
  getHeight() {
    return this.call("get-height");
  }
  properties() {
    return this.call("properties");
  }
  walletBalances() {
    return this.call("wallet-balances");
  }
  newTransaction(params: WalletParams<"new-transaction">) {
    return this.call("new-transaction", params);
  }
  deleteTransaction(params: WalletParams<"delete-transaction">) {
    return this.call("delete-transaction", params);
  }
  tmpTransactions() {
    return this.call("tmp-transactions");
  }
  transactionHash(params: WalletParams<"transaction-hash">) {
    return this.call("transaction-hash", params);
  }
  addInput(params: WalletParams<"add-input">) {
    return this.call("add-input", params);
  }
  addOutput(params: WalletParams<"add-output">) {
    return this.call("add-output", params);
  }
  addEcOutput(params: WalletParams<"add-ec-output">) {
    return this.call("add-ec-output", params);
  }
  addFee(params: WalletParams<"add-fee">) {
    return this.call("add-fee", params);
  }
  subFee(params: WalletParams<"sub-fee">) {
    return this.call("sub-fee", params);
  }
  signTransaction(params: WalletParams<"sign-transaction">) {
    return this.call("sign-transaction", params);
  }
  signData(params: WalletParams<"sign-data">) {
    return this.call("sign-data", params);
  }
  composeTransaction(params: WalletParams<"compose-transaction">) {
    return this.call("compose-transaction", params);
  }
  composeChain(params: WalletParams<"compose-chain">) {
    return this.call("compose-chain", params);
  }
  composeEntry(params: WalletParams<"compose-entry">) {
    return this.call("compose-entry", params);
  }
  transactions(params?: WalletParams<"transactions">) {
    return this.call("transactions", params);
  }
}
