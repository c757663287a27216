/**
 * Hot backup of a data directory while its node runs (docs/operations.md §3). The directory holds two
 * LMDB environments — the main one and the journal's (journal.ts) — and LMDB can copy each from a read
 * snapshot, but not both in one snapshot. They fit together when the journal copy holds no record beyond
 * the open height of the main copy (saved height + 1): then the restored node finds every block of the
 * main copy and, for the open block, every message acknowledged before the journal copy began. So the main
 * environment is copied first, the journal second, and both again if a block closed in between.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { JOURNAL_DB, JOURNAL_DIR } from "./journal.js";
import { DB_NAMES, META_KEYS, parseJournalKey } from "./keys.js";
/** Copies tried before giving up (each pair is usually far shorter than a block). */
const DEFAULT_ATTEMPTS = 5;
function openReadOnly(path) {
    return open({
        path,
        readOnly: true,
        maxDbs: 20,
        keyEncoding: "binary",
        encoding: "binary",
    });
}
/**
 * Copy the data directory `source` (`<homedir>/<network>/db`) into `dest`, which must be missing or empty.
 * Throws when `source` is not a data directory, or when blocks kept closing during every attempt.
 */
export async function backupDataDirectory(source, dest, options = {}) {
    if (!existsSync(join(source, "data.mdb")))
        throw new Error(`${source} holds no ledger database (no data.mdb)`);
    if (existsSync(dest) && readdirSync(dest).length > 0)
        throw new Error(`${dest} is not empty`);
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 1; attempt <= attempts; attempt++) {
        rmSync(dest, { recursive: true, force: true });
        mkdirSync(join(dest, JOURNAL_DIR), { recursive: true });
        await copyEnvironment(source, dest);
        const savedHeight = readSavedHeight(dest);
        if (existsSync(join(source, JOURNAL_DIR, "data.mdb")))
            await copyEnvironment(join(source, JOURNAL_DIR), join(dest, JOURNAL_DIR));
        const heights = journalHeights(join(dest, JOURNAL_DIR));
        if (heights.every((h) => h <= savedHeight + 1))
            return { savedHeight, journalRecords: heights.filter((h) => h === savedHeight + 1).length, attempts: attempt };
    }
    rmSync(dest, { recursive: true, force: true });
    throw new Error(`blocks closed during each of ${attempts} copies; try again, or stop the node and copy it cold`);
}
async function copyEnvironment(from, to) {
    const env = openReadOnly(from);
    try {
        await env.backup(to, false);
    }
    finally {
        await env.close();
    }
}
function readSavedHeight(dataDir) {
    const env = openReadOnly(dataDir);
    try {
        const v = env
            .openDB(DB_NAMES.meta, { keyEncoding: "binary", encoding: "binary" })
            .getBinary(Buffer.from(META_KEYS.savedHeight, "ascii"));
        if (v?.length !== 4)
            throw new Error(`${dataDir}: the copy has no saved height`);
        return v.readUInt32BE(0);
    }
    finally {
        void env.close();
    }
}
/** Height of every record of the journal copy (empty when it has none). */
function journalHeights(journalDir) {
    if (!existsSync(join(journalDir, "data.mdb")))
        return [];
    const env = openReadOnly(journalDir);
    try {
        const db = env.openDB(JOURNAL_DB, { keyEncoding: "binary", encoding: "binary" });
        return [...db.getKeys()].map((k) => parseJournalKey(k).height);
    }
    finally {
        void env.close();
    }
}
//# sourceMappingURL=backup.js.map