/**
 * The bootstrap servers' public keys of the networks whose genesis this project knows: the trust root of a
 * proof (proofRules.ts). A module of constants alone, so that the control panel's in-browser verifier loads
 * it without genesis.ts's block builders (genesis.ts re-exports them).
 */
import { NETWORK_IDS } from "./network.js";

/** Public key of LOCAL_BOOTSTRAP_SEED_HEX (factomd util/config.go LocalServerPublicKey), hex. */
export const LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX: string =
  "cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a";
/** MAIN bootstrap public key (state/state.go GetNetworkBootStrapKey): signed the mainnet genesis directory block, hex. */
export const MAIN_BOOTSTRAP_PUBLIC_KEY_HEX: string = "0426a802617848d4d16d87830fc521f4d136bb2d0c352850919c2679f189613a";

/** Bootstrap keys a verifier knows by network ID: a proof of these networks must name exactly this key. */
export const KNOWN_BOOTSTRAP_KEYS: ReadonlyMap<number, string> = new Map([
  [NETWORK_IDS.LOCAL, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX],
  [NETWORK_IDS.MAIN, MAIN_BOOTSTRAP_PUBLIC_KEY_HEX],
]);
