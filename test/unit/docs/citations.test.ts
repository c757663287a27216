/**
 * Every section a code comment cites must exist in the repository (ARCHITECTURE.md, docs/reference/README.md):
 * `DESIGN §2`, `spec §4.1.4`, `wire-format §5.2–5.3`, `STYLE §§1 and 9`, `docs/ledger.md §5` … are looked up
 * as headings (or, for STYLE, numbered rules) of the in-repo document they name. A citation of a document
 * outside the repository (the project brief's shared folder beside the checkout) fails too.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..", "..", "..");
const REFERENCE = join(ROOT, "docs", "reference");

/** Citation prefix as written in comments → the in-repo file it names. */
const DOCUMENTS: Record<string, string> = {
  DESIGN: join(REFERENCE, "DESIGN.md"),
  "DESIGN.md": join(REFERENCE, "DESIGN.md"),
  STYLE: join(REFERENCE, "STYLE.md"),
  "STYLE.md": join(REFERENCE, "STYLE.md"),
  FEDERATION: join(REFERENCE, "FEDERATION.md"),
  "FEDERATION.md": join(REFERENCE, "FEDERATION.md"),
  spec: join(REFERENCE, "node-api.md"),
  Spec: join(REFERENCE, "node-api.md"),
  "spec/node-api.md": join(REFERENCE, "node-api.md"),
  "wire-format": join(REFERENCE, "wire-format.md"),
  "wire-format.md": join(REFERENCE, "wire-format.md"),
  "reference/wire-format.md": join(REFERENCE, "wire-format.md"),
  "api-behavior": join(REFERENCE, "api-behavior.md"),
  "api-behavior.md": join(REFERENCE, "api-behavior.md"),
  "reference/api-behavior.md": join(REFERENCE, "api-behavior.md"),
  "api-cases": join(REFERENCE, "api-cases.md"),
};

/** A cited document, then its section list: `§4.1 and §4.2`, `§§1 and 9`, `§5.2–5.3`, `§2, §4`. */
const CITATION = /([A-Za-z][\w./-]*) (§§?\d+(?:\.\d+)*(?:(?:–|-|, | and | or |, §| and §| or §|–§)\d+(?:\.\d+)*)*)/g;
const SECTION = /\d+(?:\.\d+)*/g;
/** A path into the project brief beside the checkout, which a clone does not have. */
const OUTSIDE = new RegExp(["\\.\\.", "shared", ""].join("/"));

/** Section numbers of a markdown document: numbered headings, and numbered bold rules (STYLE.md). */
function sectionsOf(file: string): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const heading = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (heading) out.add(heading[1]!);
    const rule = /^(\d+)\.\s+\*\*/.exec(line);
    if (rule) out.add(rule[1]!);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules" || name === "fixtures" || name === "results") continue;
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Every citation of a known document in `text`: [document prefix, section, line number]. */
export function citations(text: string): { doc: string; section: string; line: number }[] {
  const found: { doc: string; section: string; line: number }[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    for (const m of line.matchAll(CITATION)) {
      const doc = m[1]!.replace(/^(\.\.\/)+/, "").replace(/^docs\/reference\//, "");
      const known = DOCUMENTS[doc] !== undefined || /^docs\/[\w-]+\.md$/.test(doc);
      if (!known) continue;
      for (const s of m[2]!.matchAll(SECTION)) found.push({ doc, section: s[0], line: i + 1 });
    }
  });
  return found;
}

/** Headings of a markdown document, as written after the hashes. */
function headingsOf(file: string): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const h = /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (h) out.add(h[1]!);
  }
  return out;
}

/**
 * Named-heading citations of the performance documents: `docs/performance.md §Reads`,
 * `docs/performance.md §"Block close"` (a line break may fall between the file and the §), and the same of
 * docs/history/performance-history.md, whose headings are dated and never change.
 */
