/**
 * One ledgerd of a devnet: its home directory (LMDB, configuration file with its identity and keys), its
 * loopback port, the arguments it was started with (kept so `restart` repeats them), and the process.
 * Flags and [Cluster] fields: docs/cluster.md §2, docs/configuration.md.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { NodeClient } from "../../src/client/index.js";
import { ManagedProcess, sleep } from "./process.js";

export const NODE_ROLES = ["federated", "audit", "follower"] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** A server identity: chain ID and ed25519 key (seed and public key), hex. Followers have none. */
export interface ServerIdentity {
  identity: string;
  privkey: string;
  pubkey: string;
}

/** How a node logs in to NATS: its role's user ([Cluster] NatsUser, NatsPassword) and, with TLS, NatsTlsCA. */
export interface NatsClientCredentials {
  user: string;
  password: string;
  /** PEM file of the CA (here: the nats-servers' self-signed certificate); absent: no TLS */
  caFile?: string;
}

/** Everything needed to start a node again. Persisted in DIR/devnet-state.json. */
export interface NodeLayout {
  /** fed0, fed1, audit0, follower0, … */
  name: string;
  role: NodeRole;
  port: number;
  /** -controlpanelport: each node its own panel (absent in a devnet made before panels had their own ports) */
  panelPort?: number;
  /** -homedir: <dir>/<name> */
  home: string;
  /** undefined for a follower */
  key: ServerIdentity | undefined;
  /** the ledgerd arguments, as started */
  args: string[];
}

/** Milliseconds between "does it serve yet" polls. */
const SERVE_POLL_MS = 100;

/**
 * The configuration file of a node: loopback only; the debug API read-write, because a devnet is where
 * the network-testing methods (`set-delay`, `set-drop-rate`) are meant to be used; and the server's
 * identity and key when it has one.
 */
export function nodeConfigText(
  layout: Pick<NodeLayout, "key" | "role">,
  extra: { nats?: NatsClientCredentials; app?: readonly string[]; cluster?: readonly string[] } = {},
): string {
  const nats = extra.nats;
  const lines = [
    "; written by ledgerd-devnet (tools/devnet)",
    "[App]",
    "ListenHost = 127.0.0.1",
    "DebugApi = readwrite",
    ...(extra.app ?? []),
  ];
  if (layout.key !== undefined)
    lines.push(
      `IdentityChainID = ${layout.key.identity}`,
      `LocalServerPrivKey = ${layout.key.privkey}`,
      `LocalServerPublicKey = ${layout.key.pubkey}`,
    );
  if (nats !== undefined || (extra.cluster ?? []).length > 0)
    lines.push(
      "[Cluster]",
      ...(nats === undefined
        ? []
        : [
            `NatsUser = ${nats.user}`,
            `NatsPassword = ${nats.password}`,
            ...(nats.caFile === undefined ? [] : [`NatsTlsCA = ${nats.caFile}`]),
          ]),
      ...(extra.cluster ?? []),
    );
  lines.push("");
  return lines.join("\n");
}

export class LedgerdNode {
  readonly process: ManagedProcess;
  readonly client: NodeClient;
  /** how long waitServing waits by default, ms (the devnet sets it from its options) */
  serveTimeoutMs = 60_000;

  constructor(
    readonly layout: NodeLayout,
    ledgerdBin: string,
    pid?: number,
  ) {
    const configFile = join(layout.home, "ledgerd.conf");
    this.process = ManagedProcess.adopt(
      {
        name: layout.name,
        command: ledgerdBin,
        args: layout.args,
        logFile: join(layout.home, "ledgerd.log"),
        marker: `-config=${configFile}`,
      },
      pid,
    );
    this.client = new NodeClient({ url: this.url, timeoutMs: 10_000 });
  }

  /** Write the node's configuration file (before its first start). */
  writeConfig(
    extra: { nats?: NatsClientCredentials; app?: readonly string[]; cluster?: readonly string[] } = {},
  ): void {
    writeFileSync(join(this.layout.home, "ledgerd.conf"), nodeConfigText(this.layout, extra), { mode: 0o600 });
  }

  get name(): string {
    return this.layout.name;
  }

  get role(): NodeRole {
    return this.layout.role;
  }

  /** http://127.0.0.1:<port> */
  get url(): string {
    return `http://127.0.0.1:${this.layout.port}`;
  }

  /** http://127.0.0.1:<panel port>/, or undefined when the devnet gave the node no panel port */
  get panelUrl(): string | undefined {
    return this.layout.panelPort === undefined ? undefined : `http://127.0.0.1:${this.layout.panelPort}/`;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get isRunning(): boolean {
    return this.process.isRunning;
  }

  /** Identity chain ID, or undefined for a follower. */
  get identity(): string | undefined {
    return this.layout.key?.identity;
  }

  /**
   * Start (again) with the recorded arguments; does not wait (see waitServing). `env`: extra variables for
   * this start only.
   */
  start(detached: boolean, env?: Readonly<Record<string, string>>): void {
    this.process.restart({ detached, ...(env === undefined ? {} : { env }) });
  }

  /**
   * Wait until the node answers JSON-RPC (`properties`). Throws with its log tail when it exits first or
   * does not answer within `timeoutMs`.
   */
  async waitServing(timeoutMs = this.serveTimeoutMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    for (;;) {
      if (this.process.exitedUnexpectedly)
        throw new Error(
          `${this.name} exited while starting (${this.process.exitDescription}):\n${this.process.logTail()}`,
        );
      try {
        await this.client.call("properties");
        return;
      } catch (e) {
        last = e instanceof Error ? e.message : String(e);
      }
      if (Date.now() > deadline)
        throw new Error(
          `${this.name} did not serve on ${this.url} within ${timeoutMs} ms (${last}):\n${this.process.logTail()}`,
        );
      await sleep(SERVE_POLL_MS);
    }
  }

  close(): void {
    this.client.close();
  }
}
