/**
 * THE METHOD CONTRACT of the node's JSON-RPC API, written once (STYLE §12): every `/v2` (spec §4.1) and
 * `/debug` (spec §4.2) method with its params and its result, in the exact JSON member names. The
 * server's method tables (rpc/v2/index.ts, rpc/debug/index.ts) are typed by it — a handler whose result
 * does not fit fails `tsc` — and the client library (src/client) derives its calls and its method list
 * from it. Transport-free and type-only apart from the method name lists: the client imports it without
 * the server. Block, entry, transaction and receipt shapes are the protocol layer's JSON views
 * (protocol/json/), the same types the node serialises; they are re-exported here, never redeclared.
 *
 * Hashes, keymrs, chain IDs and txids are 64-char lowercase hex strings; `rawdata`, `content`, `extids`
 * items and the like are hex strings of binary data. Integers that may exceed 2^53 (amounts in base units,
 * nanosecond times) are `JsonInt`: the server writes a bigint as its exact digits, and the client parses
 * them without rounding, as `bigint` when they do not fit a double exactly.
 */
import type { AdminBlockJson } from "../protocol/json/adminBlockJson.js";
import type { AssetBlockJson } from "../protocol/json/assetBlockJson.js";
import type { DirectoryBlockJson, DirectoryBlockSimpleJson } from "../protocol/json/directoryBlockJson.js";
import type { ChainCommitJson, ECBlockJson, EntryCommitJson } from "../protocol/json/ecBlockJson.js";
import type { EntryBlockJson } from "../protocol/json/entryBlockJson.js";
import type { EntryJson, TransactionEntryJson } from "../protocol/json/entryJson.js";
import type { ReceiptJson } from "../protocol/json/receiptJson.js";
import type { AssetTransactionJson, JsonInteger, TxIoJson } from "../protocol/json/transactionJson.js";
import type {
  AddressHistoryParams,
  AddressHistoryResult,
  ChainEntriesParams,
  ChainEntriesResult,
  ProofParams,
  ProofResult,
  SearchChainsParams,
  SearchChainsResult,
  SearchEntriesParams,
  SearchEntriesResult,
} from "./queryMethods.js";

export type * from "./queryMethods.js";
export type {
  AdminBlockJson,
  AssetBlockJson,
  AssetTransactionJson,
  DirectoryBlockJson,
  ECBlockJson,
  EntryBlockJson,
  EntryJson,
  ReceiptJson,
  TxIoJson,
};

/** An integer from the node: `number` when exact as a double, `bigint` otherwise. Use `BigInt(x)` to compute. */
export type JsonInt = JsonInteger;

/** Spec §3 acknowledgement states (`""` appears where the reference leaves a part unfilled). */
export type AckStatus = "Unknown" | "NotConfirmed" | "TransactionACK" | "DBlockConfirmed";

// ───────────────────────────── shared shapes ─────────────────────────────

// ───────────────────────────── acknowledgements ─────────────────────────────

/** Part of an entry/commit acknowledgement; the date fields appear in `entry-ack` and, when known, in `ack`. */
export interface AckPart {
  status: AckStatus | "";
  transactiondate?: number;
  transactiondatestring?: string;
  blockdate?: number;
  blockdatestring?: string;
}

/** Spec §2.9 entry/commit acknowledgement (`ack` with chainid `c` or a chain ID; `entry-ack`). */
export interface EntryAckResult {
  committxid: string;
  entryhash: string;
  commitdata: AckPart;
  entrydata: AckPart;
}

/** Spec §2.9 asset transaction acknowledgement (`ack` with chainid `f`; `asset-ack`). Dates in ms. */
export interface AssetAckResult {
  txid: string;
  transactiondate?: number;
  transactiondatestring?: string;
  blockdate?: number;
  blockdatestring?: string;
  status: AckStatus;
}

// ───────────────────────────── §4.1 params and results ─────────────────────────────

export interface HeightParams {
  height: number;
  /** leave `rawdata` out (the EC block keeps it as "") */
  noraw?: boolean;
}
export interface KeyMRParams {
  keymr: string;
  /** leave `rawdata` out (accepted and ignored by directory-block and entry-block) */
  noraw?: boolean;
}
export interface HashParams {
  hash: string;
}
export interface AddressParams {
  address: string;
}
export interface AddressesParams {
  addresses: string[];
}

