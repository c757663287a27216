/**
 * A CUSTOM network's own configuration for tests: a bootstrap identity, a signing key and a genesis address,
 * all derived from a label (deterministic, never LOCAL's), as the [App] lines a CUSTOM node needs
 * (src/config/customNetwork.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { type KeyPair, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { sha256 } from "../../src/protocol/hash.js";

export interface CustomNetworkFixture {
  /** [App] lines: CustomBootstrapIdentity, LocalServerPrivKey, CustomBootstrapKey, CustomGenesisAllocation */
  appLines: string[];
  identityHex: string;
  seedHex: string;
  publicKeyHex: string;
  /** the address the genesis pays, with its private key */
  genesisKey: KeyPair;
  /** what the genesis pays it, whole units */
  genesisUnits: number;
}

const bytesOf = (label: string, what: string): Uint8Array => sha256(new TextEncoder().encode(`${label} ${what}`));

/** The configuration of a CUSTOM network named by `label`, paying `genesisUnits` to one address. */
export function customNetworkFixture(label: string, genesisUnits = 5000): CustomNetworkFixture {
  const identityHex = toHex(bytesOf(label, "identity"));
  const seed = bytesOf(label, "bootstrap key");
  const seedHex = toHex(seed);
  const publicKeyHex = toHex(publicKeyFromSeed(seed));
  const genesisKey = keyPairFromSeed("FA", bytesOf(label, "genesis address"));
  return {
    appLines: [
      `CustomBootstrapIdentity = ${identityHex}`,
      `LocalServerPrivKey = ${seedHex}`,
      `CustomBootstrapKey = ${publicKeyHex}`,
      `CustomGenesisAllocation = ${genesisKey.publicAddress}:${genesisUnits}`,
    ],
    identityHex,
    seedHex,
    publicKeyHex,
    genesisKey,
    genesisUnits,
  };
}

/** Write `<dir>/<label>.conf` holding the [App] lines of `fixture` (and loopback listening); returns its path. */
export function writeCustomConfig(dir: string, label: string, fixture = customNetworkFixture(label)): string {
  const path = join(dir, `${label}.conf`);
  writeFileSync(path, ["[App]", "ListenHost = 127.0.0.1", ...fixture.appLines, ""].join("\n"));
  return path;
}
