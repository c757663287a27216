/**
 * What every method handler may use: the ledger contract, the node's configuration (read per call, so
 * `reload-configuration` takes effect live), the log and the API's message intake (drop/delay state).
 */
import type { AuthorityView } from "../cluster/authorities.js";
import type { FederationStatus } from "../cluster/federation.js";
import type { ClusterRecord } from "../cluster/records.js";
import type { NodeConfig } from "../config/types.js";
import type { LedgerApi, LedgerDebugApi } from "../ledger/api.js";
import type { Logger } from "../log/logger.js";
import type { MessageIntake } from "./intake.js";
import type { ViewCache } from "./viewCache.js";

/** Dependencies of the RPC server (STYLE §3: constructors take options, then dependencies). */
export interface RpcDependencies {
  ledger: LedgerApi & LedgerDebugApi;
  log: Logger;
  getConfig(): NodeConfig;
  /** re-read the configuration file; `restartNeeded` names settings that only apply after a restart */
  reloadConfig(): { config: NodeConfig; restartNeeded: string[] };
  /** a cluster node's federation (cluster/federation.ts); absent on the single node */
  cluster?: ClusterPort;
}

/** What the API reads and asks of a cluster node's federation. */
export interface ClusterPort {
  status(): FederationStatus;
  authorityView(): AuthorityView;
  /** per federated server (hex): online, and the audit server this node would vote to replace it with */
  faultView(): Map<string, { online: boolean; replace: string | undefined }>;
  submitAddServer(rec: Extract<ClusterRecord, { kind: "addServer" }>): Promise<void>;
}

export interface RpcContext extends RpcDependencies {
  intake: MessageIntake;
  /** JSON views of saved blocks, per decoded block (viewCache.ts) */
  views: ViewCache;
}
