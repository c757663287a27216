/**
 * What every method handler may use: the ledger contract, the node's configuration (read per call, so
 * `reload-configuration` takes effect live), the log and the API's message intake (drop/delay state).
 */
import type { BlockAnchor } from "../anchor/index.js";
import type { AuthorityView } from "../cluster/authorities.js";
import type { FederationStatus, ScheduledChanges } from "../cluster/federationTypes.js";
import type { ClusterRecord } from "../cluster/records.js";
import type { NodeConfig } from "../config/types.js";
import type { LedgerApi, LedgerDebugApi, QueryIndexApi } from "../ledger/api.js";
import type { Logger } from "../log/logger.js";
import type { EntryBlockJson } from "../protocol/json/entryBlockJson.js";
import type { EntryJson } from "../protocol/json/entryJson.js";
import type { AddressCache } from "./addressCache.js";
import type { AnswerCache, KeptAnswer, KeptChainHead, KeptHeights } from "./answerCache.js";
import type { MessageIntake } from "./intake.js";
import type { ChainHeadResult, HeightsResult, Serialized } from "./methods.js";
import type { PlainRoute } from "./plainRoutes.js";
import type { ViewCache } from "./viewCache.js";

/** Dependencies of the RPC server (STYLE §3: constructors take options, then dependencies). */
export interface RpcDependencies {
  ledger: LedgerApi & LedgerDebugApi;
  /** the query index over saved blocks (store/queryIndex.ts); absent: the query extensions answer -32000 */
  queries?: QueryIndexApi;
  log: Logger;
  getConfig(): NodeConfig;
  /** anchors of directory blocks read from the anchor chain (receipts), and the anchoring counters (summary) */
  anchors?: {
    index: { forHeight(height: number): BlockAnchor | undefined };
    stats(): Record<string, number>;
  };
  /** re-read the configuration file; `restartNeeded` names settings that only apply after a restart */
  reloadConfig(): { config: NodeConfig; restartNeeded: string[] };
  /** GET/HEAD routes beside JSON-RPC (/health, /metrics; plainRoutes.ts) */
  plainRoutes?: readonly PlainRoute[];
  /** told of each answered JSON-RPC request: its calls (method, error code) and seconds taken (metrics) */
  requestServed?(endpoint: string, calls: readonly CallRecord[], seconds: number): void;
  /** a cluster node's federation (cluster/federation.ts); absent on the single node */
  cluster?: ClusterPort;
}

/** What the API reads and asks of a cluster node's federation. */
export interface ClusterPort {
  status(): FederationStatus;
  /** the height the network works on (≥ this node's open height) */
  leaderHeight(): number;
  authorityView(): AuthorityView;
  /** per federated server (hex): online, and the audit server this node would vote to replace it with */
  faultView(): Map<string, { online: boolean; replace: string | undefined }>;
  submitAddServer(rec: Extract<ClusterRecord, { kind: "addServer" }>): Promise<void>;
  /** an operator's record (authorityChange 0x17, rotateKey 0x18, setEcRate 0x19): appended, applied, refusal thrown */
  submitOperatorRecord(
    rec: Extract<ClusterRecord, { kind: "authorityChange" | "rotateKey" | "setEcRate" }>,
  ): Promise<void>;
  /** what the chain has scheduled and not yet in force (the panel) */
  scheduledChanges?(): ScheduledChanges;
  /** the entry-credit rate in force, the next announced one (or the one in force), and every announced change */
  ecRates?(): { inForce: bigint; announced: bigint; scheduled: { activationHeight: number; rate: bigint }[] };
}

/** The HTTP request being answered (server.ts sets it per request). */
export interface RequestInfo {
  /** performance.now() when the request's body was read, ms (the debug delay counts from it) */
  receivedMs: number;
  /** the caller's address; "" when not read (it is read for /debug only: ~1 % of a loaded node's main thread) */
  remote: string;
  /** which Basic credential the caller presented: the debug one ([App] DebugRpcUser), the API's, or none */
  credential: "debug" | "rpc" | "none";
  /** reads the caller's address ("" once the client has gone): for the few calls that need it (a reveal) */
  address?: () => string;
}

/** What one request of a body did, for the request log. */
export interface CallRecord {
  method: string | undefined;
  code?: number;
}

export interface RpcContext extends RpcDependencies {
  intake: MessageIntake;
  /** JSON views of saved blocks, per decoded block (viewCache.ts) */
  views: ViewCache;
  /** public addresses already decoded (addressCache.ts); absent: decoded per call */
  addresses?: AddressCache;
  /** answers of saved entries, by hash text (answerCache.ts); absent: built per call */
  entryAnswers?: AnswerCache<Serialized<EntryJson> & KeptAnswer>;
  /** `chain-head` answers by chain ID text, served while the ledger answers the same (v2/entries.ts) */
  chainHeadAnswers?: AnswerCache<KeptChainHead<Serialized<ChainHeadResult> & KeptAnswer>>;
  /** `entry-block` answers of committed blocks, by hash text (v2/blocks.ts); absent: built per call */
  entryBlockAnswers?: AnswerCache<Serialized<EntryBlockJson> & KeptAnswer>;
  /** the last `heights` answer, served while the heights are the same (v2/node.ts); absent: built per call */
  heightsAnswer?: KeptHeights<Serialized<HeightsResult> & KeptAnswer>;
  /** the request being answered; absent outside an HTTP request */
  request?: RequestInfo;
}
