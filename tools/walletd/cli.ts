/**
 * Entry point of `ledgerd-walletd` (bin/ledgerd-walletd imports this file): the wallet service, a JSON-RPC 2.0
 * daemon over the wallet file `ledgerd-wallet` uses (docs/wallet.md). Flags in the node's style.
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ClientConfigError } from "../../src/client/errors.js";
import { NodeClient } from "../../src/client/nodeClient.js";
import { ConfigError } from "../../src/config/errors.js";
import { isLoopbackHost } from "../../src/config/loopback.js";
import { createLogger } from "../../src/log/logger.js";
import { ensureCertificate } from "../../src/rpc/tls.js";
import { type OptionKind, parseArgs } from "../wallet/args.js";
import { DEFAULT_NODE_URL } from "../wallet/context.js";
import { UsageError, WalletError } from "../wallet/errors.js";
import { newMnemonic } from "../wallet/seed.js";
import { defaultWalletPath, WalletFile } from "../wallet/walletFile.js";
import { WalletdError } from "./errors.js";
import { WalletdServer } from "./server.js";
import { WalletService } from "./service.js";
import { checkWalletMode, WalletAccess } from "./walletAccess.js";

/** The reference wallet daemon's port (factom-walletd -p default 8089). */
export const DEFAULT_WALLETD_PORT = 8089;
const DEFAULT_LISTEN_HOST = "127.0.0.1";

const FLAGS: Record<string, OptionKind> = {
  port: "value",
  listenhost: "value",
  wallet: "value",
  node: "value",
  rpcuser: "value",
  rpcpass: "value",
  nodeuser: "value",
  nodepass: "value",
  nodecafile: "value",
  tls: "flag",
  tlskey: "value",
  tlscert: "value",
  h: "flag",
  help: "flag",
};

