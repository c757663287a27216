/**
 * The `ledgerd` entry point: parse the command line (config/), start the node (node.ts), print one line,
 * and shut down cleanly on SIGINT/SIGTERM. Exit codes: 0 after a clean stop, 1 when the node cannot start
 * (e.g. the data directory belongs to another network), 2 for a bad command line or configuration file.
 */
import { ConfigError, loadConfig, parseFlags, usage } from "./config/index.js";
import { startNode } from "./node.js";
import { StoreError } from "./store/errors.js";
import { NODE_VERSION } from "./version.js";
/** Exit code for a bad command line or configuration (as Go's flag package). */
const EXIT_USAGE = 2;
/** Exit code for a node that could not start. */
const EXIT_START_FAILED = 1;
async function main(argv) {
    let config;
    try {
        const flags = parseFlags(argv);
        if (flags.help === true) {
            process.stdout.write(usage());
            return 0;
        }
        if (flags.version === true) {
            process.stdout.write(`ledgerd ${NODE_VERSION}\n`);
            return 0;
        }
        config = loadConfig(argv);
    }
    catch (e) {
        if (e instanceof ConfigError) {
            process.stderr.write(`ledgerd: ${e.message}\n`);
            return EXIT_USAGE;
        }
        throw e;
    }
    // Signal handlers go in before anything starts, so a signal during start-up (or right after the
    // start-up line) is a clean stop, never the default "die at once".
    let node;
    let signalled = false;
    let finish = () => { };
    const finished = new Promise((resolve) => {
        finish = resolve;
    });
    const stop = (running) => {
        running.stop().then(() => finish(0), (e) => {
            process.stderr.write(`ledgerd: shutdown failed: ${e instanceof Error ? e.message : String(e)}\n`);
            finish(EXIT_START_FAILED);
        });
    };
    const onSignal = (signal) => {
        if (signalled) {
            process.stderr.write(`ledgerd: ${signal} again, exiting without a clean stop\n`);
            process.exit(130);
        }
        signalled = true;
        node?.log.info("shutting down", { signal });
        if (node !== undefined)
            stop(node);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    try {
        node = await startNode(config, { argv });
    }
    catch (e) {
        const reason = e instanceof StoreError || e instanceof Error ? e.message : String(e);
        process.stderr.write(`ledgerd: cannot start: ${reason}\n`);
        return EXIT_START_FAILED;
    }
    const h = node.ledger.heights();
    process.stdout.write(`ledgerd ${NODE_VERSION}: network ${config.network}, height ${h.directoryBlockHeight}, port ${node.port}, data ${node.dataDir}\n`);
    if (signalled)
        stop(node); // a signal arrived while starting
    return finished;
}
main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
    process.stderr.write(`ledgerd: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(EXIT_START_FAILED);
});
//# sourceMappingURL=cli.js.map