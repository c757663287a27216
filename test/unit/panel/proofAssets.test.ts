// The in-browser proof verifier's files (src/panel/proofAssets.ts): what the panel serves is exactly the compiled
// import closure of protocol/proofRules.js, that closure is free of Node built-ins but for hash.js (whose URL
// serves the panel's @noble module), and bytes.ts's plain-JS path — the one a browser takes — answers what
// Buffer's does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PROOF_PROTOCOL_MODULES, proofAssets } from "../../../src/panel/proofAssets.js";
import * as nodeBytes from "../../../src/protocol/bytes.js";

/** The checkout, from dist/test/unit/panel at run time. */
const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const DIST_SRC = join(PROJECT_ROOT, "dist", "src");

/** Relative imports of compiled modules from `entry`, walked; bare specifiers by module. */
function closure(entry: string): { files: string[]; bare: Map<string, string[]> } {
  const files: string[] = [];
  const bare = new Map<string, string[]>();
  const walk = (file: string): void => {
    if (files.includes(file)) return;
    files.push(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|^import\s+"([^"]+)"|import\("([^"]+)"\)/gms,
    )) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (spec.startsWith(".")) walk(join(dirname(file), spec));
      else bare.set(relative(DIST_SRC, file), [...(bare.get(relative(DIST_SRC, file)) ?? []), spec]);
    }
  };
  walk(entry);
  return { files: files.map((f) => relative(DIST_SRC, f)).sort(), bare };
}

describe("the proof verifier's browser files", () => {
  it("are the compiled import closure of protocol/proofRules.js, hash.js excepted", () => {
    const { files, bare } = closure(join(DIST_SRC, "protocol", "proofRules.js"));
    const served = [...PROOF_PROTOCOL_MODULES.map((m) => `protocol/${m}.js`), "errors.js", "protocol/hash.js"].sort();
    assert.deepEqual(files, served);
    // only hash.js reaches a Node built-in, and the panel serves its browser module under that URL instead
    assert.deepEqual([...bare], [["protocol/hash.js", ["node:crypto", "node:crypto"]]]);
    const assets = proofAssets(DIST_SRC, PROJECT_ROOT);
    assert.equal(assets["/assets/protocol/hash.js"]?.[0], join(DIST_SRC, "panel", "web", "protocolHash.js"));
    for (const f of files.filter((x) => x !== "protocol/hash.js"))
      assert.equal(assets[`/assets/${f}`]?.[0], join(DIST_SRC, f), f);
    // and nothing more than those, the hash module and @noble/ed25519's one file
    assert.equal(Object.keys(assets).length, files.length + 1);
    for (const [url, [, type]] of Object.entries(assets)) assert.equal(type, "text/javascript; charset=utf-8", url);
  });

  it("uses no Node global at all in the modules a browser loads", () => {
    const { files } = closure(join(DIST_SRC, "protocol", "proofRules.js"));
    for (const f of files.filter((x) => x !== "protocol/hash.js")) {
      const code = readFileSync(join(DIST_SRC, f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      // bytes.js reads Buffer once, through globalThis, and has a plain-JS path where it is undefined
      const uses = code.match(/\b(?:Buffer|process|require|__dirname)\b/g) ?? [];
      if (f === "protocol/bytes.js")
        assert.ok(
          uses.every((u) => u === "Buffer"),
          `${f}: ${uses.join(",")}`,
        );
      else assert.deepEqual(uses, [], f);
    }
  });

  it("bytes.ts answers the same without Buffer (the browser's path) as with it", async () => {
    const saved = globalThis.Buffer;
    let plain: typeof nodeBytes;
    try {
      // a fresh instance of the module, loaded while this process has no Buffer, as a browser loads it
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
      plain = (await import(
        `${pathToFileURL(join(DIST_SRC, "protocol", "bytes.js")).href}?browser`
      )) as typeof nodeBytes;
    } finally {
      globalThis.Buffer = saved;
    }
    // deterministic inputs: every byte value, lengths 0..70, prefixes of one another (compare's edge)
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const samples = [new Uint8Array(0), all, all.subarray(1, 71), all.subarray(0, 3), all.subarray(0, 4)];
    for (let n = 0; n < 70; n++) samples.push(Uint8Array.from({ length: n }, (_, i) => (i * 37 + n * 11) & 0xff));
    for (const a of samples) {
      const hex = nodeBytes.toHex(a);
      assert.equal(plain.toHex(a), hex);
      assert.deepEqual(plain.fromHex(hex), nodeBytes.fromHex(hex));
      assert.deepEqual(plain.fromHex(hex.toUpperCase()), a);
      assert.deepEqual(plain.hexBytes(hex), a);
      assert.deepEqual(nodeBytes.hexBytes(hex), a);
      for (const b of samples.slice(0, 12)) {
        assert.equal(plain.compareBytes(a, b), nodeBytes.compareBytes(a, b));
        assert.deepEqual(plain.concat(a, b, a), nodeBytes.concat(a, b, a));
      }
    }
    assert.throws(() => plain.fromHex("0g"), /not hex/);
  });
});
