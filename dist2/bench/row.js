/** A row with no figures: the benchmark could not run (e.g. a function not implemented yet). */
export function skippedRow(id, section, name, reason) {
    return { id, section, name, opsPerSec: 0, meanUs: 0, p99Us: 0, samples: 0, note: `skipped: ${reason}` };
}
/** 3 significant digits below 1000, whole numbers with separators above (e.g. 0.745, 65.5, 15,312). */
function fmt(value) {
    if (value === 0)
        return "–";
    if (value >= 1000)
        return Math.round(value).toLocaleString("en-US");
    return value.toPrecision(3);
}
/** Spread of the rounds around the reported (median) one: (max − min) / median, e.g. "±4%". */
function spread(r) {
    const rounds = r.roundOpsPerSec;
    if (rounds === undefined || rounds.length < 2 || r.opsPerSec === 0)
        return "";
    return `±${Math.round(((Math.max(...rounds) - Math.min(...rounds)) / r.opsPerSec) * 50)}%`;
}
/** The table printed by `make bench`: one line per row, grouped by section in the order given. */
export function formatTable(rows) {
    const header = ["section", "name", "ops/s", "mean µs", "p99 µs", "samples", "spread", "items/s"];
    const lines = rows.map((r) => [
        r.section,
        r.name + (r.note?.startsWith("skipped") ? ` (${r.note})` : ""),
        fmt(r.opsPerSec),
        fmt(r.meanUs),
        fmt(r.p99Us),
        r.samples === 0 ? "–" : String(r.samples),
        spread(r),
        r.itemsPerSec === undefined ? "" : `${fmt(r.itemsPerSec)} ${r.itemUnit ?? ""}/s`,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const numeric = new Set([2, 3, 4, 5, 6, 7]);
    const render = (cells) => cells
        .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join("  ")
        .trimEnd();
    return [render(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(render)].join("\n");
}
//# sourceMappingURL=row.js.map