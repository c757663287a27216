/**
 * ledgerd-backup: hot copy of a node's data directory while it runs (docs/operations.md §3).
 * Usage: ledgerd-backup <data directory> <destination directory>
 */
import { backupDataDirectory } from "../../src/store/backup.js";
const USAGE = `usage: ledgerd-backup <data directory> <destination>
  <data directory>  the node's <homedir>/<network>/db, e.g. /var/lib/ledgerd/local/db
  <destination>     a new or empty directory; restore by putting it in place of the data directory
`;
const args = process.argv.slice(2);
if (args.length !== 2 || args.some((a) => a === "-h" || a === "--help")) {
    process.stderr.write(USAGE);
    process.exit(args.length === 1 && (args[0] === "-h" || args[0] === "--help") ? 0 : 2);
}
const [source, dest] = args;
try {
    const started = performance.now();
    const r = await backupDataDirectory(source, dest);
    process.stdout.write(`copied ${source} to ${dest}: saved height ${r.savedHeight}, ${r.journalRecords} journal records of the open ` +
        `block, ${((performance.now() - started) / 1000).toFixed(1)} s${r.attempts > 1 ? `, ${r.attempts} attempts` : ""}\n`);
}
catch (e) {
    process.stderr.write(`ledgerd-backup: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
}
//# sourceMappingURL=cli.js.map