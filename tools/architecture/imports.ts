/**
 * The folder graph of src/, read from the imports (ARCHITECTURE.md §2). A node of the graph is a folder of
 * src/ (`rpc`, `cluster`, …) or a file at its root (`node`, `idleRelease`, …); an edge `a → b` says some file
 * of `a` imports some file of `b`. An edge is "type" when every import along it is type-only (`import type`,
 * or every name of the import marked `type`): it is erased from the JavaScript, so it orders the code but
 * loads nothing. Relative imports only: a package is not a node.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** One folder-to-folder edge and the imports that make it. */
export interface Edge {
  from: string;
  to: string;
  /** true when every import along the edge is type-only */
  typeOnly: boolean;
  /** `src/a/x.ts → src/b/y.ts`, sorted: what to read when the edge surprises */
  imports: string[];
}

/**
 * Edges left out of the drawn graph, with the reason (listed under the graph). The map test accepts them
 * in the code and refuses them in the graph.
 */
export const UNDRAWN: readonly { from: string; to: string; reason: string }[] = [
  {
    from: "*",
    to: "errors",
    reason: "every folder may import `src/errors.ts` (`NodeError`, the base of every typed error)",
  },
];

/**
 * `import … from "x"`, `export … from "x"`, `import "x"` (statements, possibly over several lines), and a
 * module loaded when needed, `import("x")` (a value edge: it loads the code, later; `typeof import("x")` in a
 * type is not one).
 */
const STATEMENT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|(?<!typeof\s+)\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The graph node a source path (relative to the repository root, `src/…`) belongs to. */
export function nodeOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 2) return parts[1]!.replace(/\.ts$/, "");
  return parts[1]!;
}

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sourceFiles(root, p));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** true when the import's clause names only types (`type X`, `{ type A, type B }`). */
function clauseIsTypeOnly(typeKeyword: boolean, clause: string): boolean {
  if (typeKeyword) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (braces === null) return false; // a default or namespace import, or `export *`
  const names = braces[1]!
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  return names.length > 0 && names.every((n) => n.startsWith("type "));
}

/** Every folder-to-folder edge of src/ under `root` (the repository), sorted. */
export function folderEdges(root: string): Edge[] {
  const edges = new Map<string, { from: string; to: string; value: boolean; imports: Set<string> }>();
  for (const file of sourceFiles(root, "src")) {
    const text = readFileSync(join(root, file), "utf8");
    for (const m of text.matchAll(STATEMENT)) {
      const spec = m[4] ?? m[5] ?? m[6]!;
      if (!spec.startsWith(".")) continue;
      const target = relative(root, join(root, dirname(file), spec)).replace(/\.js$/, ".ts");
      if (!target.startsWith("src/")) continue;
      const from = nodeOf(file);
      const to = nodeOf(target);
      if (from === to) continue;
      const typeOnly = m[4] !== undefined && clauseIsTypeOnly(m[2] !== undefined, m[3]!);
      const key = `${from} ${to}`;
      const edge = edges.get(key) ?? { from, to, value: false, imports: new Set<string>() };
      edge.value ||= !typeOnly;
      edge.imports.add(`${file} → ${target}`);
      edges.set(key, edge);
    }
  }
  return [...edges.values()]
    .map((e) => ({ from: e.from, to: e.to, typeOnly: !e.value, imports: [...e.imports].sort() }))
    .sort((a, b) => (a.from === b.from ? a.to.localeCompare(b.to) : a.from.localeCompare(b.from)));
}

/** Every node of the graph: each folder of src/ and each file at its root, sorted. */
export function allNodes(root: string): string[] {
  return readdirSync(join(root, "src"), { withFileTypes: true })
    .filter((e) => e.isDirectory() || (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")))
    .map((e) => nodeOf(`src/${e.name}`))
    .sort();
}

/** Whether an UNDRAWN entry covers the edge. */
export function undrawn(edge: { from: string; to: string }): boolean {
  return UNDRAWN.some((u) => (u.from === "*" || u.from === edge.from) && (u.to === "*" || u.to === edge.to));
}
