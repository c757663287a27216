/**
 * A CUSTOM network's own configuration for tests: a bootstrap identity, a signing key and a genesis address,
 * all derived from a label (deterministic, never LOCAL's), as the [App] lines a CUSTOM node needs
 * (src/config/customNetwork.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { sha256 } from "../../src/protocol/hash.js";
const bytesOf = (label, what) => sha256(new TextEncoder().encode(`${label} ${what}`));
/** The configuration of a CUSTOM network named by `label`, paying `genesisUnits` to one address. */
export function customNetworkFixture(label, genesisUnits = 5000) {
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
export function writeCustomConfig(dir, label, fixture = customNetworkFixture(label)) {
    const path = join(dir, `${label}.conf`);
    writeFileSync(path, ["[App]", "ListenHost = 127.0.0.1", ...fixture.appLines, ""].join("\n"));
    return path;
}
//# sourceMappingURL=customNetwork.js.map