export interface AdminBlockResult {
  ablock: AdminBlockJson;
  rawdata?: string;
}

/** `ack` params (spec §4.1.1). */
export interface AckParams {
  hash: string;
  /** "f" (asset tx), "c" (commit) or a 64-hex chain ID (an entry's reveal) */
  chainid: string;
  fulltransaction?: string;
}

export interface ChainHeadResult {
  /** keymr of the chain's last saved entry block; "" while the chain is only in the process list */
  chainhead: string;
  chaininprocesslist: boolean;
}

export interface CommitChainResult {
  message: string;
  txid: string;
  entryhash: string;
  chainid?: string;
  /** sent by the reference node instead of `chainid` */
  chainidhash?: string;
}
export interface CommitEntryResult {
  message: string;
  txid: string;
  entryhash: string;
}

/** Spec §4.1.2; the three times are nanoseconds since the Unix epoch in the reference. */
export interface CurrentMinuteResult {
  leaderheight: number;
  directoryblockheight: number;
  minute: number;
  currentblockstarttime: JsonInt;
  currentminutestarttime: JsonInt;
  currenttime: JsonInt;
  directoryblockinseconds: number;
  stalldetected: boolean;
  faulttimeout: number;
  roundtimeout: number;
}

export interface DirectoryBlockByHeightResult {
  dblock: DirectoryBlockJson;
  rawdata?: string;
}

/** `directory-block` (by keymr) simplified shape; timestamp in seconds. */
export type DirectoryBlockResult = DirectoryBlockSimpleJson;

export interface KeyMRResult {
  keymr: string;
}

export interface ECBlockResult {
  ecblock: ECBlockJson;
  rawdata?: string;
}

export type EntryResult = EntryJson;

/** `entry-ack` params (deprecated): the entry hash in practice. */
export interface TxIdParams {
  txid?: string;
  fulltransaction?: string;
}

export interface BalanceResult {
  /** base units (asset-balance) or entry credits (entry-credit-balance) */
  balance: JsonInt;
}

export interface RateResult {
  /** base units of the asset per entry credit */
  rate: JsonInt;
}

export interface AssetBlockResult {
  fblock: AssetBlockJson;
  rawdata?: string;
}

export interface AssetSubmitParams {
  /** hex of the signed transaction */
  transaction: string;
}
export interface AssetSubmitResult {
  message: string;
  txid: string;
}

/** Spec §4.1.3 */
export interface HeightsResult {
  directoryblockheight: number;
  leaderheight: number;
  entryblockheight: number;
  entryheight: number;
}

/** Spec §4.1.4 */
export interface MultipleBalancesResult {
  currentheight: number;
  lastsavedheight: number;
  /** ack/saved: base units (asset) or EC; err "" when none */
  balances: { ack: JsonInt; saved: JsonInt; err: string }[];
}

/** Spec §2.9 pending entry. */
export interface PendingEntryJson {
  entryhash: string;
  chainid: string | null;
  status: AckStatus;
}

/** Spec §2.9 pending transaction; amounts and fees in base units. */
export interface PendingTransactionJson {
  transactionid: string;
  dbheight?: number;
  status: AckStatus;
  inputs: TxIoJson[] | null;
  outputs: TxIoJson[] | null;
  ecoutputs: TxIoJson[] | null;
  fees: JsonInt;
}

export interface PendingTransactionsParams {
  address?: string;
}

export interface PropertiesResult {
  nodeversion: string;
  nodeapiversion: string;
}

export interface RawDataResult {
  data: string;
}

export interface ReceiptResult {
  receipt: ReceiptJson;
}

export interface MessageParams {
  /** hex of the binary message */
  message: string;
}
export interface RevealParams {
  /** hex of the marshalled entry */
  entry: string;
}
export interface RevealResult {
  message: string;
  entryhash: string;
  chainid: string;
}
export interface SendRawMessageResult {
  message: string;
}