const USAGE = `usage: ledgerd-walletd [options]

The wallet service: a JSON-RPC 2.0 daemon (POST /v2) that keeps the keys of a wallet file and builds, signs and
composes messages for a node, so applications never hold keys. Methods: docs/wallet.md.

options (-name=value or -name value):
  -port=N            port to listen on (default ${DEFAULT_WALLETD_PORT})
  -listenhost=HOST   interface (default ${DEFAULT_LISTEN_HOST}); one other than loopback needs -rpcuser/-rpcpass
  -wallet=FILE       wallet file shared with ledgerd-wallet (default ~/.ledgerd/wallet.json; env LEDGERD_WALLET);
                     mode 0600, refused when others can read it; a missing file is created with a new seed
  -rpcuser=USER      HTTP Basic user the service's callers must give (env LEDGERD_WALLETD_RPCUSER)
  -rpcpass=PASS      their password (env LEDGERD_WALLETD_RPCPASS, which ps does not show)
  -node=URL          node to talk to (default ${DEFAULT_NODE_URL}; env LEDGERD_NODE)
  -nodeuser=USER     the node's HTTP Basic user (env LEDGERD_RPCUSER)
  -nodepass=PASS     the node's password (env LEDGERD_RPCPASS)
  -nodecafile=FILE   certificate to trust for an https node (env LEDGERD_CAFILE)
  -tls               serve HTTPS; the key and certificate are created (self-signed, for localhost, 127.0.0.1,
                     ::1 and -listenhost) when missing; clients trust the certificate file
  -tlskey=FILE       TLS private key (default walletd-tls.key beside the wallet file)
  -tlscert=FILE      TLS certificate (default walletd-tls.crt beside the wallet file)
  -h, --help         this text

An encrypted wallet (ledgerd-wallet encrypt) stays locked until unlock-wallet gives its passphrase.`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseArgs(argv, undefined, FLAGS);
  if (args.flags.has("h") || args.flags.has("help")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.command !== undefined) throw new UsageError(`unexpected argument ${args.command}`);
  const portText = args.values.get("port") ?? String(DEFAULT_WALLETD_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`-port: expected 0..65535, got ${portText}`);
  const host = args.values.get("listenhost") ?? DEFAULT_LISTEN_HOST;
  const user = args.values.get("rpcuser") ?? env.LEDGERD_WALLETD_RPCUSER ?? "";
  const pass = args.values.get("rpcpass") ?? env.LEDGERD_WALLETD_RPCPASS ?? "";
  if (user.includes(":")) throw new UsageError("-rpcuser must not contain ':' (HTTP Basic authentication)");
  if (!isLoopbackHost(host) && (user === "" || pass === ""))
    throw new UsageError(
      `-listenhost=${host} is not loopback: the wallet service signs with your keys, so it refuses to listen there without -rpcuser and -rpcpass`,
    );
  const walletPath = args.values.get("wallet") ?? env.LEDGERD_WALLET ?? defaultWalletPath();
  checkWalletMode(walletPath);
  if (WalletFile.mode(walletPath) === undefined) {
    // as the reference daemon: a new wallet starts with a new seed
    WalletFile.load(walletPath).update((_keys, extras) => {
      extras.seed ??= { mnemonic: newMnemonic(), nextFA: 0, nextEC: 0 };
    });
  } else if (!WalletFile.isEncrypted(walletPath)) {
    WalletFile.load(walletPath); // a damaged file stops the start, with the reason
  }
  const node = new NodeClient({
    url: args.values.get("node") ?? env.LEDGERD_NODE ?? DEFAULT_NODE_URL,
    user: args.values.get("nodeuser") ?? env.LEDGERD_RPCUSER,
    password: args.values.get("nodepass") ?? env.LEDGERD_RPCPASS,
    caFile: args.values.get("nodecafile") ?? env.LEDGERD_CAFILE,
  });
  let tls: { key: Buffer; cert: Buffer } | undefined;
  if (args.flags.has("tls")) {
    const files = await ensureCertificate({
      keyFile: args.values.get("tlskey") ?? join(dirname(walletPath), "walletd-tls.key"),
      certFile: args.values.get("tlscert") ?? join(dirname(walletPath), "walletd-tls.crt"),
      hosts: ["localhost", "127.0.0.1", "::1", host],
    });
    tls = { key: readFileSync(files.keyFile), cert: readFileSync(files.certFile) };
  } else if (args.values.has("tlskey") || args.values.has("tlscert")) {
    throw new UsageError("-tlskey and -tlscert need -tls");
  }
  const log = createLogger({ level: "none", consoleLevel: "info" });
  const access = new WalletAccess(walletPath);
  const service = new WalletService({ access, node });
  const server = new WalletdServer(
    { user, pass, ...(tls === undefined ? {} : { tls }) },
    { handlers: service.handlers, locked: () => access.locked, log },
  );
  const bound = await server.listen(port, host);
  log.info("wallet service listening", {
    url: `${tls === undefined ? "http" : "https"}://${host.includes(":") ? `[${host}]` : host}:${bound}/v2`,
    wallet: walletPath,
    node: node.baseUrl,
    encrypted: access.encrypted,
    auth: user !== "" || pass !== "",
  });
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      log.info("stopping", { signal });
      access.lock();
      node.close();
      void server.close().then(resolve);
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2), process.env);
} catch (e) {
  if (
    e instanceof UsageError ||
    e instanceof WalletError ||
    e instanceof WalletdError ||
    e instanceof ClientConfigError ||
    e instanceof ConfigError
  ) {
    process.stderr.write(`ledgerd-walletd: ${e instanceof WalletdError ? e.data : e.message}\n`);
    if (e instanceof UsageError) process.stderr.write("run ledgerd-walletd -h for the options\n");
    process.exitCode = e instanceof UsageError ? 1 : 2;
  } else if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") {
    process.stderr.write(
      `ledgerd-walletd: the port is already in use (${(e as Error).message}); choose another with -port\n`,
    );
    process.exitCode = 2;
  } else throw e;
}
