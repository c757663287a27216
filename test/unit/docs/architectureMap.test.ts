/**
 * ARCHITECTURE.md §2's graph is the code's: the edges between the folders of src/ (tools/architecture/
 * imports.ts, from the imports) are exactly the arrows of the generated block, each with its kind (code or
 * types only); the table of known couplings names only edges the code has; and every folder of src/ has its
 * import ban in biome.json, so a new edge fails the lint before it reaches the map.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { BEGIN, END, mermaid } from "../../../tools/architecture/graph.js";
import { allNodes, folderEdges, UNDRAWN, undrawn } from "../../../tools/architecture/imports.js";

const ROOT = join(import.meta.dirname, "..", "..", "..", "..");
const MAP = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
const ARROW = /^\s*(\w+) (-->|-\.->) (\w+)$/;

/** The arrows of ARCHITECTURE.md's generated block, as `a --> b` / `a -.-> b`. */
function mapArrows(): string[] {
  const start = MAP.indexOf(BEGIN);
  const end = MAP.indexOf(END);
  assert.ok(start >= 0 && end > start, "ARCHITECTURE.md has lost its graph markers");
  return MAP.slice(start, end)
    .split("\n")
    .map((l) => ARROW.exec(l))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} ${m[2]} ${m[3]}`);
}

function codeArrows(): string[] {
  return folderEdges(ROOT)
    .filter((e) => !undrawn(e))
    .map((e) => `${e.from} ${e.typeOnly ? "-.->" : "-->"} ${e.to}`);
}

describe("ARCHITECTURE.md's dependency graph", () => {
  test("has every edge of the code, and no edge the code lacks", () => {
    const map = new Set(mapArrows());
    const code = new Set(codeArrows());
    const missing = [...code].filter((a) => !map.has(a));
    const extra = [...map].filter((a) => !code.has(a));
    assert.deepEqual(
      { "in the code, not in the map": missing, "in the map, not in the code": extra },
      { "in the code, not in the map": [], "in the map, not in the code": [] },
      "regenerate it: node dist/tools/architecture/graph.js --write (and see --edges for the imports behind an arrow)",
    );
  });

  test("is the generator's block, byte for byte, every node of src/ included", () => {
    const block = mermaid(folderEdges(ROOT), allNodes(ROOT));
    assert.ok(MAP.includes(`${BEGIN}\n${block}\n${END}`), "run node dist/tools/architecture/graph.js --write");
    for (const n of allNodes(ROOT).filter((x) => x !== "errors"))
      assert.match(block, new RegExp(`^ {2}(\\w+ -\\.?-> )?${n}\\b`, "m"), `${n} is not in the graph`);
  });

  test("each undrawn edge has a reason, and the code has it", () => {
    const edges = folderEdges(ROOT);
    for (const u of UNDRAWN) {
      assert.ok(u.reason.length > 20, `${u.from} → ${u.to}: no reason`);
      assert.ok(
        edges.some((e) => undrawn(e)),
        `${u.from} → ${u.to} is listed as undrawn but no import makes it`,
      );
    }
  });

  test("every known coupling listed is an edge of the code", () => {
    const section = MAP.slice(
      MAP.indexOf("**Known couplings.**"),
      MAP.indexOf("`make lint`", MAP.indexOf("**Known couplings.**")),
    );
    const rows = section.split("\n").filter((l) => l.startsWith("| `"));
    assert.ok(rows.length >= 5, "the table of known couplings is gone");
    const code = new Set(codeArrows());
    for (const row of rows) {
      const arrows = [...row.split("|")[1]!.matchAll(/`(\w+ -\.?-> \w+)`/g)].map((m) => m[1]!);
      assert.ok(arrows.length > 0, `no edge in ${row}`);
      for (const a of arrows) assert.ok(code.has(a), `known coupling ${a} is not in the code any more: drop its row`);
    }
  });
});

describe("biome.json's import bans", () => {
  interface Override {
    includes: string[];
    linter?: { rules?: { style?: { noRestrictedImports?: { options?: { patterns?: { group: string[] }[] } } } } };
  }
  const overrides = (JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")) as { overrides: Override[] }).overrides;

  test("every folder of src/ has a noRestrictedImports ban that names the folders it does not import", () => {
    const edges = folderEdges(ROOT);
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    assert.ok(folders.length >= 13, `only ${folders.length} folders in src/`);
    for (const folder of folders) {
      const ban = overrides.find((o) => o.includes.includes(`src/${folder}/**`));
      const patterns = ban?.linter?.rules?.style?.noRestrictedImports?.options?.patterns ?? [];
      assert.ok(patterns.length > 0, `src/${folder}/ has no import ban in biome.json`);
      const group = patterns.flatMap((p) => p.group);
      // a folder it imports today must not be banned (the lint would fail), one it does not must be
      const imported = new Set(edges.filter((e) => e.from === folder).map((e) => e.to));
      for (const other of allNodes(ROOT).filter((n) => n !== folder && n !== "errors")) {
        const named = group.some((g) => g === `**/${other}/**` || g === `**/${other}.js`);
        const everything =
          group.includes("../**") &&
          !group.some((g) => g.startsWith(`!../${other}/`) || g.startsWith(`!../${other}.js`));
        if (imported.has(other)) assert.ok(!named, `src/${folder}/ imports ${other} but biome.json bans it`);
        else assert.ok(named || everything, `src/${folder}/ does not import ${other}, but biome.json does not ban it`);
      }
    }
  });
});