/** `transaction` location fields: "" / "" / -1 when the hash is not in a saved block. */
export interface IncludedIn {
  includedintransactionblock: string;
  includedindirectoryblock: string;
  includedindirectoryblockheight: number;
}
/** Spec §4.1.5 */
export interface TransactionResult extends IncludedIn {
  assettransaction?: AssetTransactionJson;
  entry?: TransactionEntryJson;
  /** a commit, as the reference node also reports them */
  ectransaction?: EntryCommitJson | ChainCommitJson;
}

// ───────────────────────────── §4.2 debug ─────────────────────────────

export interface ServerJson {
  ChainID: string;
  Name: string;
  Online: boolean;
  Replace: unknown;
}

export interface HoldingQueueResult {
  Messages: unknown[] | null;
}
export interface NetworkInfoResult {
  NetworkNumber: number;
  NetworkName: string;
  NetworkID: number;
  NodeName?: string;
  Role?: string;
}
export interface PredictiveFerResult {
  PredictiveFER: JsonInt;
}
export interface AuditServersResult {
  AuditServers: ServerJson[] | null;
}
export interface FederatedServersResult {
  FederatedServers: ServerJson[] | null;
}
/** Spec §4.2.1: groups App, Peer, Log, Wallet, Walletd with Go-style field names. */
export type ConfigurationResult = Record<string, Record<string, unknown>>;
export interface AuthorityJson {
  AuthorityChainID: string;
  ManagementChainID: string;
  MatryoshkaHash: string;
  SigningKey: string;
  Status: number;
  AnchorKeys: unknown[] | null;
  KeyHistory: unknown[] | null;
}
export interface AuthoritiesResult {
  Authorities?: AuthorityJson[] | null;
  /** the reference node sends the key in lower case */
  authorities?: AuthorityJson[] | null;
}
/** The open block's process list (`process-list`; docs/ledger.md §7). Shape not fixed by the spec; hashes hex. */
export interface ProcessListView {
  dbheight: number;
  minute: number;
  /** ms since epoch */
  blockstartms: number;
  minutestartms: number;
  commits: { txid: string; entryhash: string; credits: number; kind: "entry" | "chain" }[];
  entries: { entryhash: string; chainid: string }[];
  transactions: { txid: string }[];
  entryblocks: { chainid: string; items: number; newchain: boolean }[];
  /** reveals in the holding queue */
  held: number;
  /** a cluster node's part: who signed the open height, who is suspected, the votes (docs/cluster.md) */
  Federation?: ProcessListFederationView;
}
export interface ProcessListFederationView {
  Height: number;
  AppliedSequence: number;
  Servers: { ChainID: string; Signed: boolean; Online: boolean; Replace: string | null }[];
  Audit: string[];
  FaultVotes: Record<string, string[]>;
}
export interface ProcessListResult {
  ProcessList: ProcessListView;
}
export interface DropRateResult {
  DropRate: number;
}
export interface DelayResult {
  Delay: number;
}
export interface SummaryResult {
  Summary: string;
}
export interface MessagesResult {
  Messages: unknown[] | null;
}

/** `tps-rate` (extra): messages accepted through the API per second. */
export interface TpsRateResult {
  /** averaged since the node started */
  totaltxrate: number;
  /** over the last 10 seconds */
  instanttxrate: number;
}

export interface ReceiptParams {
  hash: string;
  /** add the marshalled entry as `entry.raw` */
  includerawentry?: boolean;
}
export interface ChainIdParams {
  chainid: string;
}
/** `pending-entries`: `chainid` is accepted and, as on the reference, not used as a filter. */
export interface PendingEntriesParams {
  chainid?: string;
}

// ───────────────────────────── the contract ─────────────────────────────

/** One method: what the client sends as `params` and what the node answers as `result`. */
export interface Method<P, R> {
  params: P;
  result: R;
}
/** A method that takes no params (the node ignores any it is sent). */
type NoParams = Record<string, never> | undefined;

