/**
 * Structured logging: one JSON object per line, `{"time": ISO-8601, "level", "msg", "fields"?}`, to stderr
 * (threshold `consoleLevel`) and optionally to a file (threshold `level`). Levels change at run time
 * (`reload-configuration`) with setLevel. No module-level state: each logger owns its sinks.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
const RANK = { debug: 0, info: 1, warning: 2, error: 3, none: 4 };
/** Field names whose values are secrets: written as "<redacted>" (passwords, private keys, auth headers). */
const SECRET_KEY = /pass(word)?$|privkey|private_?key|secret|authorization/i;
function enabled(entry, threshold) {
    return threshold !== "none" && RANK[entry] >= RANK[threshold];
}
/** JSON.stringify replacer: bigint → decimal string, bytes → hex, Error → {name, message, stack}, secrets redacted. */
function replacer(key, value) {
    if (key !== "" && SECRET_KEY.test(key) && typeof value === "string" && value !== "")
        return "<redacted>";
    if (typeof value === "bigint")
        return value.toString();
    if (value instanceof Uint8Array)
        return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
    if (value instanceof Error)
        return { name: value.name, message: value.message, stack: value.stack };
    return value;
}
function format(level, msg, fields, now) {
    const entry = { time: now.toISOString(), level, msg };
    if (fields !== undefined && Object.keys(fields).length > 0)
        entry.fields = fields;
    try {
        return JSON.stringify(entry, replacer) + "\n";
    }
    catch (err) {
        // A circular structure in fields must not lose the entry.
        return (JSON.stringify({ time: entry.time, level, msg, fields: `<unserialisable: ${err.message}>` }) + "\n");
    }
}
/** Creates a logger; the file (if any) is opened now so that a bad path fails at start, not at the first error. */
export function createLogger(options, dependencies = { stderr: process.stderr }) {
    let level = options.level;
    let consoleLevel = options.consoleLevel;
    let fd;
    let droppedLines = 0;
    if (options.file !== undefined && options.file !== "") {
        mkdirSync(dirname(options.file), { recursive: true });
        fd = openSync(options.file, "a", 0o600);
    }
    const write = (entry, msg, fields) => {
        const toConsole = enabled(entry, consoleLevel);
        const toFile = fd !== undefined && enabled(entry, level);
        if (!toConsole && !toFile)
            return;
        const line = format(entry, msg, fields, new Date());
        if (toConsole)
            dependencies.stderr.write(line);
        if (toFile) {
            // Logging never fails the caller: a full disk (ENOSPC/EIO) must not turn a clean "storage full" answer
            // into an internal error. The lost line is counted and reported once the file accepts writes again.
            try {
                if (droppedLines > 0) {
                    writeSync(fd, format("warning", "log lines lost while the log file refused writes", { droppedLines }, new Date()));
                    droppedLines = 0;
                }
                writeSync(fd, line);
            }
            catch {
                droppedLines++;
            }
        }
    };
    return {
        debug: (msg, fields) => write("debug", msg, fields),
        info: (msg, fields) => write("info", msg, fields),
        warn: (msg, fields) => write("warning", msg, fields),
        error: (msg, fields) => write("error", msg, fields),
        setLevel(next, nextConsole) {
            level = next;
            if (nextConsole !== undefined)
                consoleLevel = nextConsole;
        },
        levels: () => ({ level, consoleLevel }),
        isEnabled: (entry) => enabled(entry, consoleLevel) || (fd !== undefined && enabled(entry, level)),
        close() {
            if (fd !== undefined)
                closeSync(fd);
            fd = undefined;
        },
    };
}
//# sourceMappingURL=logger.js.map