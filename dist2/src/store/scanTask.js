/**
 * Child-process task of `LedgerStore.open({ verify: true })`: open the environment read-only and walk
 * every database once (all branch and leaf pages). Damaged B-tree pages make LMDB crash the process
 * (SIGSEGV, SIGBUS, or an assertion's SIGABRT); run here, that crash is a child's exit status the node can
 * report as CORRUPT instead of dying itself. Usage: node scanTask.js <directory>. Exit 0 = readable.
 */
import { open } from "lmdb";
const dir = process.argv[2];
if (dir === undefined) {
    process.stderr.write("usage: scanTask.js <directory>\n");
    process.exit(2);
}
try {
    const env = open({
        path: dir,
        noSubdir: false,
        readOnly: true,
        maxDbs: 64,
        keyEncoding: "binary",
        encoding: "binary",
    });
    let keys = 0;
    const names = [];
    for (const key of env.getKeys()) {
        keys++;
        names.push(Buffer.from(key).toString("latin1").replace(/\0$/, ""));
    }
    for (const name of names) {
        const db = env.openDB(name, { keyEncoding: "binary", encoding: "binary" });
        for (const _ of db.getKeys())
            keys++;
    }
    await env.close();
    process.stdout.write(`${keys}\n`);
}
catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
}
//# sourceMappingURL=scanTask.js.map