/** Every `/v2` method (spec §4.1, plus the extension `tps-rate`). */
export interface V2Methods {
  // blocks
  "ablock-by-height": Method<HeightParams, AdminBlockResult>;
  "admin-block": Method<KeyMRParams, AdminBlockResult>;
  "dblock-by-height": Method<HeightParams, DirectoryBlockByHeightResult>;
  "directory-block": Method<KeyMRParams, DirectoryBlockResult>;
  "directory-block-head": Method<NoParams, KeyMRResult>;
  "ecblock-by-height": Method<HeightParams, ECBlockResult>;
  "entrycredit-block": Method<KeyMRParams, ECBlockResult>;
  "fblock-by-height": Method<HeightParams, AssetBlockResult>;
  "asset-block": Method<KeyMRParams, AssetBlockResult>;
  "entry-block": Method<KeyMRParams, EntryBlockJson>;
  // chains and entries
  "chain-head": Method<ChainIdParams, ChainHeadResult>;
  entry: Method<HashParams, EntryResult>;
  receipt: Method<ReceiptParams, ReceiptResult>;
  "pending-entries": Method<PendingEntriesParams, PendingEntryJson[] | null>;
  // transactions and raw data
  transaction: Method<HashParams, TransactionResult>;
  "pending-transactions": Method<PendingTransactionsParams, PendingTransactionJson[] | null>;
  "raw-data": Method<HashParams, RawDataResult>;
  // acknowledgements
  ack: Method<AckParams, EntryAckResult | AssetAckResult>;
  "entry-ack": Method<TxIdParams, EntryAckResult>;
  "asset-ack": Method<TxIdParams, AssetAckResult>;
  // balances and rates
  "entry-credit-balance": Method<AddressParams, BalanceResult>;
  "asset-balance": Method<AddressParams, BalanceResult>;
  "multiple-ec-balances": Method<AddressesParams, MultipleBalancesResult>;
  "multiple-asset-balances": Method<AddressesParams, MultipleBalancesResult>;
  "entry-credit-rate": Method<NoParams, RateResult>;
  // writes
  "commit-chain": Method<MessageParams, CommitChainResult>;
  "commit-entry": Method<MessageParams, CommitEntryResult>;
  "reveal-chain": Method<RevealParams, RevealResult>;
  "reveal-entry": Method<RevealParams, RevealResult>;
  "asset-submit": Method<AssetSubmitParams, AssetSubmitResult>;
  "send-raw-message": Method<MessageParams, SendRawMessageResult>;
  // node
  heights: Method<NoParams, HeightsResult>;
  "current-minute": Method<NoParams, CurrentMinuteResult>;
  properties: Method<NoParams, PropertiesResult>;
  "tps-rate": Method<NoParams, TpsRateResult>;
  // query extensions
  "chain-entries": Method<ChainEntriesParams, ChainEntriesResult>;
  "search-entries": Method<SearchEntriesParams, SearchEntriesResult>;
  "search-chains": Method<SearchChainsParams, SearchChainsResult>;
  "address-history": Method<AddressHistoryParams, AddressHistoryResult>;
  proof: Method<ProofParams, ProofResult>;
}

/** Every `/debug` method (spec §4.2). */
export interface DebugMethods {
  "holding-queue": Method<NoParams, HoldingQueueResult>;
  "network-info": Method<NoParams, NetworkInfoResult>;
  "predictive-fer": Method<NoParams, PredictiveFerResult>;
  "audit-servers": Method<NoParams, AuditServersResult>;
  "federated-servers": Method<NoParams, FederatedServersResult>;
  configuration: Method<NoParams, ConfigurationResult>;
  authorities: Method<NoParams, AuthoritiesResult>;
  "process-list": Method<NoParams, ProcessListResult>;
  "reload-configuration": Method<NoParams, ConfigurationResult>;
  "drop-rate": Method<NoParams, DropRateResult>;
  "set-drop-rate": Method<{ DropRate: number }, DropRateResult>;
  delay: Method<NoParams, DelayResult>;
  "set-delay": Method<{ Delay: number }, DelayResult>;
  summary: Method<NoParams, SummaryResult>;
  messages: Method<NoParams, MessagesResult>;
}

/** Where a method comes from: the spec's list, or an extension of this node (docs/api.md). */
export type MethodOrigin = "spec" | "extension";

