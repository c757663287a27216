/**
 * The node's anchoring part, built from `[Anchor]`: the anchor index every node keeps (what the anchor
 * chain says, for receipts) and, on the node elected by configuration (RpcUrl set), the service that makes
 * anchors. Key files are read here once; their content never reaches a log line or an error message.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeAddress } from "../protocol/address.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import { AnchorError } from "./errors.js";
import { accountFromKeyText, EthereumAnchorer } from "./ethereum.js";
import { AnchorIndex } from "./index.js";
import { PendingAnchorFile } from "./pendingAnchor.js";
import { REFERENCE_ETHEREUM_RECORD_KEY_HEX, recordPublicKey } from "./record.js";
import { AnchorService } from "./service.js";
/**
 * ms between the service's rounds. Each round in flight is two RPC calls (receipt, block number): one a
 * second is far below public endpoints' free limits and keeps the anchor's delay to about its confirmations.
 */
export const ANCHOR_POLL_MS = 1000;
/** The pending-anchor file inside the network's data directory (dataDir is `<home>/<network>/db`). */
export const PENDING_ANCHOR_FILE = join("..", "anchor", "pending.json");
function readKeyFile(file, what) {
    try {
        return readFileSync(file, "utf8");
    }
    catch (e) {
        throw new AnchorError({
            code: "BAD_KEY",
            file,
            reason: `cannot read the ${what}: ${e.code ?? "error"}`,
        });
    }
}
/** The EC key file's seed: an Es… private address, or 64 hex characters. */
function ecSeedFromText(text, file) {
    const t = text.trim();
    try {
        if (/^Es/.test(t))
            return decodeAddress(t, "Es", "entry credit key").key;
        return fromHex(t.replace(/^0x/i, ""), "entry credit key", 32);
    }
    catch {
        throw new AnchorError({
            code: "BAD_KEY",
            file,
            reason: "expected an Es… entry credit private key (or 64 hex characters)",
        });
    }
}
/** Build the anchoring part; throws AnchorError on an unreadable or malformed key file. */
export function openAnchoring(config, deps) {
    let ecSeed;
    let account;
    if (config.rpcUrl !== "") {
        account = accountFromKeyText(readKeyFile(config.keyFile, "Ethereum key file"), config.keyFile);
        ecSeed = ecSeedFromText(readKeyFile(config.ecKeyFile, "entry credit key file"), config.ecKeyFile);
    }
    // The anchoring node always reads its own records (it learns its progress from them); the list adds others.
    const keys = [
        ...(config.recordPublicKeys.length > 0
            ? config.recordPublicKeys.map((k) => fromHex(k, "EthereumAnchorRecordPublicKeys", 32))
            : [fromHex(REFERENCE_ETHEREUM_RECORD_KEY_HEX, "REFERENCE_ETHEREUM_RECORD_KEY_HEX", 32)]),
        ...(ecSeed === undefined ? [] : [recordPublicKey(ecSeed)]),
    ];
    const index = new AnchorIndex({ publicKeys: keys }, { ledger: deps.ledger, log: deps.log });
    let service;
    if (account !== undefined && ecSeed !== undefined) {
        const ethereum = new EthereumAnchorer({ rpcUrl: config.rpcUrl, chainId: config.chainId }, account);
        service = new AnchorService({
            intervalBlocks: config.intervalBlocks,
            maxWindow: config.maxWindow,
            confirmations: config.confirmations,
            limits: { gasLimit: config.gasLimit, maxFeePerGasWei: BigInt(config.maxFeeGwei) * 1000000000n },
            to: config.to,
            pollMs: ANCHOR_POLL_MS,
        }, {
            ledger: deps.ledger,
            index,
            ethereum,
            pending: new PendingAnchorFile(join(deps.dataDir, PENDING_ANCHOR_FILE)),
            ecSeed,
            log: deps.log,
            now: deps.now,
        });
        deps.log.info("anchoring into an Ethereum-compatible chain", {
            chainId: config.chainId,
            account: ethereum.address(),
            recordPublicKey: toHex(recordPublicKey(ecSeed)),
            interval: config.intervalBlocks,
            confirmations: config.confirmations,
        });
    }
    return {
        index,
        ...(service === undefined ? {} : { service }),
        stats: () => ({ anchor_records: index.count(), ...(service?.stats() ?? {}) }),
        stop: async () => {
            await service?.stop();
        },
    };
}
//# sourceMappingURL=anchoring.js.map