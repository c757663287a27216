/**
 * What `network-info` shows of a federation node (federationTypes.ts FederationStatus), read from the rules'
 * open height (heightMachine.ts) and the driver's place in the log.
 */
import { toHex } from "../protocol/bytes.js";
import type { ClusterRole, FederationStatus, HeightState } from "./federationTypes.js";

/** The driver's side of the status: who this node is and how far it has applied the log. */
export interface DriverPosition {
  role: ClusterRole;
  stream: string;
  /** this node's identity (undefined: a follower) */
  identity: Uint8Array | undefined;
  appliedSequence: number;
  synced: boolean;
  /** the open height the stream's newest end of minute shows (0: not read yet) */
  networkHeight: number;
}

/** The status of a node whose rules hold `hs` as the open height. */
export function federationStatus(
  driver: DriverPosition,
  machine: { readonly height: Readonly<HeightState>; readonly forked: boolean; readonly badSignatures: number },
): FederationStatus {
  const hs = machine.height;
  return {
    role: driver.role,
    stream: driver.stream,
    identity: driver.identity === undefined ? "" : toHex(driver.identity),
    appliedSequence: driver.appliedSequence,
    synced: driver.synced,
    forked: machine.forked,
    height: hs.height,
    networkHeight: driver.networkHeight,
    federated: hs.authorities.federated.map((a) => toHex(a.identity)),
    audit: hs.authorities.audit.map((a) => toHex(a.identity)),
    signatures: [...hs.sigs.keys()],
    badSignatureWrites: machine.badSignatures,
    faultVotes: Object.fromEntries([...hs.election.votes].map(([k, v]) => [k, [...v]])),
  };
}