/** Every `/v2` method name, at run time (the record's type makes it complete and exact). */
export const V2_METHOD_NAMES: { readonly [M in keyof V2Methods]: MethodOrigin } = {
  "ablock-by-height": "spec",
  "admin-block": "spec",
  "dblock-by-height": "spec",
  "directory-block": "spec",
  "directory-block-head": "spec",
  "ecblock-by-height": "spec",
  "entrycredit-block": "spec",
  "fblock-by-height": "spec",
  "asset-block": "spec",
  "entry-block": "spec",
  "chain-head": "spec",
  entry: "spec",
  receipt: "spec",
  "pending-entries": "spec",
  transaction: "spec",
  "pending-transactions": "spec",
  "raw-data": "spec",
  ack: "spec",
  "entry-ack": "spec",
  "asset-ack": "spec",
  "entry-credit-balance": "spec",
  "asset-balance": "spec",
  "multiple-ec-balances": "spec",
  "multiple-asset-balances": "spec",
  "entry-credit-rate": "spec",
  "commit-chain": "spec",
  "commit-entry": "spec",
  "reveal-chain": "spec",
  "reveal-entry": "spec",
  "asset-submit": "spec",
  "send-raw-message": "spec",
  heights: "spec",
  "current-minute": "spec",
  properties: "spec",
  "tps-rate": "extension",
  "chain-entries": "extension",
  "search-entries": "extension",
  "search-chains": "extension",
  "address-history": "extension",
  proof: "extension",
};

/** Every `/debug` method name, at run time. */
export const DEBUG_METHOD_NAMES: { readonly [M in keyof DebugMethods]: MethodOrigin } = {
  "holding-queue": "spec",
  "network-info": "spec",
  "predictive-fer": "spec",
  "audit-servers": "spec",
  "federated-servers": "spec",
  configuration: "spec",
  authorities: "spec",
  "process-list": "spec",
  "reload-configuration": "spec",
  "drop-rate": "spec",
  "set-drop-rate": "spec",
  delay: "spec",
  "set-delay": "spec",
  summary: "spec",
  messages: "spec",
};

/** The params a method takes. */
export type ParamsOf<C, M extends keyof C> = C[M] extends Method<infer P, unknown> ? P : never;
/** The result a method answers. */
export type ResultOf<C, M extends keyof C> = C[M] extends Method<unknown, infer R> ? R : never;

/**
 * A server's handlers for contract `C`, with the server's context type `Ctx`: params arrive unchecked
 * (each handler validates them at the edge, STYLE §5), the result must fit the contract.
 */
export type Handlers<C, Ctx> = {
  readonly [M in keyof C]: (
    params: unknown,
    ctx: Ctx,
  ) => ResultOf<C, M> | Serialized<ResultOf<C, M>> | Promise<ResultOf<C, M> | Serialized<ResultOf<C, M>>>;
};

/** A result already serialised as JSON text (the server's remembered views: rpc/jsonrpc.ts JsonText). */
export interface Serialized<T> {
  readonly text: string;
  /** the type the text is the JSON of (type-level only) */
  readonly __of?: T;
}

/**
 * The wallet service's methods (ledgerd-walletd, spec §1 rule 7, §7): a call to the node for one of them is
 * answered -32601 with `data` saying it belongs to the wallet service. The typed list is the client's
 * WALLET_METHOD_NAMES (client/walletMethods.ts); test/unit/wallet/walletdContract.test.ts checks they agree.
 */
export const WALLET_SERVICE_METHODS: ReadonlySet<string> = new Set([
  "address",
  "all-addresses",
  "generate-ec-address",
  "generate-asset-address",
  "import-addresses",
  "remove-address",
  "import-mnemonic",
  "wallet-backup",
  "unlock-wallet",
  "get-height",
  "wallet-balances",
  "new-transaction",
  "delete-transaction",
  "tmp-transactions",
  "transaction-hash",
  "add-input",
  "add-output",
  "add-ec-output",
  "add-fee",
  "sub-fee",
  "sign-transaction",
  "sign-data",
  "compose-transaction",
  "compose-chain",
  "compose-entry",
  "transactions",
]);