const NAMED =
  /(docs\/performance\.md|docs\/history\/performance-history\.md)\s*(?:\*\s*)?((?:§(?:"[^"]+"|[A-Z][\w-]*)(?:,\s*)?)+)/g;
const NAMED_PART = /§(?:"([^"]+)"|([A-Z][\w-]*))/g;

export function namedCitations(text: string): { doc: string; heading: string }[] {
  const found: { doc: string; heading: string }[] = [];
  for (const m of text.matchAll(NAMED))
    for (const p of m[2]!.matchAll(NAMED_PART)) found.push({ doc: m[1]!, heading: p[1] ?? p[2]! });
  return found;
}

describe("section citations in code comments", () => {
  const files = ["src", "tools", "test", "bench"].flatMap((d) => sourceFiles(join(ROOT, d)));
  const sectionCache = new Map<string, Set<string>>();

  test("the pattern finds the citation forms in use", () => {
    const got = citations(
      "x (spec §4.1 and §4.2) y DESIGN §2, STYLE §§1 and 9, wire-format §5.2–5.3 rule 5, docs/ledger.md §5",
    ).map((c) => `${c.doc} ${c.section}`);
    assert.deepEqual(got, [
      "spec 4.1",
      "spec 4.2",
      "DESIGN 2",
      "STYLE 1",
      "STYLE 9",
      "wire-format 5.2",
      "wire-format 5.3",
      "docs/ledger.md 5",
    ]);
  });

  test("a missing section is reported (the check can fail)", () => {
    const design = sectionsOf(DOCUMENTS.DESIGN!);
    assert.ok(design.has("2") && design.has("7"));
    assert.ok(!design.has("99"));
  });

  test("every cited section exists in the repository", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      if (OUTSIDE.test(text))
        missing.push(`${relative(ROOT, file)}: cites the brief's shared folder, which a clone lacks`);
      for (const c of citations(text)) {
        const path = DOCUMENTS[c.doc] ?? join(ROOT, c.doc);
        let sections = sectionCache.get(path);
        if (sections === undefined) {
          sections = existsSync(path) ? sectionsOf(path) : new Set<string>();
          sectionCache.set(path, sections);
        }
        checked++;
        if (!sections.has(c.section))
          missing.push(
            `${relative(ROOT, file)}:${c.line}: ${c.doc} §${c.section} is not a section of ${relative(ROOT, path)}`,
          );
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(checked > 150, `only ${checked} citations found: the pattern no longer matches the comments`);
  });
  test("the named-heading pattern finds both forms, across a comment's line break", () => {
    const got = namedCitations(
      'a (docs/performance.md §Reads) b docs/performance.md\n * §"Block close" c docs/history/performance-history.md §"X y"',
    );
    assert.deepEqual(got, [
      { doc: "docs/performance.md", heading: "Reads" },
      { doc: "docs/performance.md", heading: "Block close" },
      { doc: "docs/history/performance-history.md", heading: "X y" },
    ]);
  });

  test("every cited heading of docs/performance.md and its history exists, and none is cited by a dated name", () => {
    const headings = new Map<string, Set<string>>();
    const missing: string[] = [];
    let checked = 0;
    // this file's own examples are not citations
    const cited = [...files, join(ROOT, "bench", "README.md")].filter((f) => !f.endsWith("citations.test.ts"));
    for (const file of cited) {
      const text = readFileSync(file, "utf8");
      for (const c of namedCitations(text)) {
        let known = headings.get(c.doc);
        if (known === undefined) {
          known = headingsOf(join(ROOT, c.doc));
          headings.set(c.doc, known);
        }
        checked++;
        if (!known.has(c.heading)) missing.push(`${relative(ROOT, file)}: ${c.doc} §"${c.heading}" is not a heading`);
      }
      // the current figures are cited by a stable heading: "docs/performance.md, change 14" names a dated step
      if (/docs\/performance\.md,\s/.test(text))
        missing.push(`${relative(ROOT, file)}: cites docs/performance.md without a § heading`);
    }
    assert.deepEqual(missing, []);
    assert.ok(checked >= 25, `only ${checked} named citations found: the pattern no longer matches the comments`);
  });
});
