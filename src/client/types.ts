/**
 * Params and results of every node method (spec/node-api.md §2, §4.1, §4.2), with the exact JSON
 * member names. Hashes, keymrs, chain IDs and txids are 64-char lowercase hex strings; `rawdata`,
 * `content`, `extids` items and the like are hex strings of binary data.
 *
 * Integers that may exceed 2^53 (amounts in base units, nanosecond times) are typed `JsonInt`: the
 * client parses them without rounding, as `bigint` when they do not fit a double exactly.
 */

/** An integer from the node: `number` when exact as a double, `bigint` otherwise. Use `BigInt(x)` to compute. */
import type { ECBlockJson } from "../protocol/json/ecBlockJson.js";
import type { EntryBlockJson } from "../protocol/json/entryBlockJson.js";

export type JsonInt = number | bigint;

/** Spec §3 acknowledgement states (`""` appears where the reference leaves a part unfilled). */
export type AckStatus = "Unknown" | "NotConfirmed" | "TransactionACK" | "DBlockConfirmed";

// ───────────────────────────── shared shapes ─────────────────────────────

export interface ChainKeyMR {
  chainid: string;
  keymr: string;
}

/** Spec §2.2 */
export interface AdminBlockJson {
  header: {
    prevbackrefhash: string;
    dbheight: number;
    headerexpansionsize: number;
    headerexpansionarea: string;
    messagecount: number;
    bodysize: number;
    adminchainid: string;
    chainid: string;
  };
  /** directory block signatures ({identityadminchainid, prevdbsig{pub,sig}}), minute markers ({minutenumber}), others */
  abentries: Record<string, unknown>[];
  backreferencehash: string;
  lookuphash: string;
}

/** Spec §2.3, `dblock-by-height` shape. */
export interface DirectoryBlockJson {
  header: {
    version: number;
    networkid: number;
    bodymr: string;
    prevkeymr: string;
    prevfullhash: string;
    /** minutes since the Unix epoch */
    timestamp: number;
    dbheight: number;
    blockcount: number;
    chainid: string;
  };
  dbentries: ChainKeyMR[];
  dbhash: string;
  keymr: string;
}

/** One input/output of an asset transaction. `amount` in base units (EC outputs too). */
export interface TxIoJson {
  amount: JsonInt;
  /** 32-byte RCD hash (outputs/inputs) or EC public key (outecs), hex */
  address: string;
  /** FA…/EC… form; may be "" */
  useraddress: string;
}

/** Spec §2.5 asset transaction. */
export interface AssetTransactionJson {
  txid: string;
  /** always 0 in block listings */
  blockheight: number;
  /** milliseconds since the Unix epoch */
  millitimestamp: number;
  inputs: TxIoJson[] | null;
  outputs: TxIoJson[] | null;
  outecs: TxIoJson[] | null;
  rcds: string[] | null;
  sigblocks: { signatures: string[] | null }[] | null;
}

/** Spec §2.5 */
export interface AssetBlockJson {
  bodymr: string;
  prevkeymr: string;
  prevledgerkeymr: string;
  /** entry credit rate in force: base units per EC */
  exchrate: number;
  dbheight: number;
  transactions: AssetTransactionJson[];
  chainid: string;
  keymr: string;
  ledgerkeymr: string;
}

/** Spec §2.7 */
export interface EntryJson {
  chainid: string;
  /** hex strings; null for an entry without external ids (reference behaviour) */
  extids: string[] | null;
  content: string;
}

/** One node of a receipt's Merkle branch. */
export interface MerkleNodeJson {
  left: string;
  right: string;
  top: string;
}

/** Spec §2.8 */
export interface ReceiptJson {
  entry: { entryhash: string; timestamp?: number; raw?: string };
  merklebranch: MerkleNodeJson[];
  entryblockkeymr: string;
  directoryblockkeymr: string;
  /** omitted at height 0 by the reference */
  directoryblockheight?: number;
  anchortransactionhash?: string;
  anchorblockhash?: string;
}

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
}
export interface KeyMRParams {
  keymr: string;
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
export interface DirectoryBlockResult {
  header: { prevblockkeymr: string; sequencenumber: number; timestamp: number };
  entryblocklist: ChainKeyMR[];
}

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
  assettransaction?: Omit<AssetTransactionJson, "txid"> & { txid?: string };
  entry?: EntryJson & { version: number };
  /** commits and EC balance increases, as the reference node also reports them */
  ectransaction?: Record<string, unknown>;
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
/** Shape not fixed by the spec. */
export type ProcessListResult = Record<string, unknown>;
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

// The block shapes are the protocol layer's JSON views, the same types the node serialises.
export type { ECBlockJson, EntryBlockJson };
