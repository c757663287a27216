/**
 * Debug methods about the network and its servers (spec §4.2): network-info, federated-servers,
 * audit-servers, authorities, predictive-fer. Result keys are exactly the spec's (capitalised, as the
 * reference node's Go field names). Params are ignored.
 */
import { toHex } from "../../protocol/bytes.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../protocol/genesis.js";
import { jsonInteger } from "../../protocol/json/transactionJson.js";
import { type NetworkName, networkId } from "../../protocol/network.js";
import type { RpcContext } from "../context.js";

/** The reference node's network numbers. */
const NETWORK_NUMBER: Record<NetworkName, number> = { MAIN: 0, TEST: 1, LOCAL: 2, CUSTOM: 3 };

/** Authority status of a federated server (the reference's identity status constant). */
const AUTHORITY_STATUS_FEDERATED = 1;

const ZERO_HASH_HEX = "0".repeat(64);

/** `network-info`: {NetworkNumber, NetworkName, NetworkID (u32 of the directory block header)}. */
export function networkInfo(_params: unknown, ctx: RpcContext) {
  const config = ctx.getConfig();
  return {
    NetworkNumber: NETWORK_NUMBER[config.network],
    NetworkName: config.network,
    NetworkID: networkId(config.network, config.customNet),
  };
}

/** `federated-servers`: {FederatedServers: [{ChainID, Name, Online, Replace}]}. */
export function federatedServers(_params: unknown, ctx: RpcContext) {
  return {
    FederatedServers: ctx.ledger.federatedServers().map((s) => ({
      ChainID: toHex(s.chainId),
      Name: s.name,
      Online: s.online,
      Replace: null,
    })),
  };
}

/** `audit-servers`: {AuditServers: []} — a single-leader node has no audit servers. */
export function auditServers() {
  return { AuditServers: [] };
}

/**
 * `authorities`: {Authorities: [...]}, one per federated server. The bootstrap identity has no management
 * chain or matryoshka hash (zero hashes); its signing key is the network's bootstrap key when known.
 */
export function authorities(_params: unknown, ctx: RpcContext) {
  return {
    Authorities: ctx.ledger.federatedServers().map((s) => {
      const chainId = toHex(s.chainId);
      return {
        AuthorityChainID: chainId,
        ManagementChainID: ZERO_HASH_HEX,
        MatryoshkaHash: ZERO_HASH_HEX,
        SigningKey: chainId === LOCAL_BOOTSTRAP_IDENTITY_HEX ? LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX : "",
        Status: AUTHORITY_STATUS_FEDERATED,
        AnchorKeys: null,
        KeyHistory: null,
      };
    }),
  };
}

/** `predictive-fer`: {PredictiveFER} — base units per entry credit (no rate change is ever scheduled here). */
export function predictiveFer(_params: unknown, ctx: RpcContext) {
  return { PredictiveFER: jsonInteger(ctx.ledger.entryCreditRate()) };
}
