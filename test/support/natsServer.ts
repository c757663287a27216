/**
 * Real nats-server processes for tests of the cluster's log: `startNatsCluster(n)` starts n servers with
 * JetStream (file storage, temp store directories, free loopback ports; n > 1 forms one cluster), waits
 * until the cluster is ready and JetStream answers a client on every server, and returns handles to kill
 * (SIGKILL), restart and stop them. The servers are tools/devnet/natsCluster.ts's (the one NATS launcher of
 * the devnet, the cluster tests and the benchmarks), attached to this process: they die with it, and
 * `stopAllNats()` SIGKILLs every one started here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { NatsCluster as Servers } from "../../tools/devnet/natsCluster.js";

/** Every cluster started here that has not been stopped. */
const started = new Set<Servers>();

/** One nats-server of a test cluster. */
export interface NatsServerHandle {
  readonly name: string;
  readonly url: string;
  pid(): number | undefined;
  /** SIGKILL, resolves when the process has exited */
  kill9(): Promise<void>;
  /** start again with the same configuration and store */
  restart(): Promise<void>;
}

export interface NatsCluster {
  readonly servers: NatsServerHandle[];
  readonly urls: string[];
  /** SIGTERM every server, await exits, remove the temp directory */
  stop(): Promise<void>;
}

/** Extra server configuration, and the client credentials readiness checks need with it. */
export interface NatsTestOptions {
  /** lines added to every server's configuration (e.g. tls and authorization blocks) */
  extraConfig?: readonly string[];
  user?: string;
  pass?: string;
  tls?: { caFile?: string };
}

/** Start `n` JetStream servers on loopback (n = 1: no cluster block). Resolves once JetStream answers. */
export async function startNatsCluster(n: number, options: NatsTestOptions = {}): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-nats-"));
  const servers = await Servers.create(
    { dir, size: n, clusterName: "ledgerdtest", namePrefix: "n", extraConfig: options.extraConfig ?? [] },
    false,
  );
  started.add(servers);
  await servers.startAll();
  await waitForJetStream(servers.urls, options);
  return {
    servers: servers.servers.map((s) => ({
      name: s.name,
      url: s.url,
      pid: () => s.pid,
      kill9: () => servers.kill(s.name, "SIGKILL"),
      restart: async () => {
        servers.start(s.name);
        await servers.waitReady();
        await waitForJetStream([s.url], options);
      },
    })),
    urls: servers.urls,
    stop: async () => {
      await servers.stopAll();
      started.delete(servers);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGKILL every nats-server this process started (an `after` hook). */
export async function stopAllNats(): Promise<void> {
  await Promise.all([...started].flatMap((c) => c.servers.map((s) => c.kill(s.name, "SIGKILL"))));
}

/** Poll until JetStream answers account info through each url (30 s at most). */
async function waitForJetStream(urls: readonly string[], options: NatsTestOptions = {}): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (const url of urls) {
    for (;;) {
      try {
        const nc = await connect({
          servers: url,
          timeout: 1000,
          ...(options.user === undefined ? {} : { user: options.user, pass: options.pass ?? "" }),
          ...(options.tls === undefined ? {} : { tls: options.tls }),
        });
        try {
          const jsm = await jetstreamManager(nc, { timeout: 1000 });
          await jsm.getAccountInfo();
          break;
        } finally {
          await nc.close();
        }
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`nats-server ${url} did not become ready: ${String(e)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}
