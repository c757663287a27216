/**
 * Debug methods about the network and its servers (spec §4.2): network-info, federated-servers,
 * audit-servers, authorities, predictive-fer. Result keys are exactly the spec's (capitalised, as the
 * reference node's Go field names). Params are ignored.
 */
import { toHex } from "../../protocol/bytes.js";
import { jsonInteger } from "../../protocol/json/transactionJson.js";
import { type NetworkName, networkId } from "../../protocol/network.js";
import type { RpcContext } from "../context.js";

/** The reference node's network numbers. */
const NETWORK_NUMBER: Record<NetworkName, number> = { MAIN: 0, TEST: 1, LOCAL: 2, CUSTOM: 3 };

/** Authority status of a federated server (the reference's identity status constant). */
const AUTHORITY_STATUS_FEDERATED = 1;
/** Authority status of an audit server. */
const AUTHORITY_STATUS_AUDIT = 2;

const ZERO_HASH_HEX = "0".repeat(64);

/** `network-info`: {NetworkNumber, NetworkName, NetworkID (u32 of the directory block header)}. */
export function networkInfo(_params: unknown, ctx: RpcContext) {
  const config = ctx.getConfig();
  const base = {
    NetworkNumber: NETWORK_NUMBER[config.network],
    NetworkName: config.network,
    NetworkID: networkId(config.network, config.customNet),
  };
  if (ctx.cluster === undefined) return base;
  // a cluster node adds its place in the federation (docs/cluster.md: how to tell a node is in consensus)
  const s = ctx.cluster.status();
  return {
    ...base,
    Cluster: {
      Role: s.role,
      Identity: s.identity,
      Stream: s.stream,
      AppliedSequence: s.appliedSequence,
      Synced: s.synced,
      Forked: s.forked,
      Height: s.height,
      NetworkHeight: s.networkHeight,
      Federated: s.federated,
      Audit: s.audit,
      Signatures: s.signatures,
    },
  };
}

/** `federated-servers`: {FederatedServers: [{ChainID, Name, Online, Replace}]}. */
export function federatedServers(_params: unknown, ctx: RpcContext) {
  if (ctx.cluster !== undefined) {
    const faults = ctx.cluster.faultView();
    return {
      FederatedServers: ctx.cluster.authorityView().federated.map((a) => {
        const f = faults.get(toHex(a.identity));
        return {
          ChainID: toHex(a.identity),
          Name: "",
          Online: f?.online ?? true,
          Replace: f?.replace === undefined ? null : { ChainID: f.replace },
        };
      }),
    };
  }
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
export function auditServers(_params: unknown, ctx: RpcContext) {
  if (ctx.cluster === undefined) return { AuditServers: [] };
  return {
    AuditServers: ctx.cluster.authorityView().audit.map((a) => ({
      ChainID: toHex(a.identity),
      Name: "",
      Online: true,
      Replace: null,
    })),
  };
}

/**
 * `authorities`: {Authorities: [...]}, one per federated server. The bootstrap identity has no management
 * chain or matryoshka hash (zero hashes); its signing key is the key that signs its blocks (LOCAL: the
 * reference bootstrap key; CUSTOM: the operator's).
 */
export function authorities(_params: unknown, ctx: RpcContext) {
  if (ctx.cluster !== undefined) {
    const view = ctx.cluster.authorityView();
    const one = (a: (typeof view.federated)[number], status: number) => ({
      AuthorityChainID: toHex(a.identity),
      ManagementChainID: ZERO_HASH_HEX,
      MatryoshkaHash: ZERO_HASH_HEX,
      SigningKey: a.publicKey === undefined ? "" : toHex(a.publicKey),
      Status: status,
      AnchorKeys: null,
      KeyHistory: null,
    });
    return {
      Authorities: [
        ...view.federated.map((a) => one(a, AUTHORITY_STATUS_FEDERATED)),
        ...view.audit.map((a) => one(a, AUTHORITY_STATUS_AUDIT)),
      ],
    };
  }
  return {
    Authorities: ctx.ledger.federatedServers().map((s) => {
      const chainId = toHex(s.chainId);
      return {
        AuthorityChainID: chainId,
        ManagementChainID: ZERO_HASH_HEX,
        MatryoshkaHash: ZERO_HASH_HEX,
        SigningKey: toHex(s.signingKey),
        Status: AUTHORITY_STATUS_FEDERATED,
        AnchorKeys: null,
        KeyHistory: null,
      };
    }),
  };
}

/**
 * `predictive-fer`: {PredictiveFER} — base units per entry credit of the next rate change the rate authority
 * announced (cluster/ecRate.ts), or the rate in force when none is (a single node: always).
 */
export function predictiveFer(_params: unknown, ctx: RpcContext) {
  const announced = ctx.cluster?.ecRates?.().announced;
  return { PredictiveFER: jsonInteger(announced ?? ctx.ledger.entryCreditRate()) };
}
