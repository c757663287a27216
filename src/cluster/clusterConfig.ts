/**
 * What a cluster node derives from its configuration: the stream and subjects of its network's log, and
 * the federation's options (role, identity and key, the network's bootstrap server and skeleton key).
 */

import { customLedgerOptions } from "../config/customNetwork.js";
import { fileString } from "../config/ini.js";
import type { NodeConfig } from "../config/types.js";
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { fromHex } from "../protocol/bytes.js";
import { directoryBlockHashes } from "../protocol/dblock.js";
import { genesisBlocks, LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../protocol/genesis.js";
import { networkId } from "../protocol/network.js";
import type { FederationOptions } from "./federationTypes.js";

/**
 * The log of a network: stream `LEDGER_<NET>` on subjects `ledger.<net>.>` (CUSTOM: the network id in hex),
 * its block-set archive: stream `LEDGER_<NET>_SETS` on `ledgersets.<net>.>`, and the subject on which
 * followers send their clients' writes to a server that appends them (writeForwarding.ts):
 * `ledgerintake.<net>`, outside both streams so nothing sent there is stored.
 */
export function clusterNames(config: Pick<NodeConfig, "network" | "customNet">): {
  stream: string;
  subjectPrefix: string;
  setsStream: string;
  setsSubjectPrefix: string;
  intakeSubject: string;
  /** the certified-snapshot archive (snapshots.ts): stream `LEDGER_<NET>_SNAPS` on `ledgersnaps.<net>.>` */
  snapsStream: string;
  snapsSubjectPrefix: string;
} {
  const custom = config.network === "CUSTOM";
  const id = custom ? networkId("CUSTOM", config.customNet).toString(16).padStart(8, "0") : "";
  const net = custom ? `custom_${id}` : config.network.toLowerCase();
  const stream = custom ? `LEDGER_CUSTOM_${id}` : `LEDGER_${config.network}`;
  return {
    stream,
    subjectPrefix: `ledger.${net}`,
    setsStream: `${stream}_SETS`,
    setsSubjectPrefix: `ledgersets.${net}`,
    intakeSubject: `ledgerintake.${net}`,
    snapsStream: `${stream}_SNAPS`,
    snapsSubjectPrefix: `ledgersnaps.${net}`,
  };
}

/**
 * The network's genesis federated server and key, which also verifies addServer records (the skeleton
 * key): LOCAL's well-known bootstrap key, or a CUSTOM network's bootstrap identity and key
 * (config/customNetwork.ts: [App] CustomBootstrapIdentity, CustomBootstrapKey).
 */
export function networkBootstrap(config: Pick<NodeConfig, "network" | "file">): {
  identity: Uint8Array;
  publicKey: Uint8Array;
} {
  // (config.custom.publicKeyHex is this node's own key; the network's bootstrap key is CustomBootstrapKey)
  if (config.network === "CUSTOM")
    return {
      identity: fromHex(
        fileString(config.file, "App", "CustomBootstrapIdentity").trim(),
        "CustomBootstrapIdentity",
        32,
      ),
      publicKey: fromHex(fileString(config.file, "App", "CustomBootstrapKey").trim(), "CustomBootstrapKey", 32),
    };
  return {
    identity: fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX, "identity", 32),
    publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX, "key", 32),
  };
}

/**
 * keyMR of the network's genesis directory block as this node's configuration makes it (a CUSTOM network's from
 * its bootstrap identity and allocations): the root a header chain is checked from (snapshotChain.ts).
 */
export function networkGenesisKeyMR(config: Pick<NodeConfig, "network" | "customNet" | "custom">): Uint8Array {
  const custom = customLedgerOptions(config).customGenesis;
  return directoryBlockHashes(genesisBlocks(config.network, config.customNet, custom).directory).keyMR;
}

/**
 * The network's entry-credit rate authority (setEcRate records, ecRate.ts), as the reference names it per
 * network: LOCAL — [App] ExchangeRateAuthorityPublicKeyLocalNet (the reference's LOCAL key, whose private key
 * is all zeroes: anyone may change a LOCAL network's rate); CUSTOM — [App] ExchangeRateAuthorityPublicKey,
 * or, when empty, the network's bootstrap (skeleton) key.
 */
export function networkRateAuthority(config: Pick<NodeConfig, "network" | "file">): Uint8Array {
  if (config.network === "CUSTOM") {
    const own = fileString(config.file, "App", "ExchangeRateAuthorityPublicKey").trim();
    return own === "" ? networkBootstrap(config).publicKey : fromHex(own, "ExchangeRateAuthorityPublicKey", 32);
  }
  return fromHex(
    fileString(config.file, "App", "ExchangeRateAuthorityPublicKeyLocalNet").trim(),
    "ExchangeRateAuthorityPublicKeyLocalNet",
    32,
  );
}

/** The federation's options from a validated configuration (config/index.ts checked identity and keys). */
export function federationOptions(config: NodeConfig): FederationOptions {
  const c = config.cluster;
  const bootstrap = networkBootstrap(config);
  const server: Pick<FederationOptions, "identity" | "seed" | "nextSeed"> =
    c.role === "follower"
      ? {}
      : {
          identity: fromHex(c.identityChainId, "IdentityChainID", 32),
          seed: fromHex(c.serverPrivKey, "LocalServerPrivKey", 32),
          ...(c.serverNextPrivKey === ""
            ? {}
            : { nextSeed: fromHex(c.serverNextPrivKey, "LocalServerNextPrivKey", 32) }),
        };
  // throws on a bad seed before anything starts
  for (const seed of [server.seed, server.nextSeed]) if (seed !== undefined) publicKeyFromSeed(seed);
  return {
    role: c.role,
    ...server,
    networkId: networkId(config.network, config.customNet),
    blockTimeSeconds: config.blockTimeSeconds,
    bootstrap,
    skeletonKey: bootstrap.publicKey,
    rateAuthority: networkRateAuthority(config),
    signingWindow: config.signingWindow,
    nodeName: c.role === "follower" ? `follower-${config.port}` : c.identityChainId.slice(0, 16),
    stream: clusterNames(config).stream,
    faultTimeoutSeconds: c.faultTimeoutSeconds,
    roundTimeoutSeconds: c.roundTimeoutSeconds,
  };
}
