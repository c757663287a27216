/**
 * ledgerd-backup: hot copy of a node's data directory while it runs (docs/operations.md §3).
 * Usage: ledgerd-backup [--compact] <data directory> <destination directory>
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { backupDataDirectory } from "../../src/store/backup.js";

/**
 * The source's real path when `dest` is the source or lies inside it (links resolved, a destination that does
 * not exist yet judged by its nearest existing parent), else undefined (security review 3, L7).
 */
function insideOf(source: string, dest: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(source);
  } catch {
    return undefined; // a missing source is the copy's own error
  }
  let existing = resolve(dest);
  let rest = "";
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest =
      rest === ""
        ? existing.slice(dirname(existing).length + 1)
        : `${existing.slice(dirname(existing).length + 1)}/${rest}`;
    existing = dirname(existing);
  }
  const target = resolve(realpathSync(existing), rest);
  const r = relative(real, target);
  return r === "" || (!r.startsWith("..") && !r.startsWith("/")) ? real : undefined;
}

const USAGE = `usage: ledgerd-backup [--compact] <data directory> <destination>
  <data directory>  the node's <homedir>/<network>/db, e.g. /var/lib/ledgerd/local/db
  <destination>     a new or empty directory; restore by putting it in place of the data directory
  --compact         copy only the pages in use (LMDB's compacting copy): the copy is smaller than data.mdb
                    by its free pages, e.g. those a query index rebuilt in a new layout left behind
`;

const argv = process.argv.slice(2);
const compact = argv.includes("--compact");
const args = argv.filter((a) => a !== "--compact");
if (args.length !== 2 || args.some((a) => a === "-h" || a === "--help" || a.startsWith("-"))) {
  const help = args.length === 1 && (args[0] === "-h" || args[0] === "--help");
  const unknown = args.find((a) => a.startsWith("-") && a !== "-h" && a !== "--help");
  if (unknown !== undefined) process.stderr.write(`ledgerd-backup: unknown option ${unknown}\n`);
  process.stderr.write(USAGE);
  process.exit(help ? 0 : 2);
}
const [source, dest] = args as [string, string];
const inside = insideOf(source, dest);
if (inside !== undefined) {
  process.stderr.write(
    `ledgerd-backup: the destination ${dest} is inside the data directory ${inside}: a copy there would be copied ` +
      "into itself by the next backup and lost with the directory; give a directory outside it\n",
  );
  process.exit(1);
}
try {
  const started = performance.now();
  const r = await backupDataDirectory(source, dest, { compact });
  process.stdout.write(
    `copied ${source} to ${dest}: saved height ${r.savedHeight}, ${r.journalRecords} journal records of the open ` +
      `block, ${compact ? "compacted, " : ""}${((performance.now() - started) / 1000).toFixed(1)} s${r.attempts > 1 ? `, ${r.attempts} attempts` : ""}\n`,
  );
} catch (e) {
  process.stderr.write(`ledgerd-backup: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
