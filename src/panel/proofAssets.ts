/**
 * The files the control panel serves so that a browser runs the proof verifier itself (docs/panel.md "Verify
 * in this browser"): src/protocol/proofRules.ts as compiled for Node, and exactly the modules it imports, under
 * /assets/protocol/ and /assets/errors.js, so that their relative imports resolve among them as they do in
 * dist/src. hash.ts is the one protocol module not served as compiled: its URL serves the panel's
 * protocolHash.js (@noble/hashes), because node:crypto does not exist in a browser; ed25519 is a parameter of
 * the rules, @noble/ed25519 in the page. A test (test/unit/panel/proofAssets.test.ts) walks the compiled
 * imports of proofRules.js and holds this list to that closure, so a new import cannot go unserved, and
 * nothing else of dist/ or node_modules is exposed.
 */
import { join } from "node:path";

/** Modules of dist/src/protocol the rules import (besides hash.js), served as /assets/protocol/<name>.js. */
export const PROOF_PROTOCOL_MODULES = [
  "proofRules",
  "ablock",
  "anchorCheck",
  "authorityFold",
  "bootstrapKeys",
  "bytes",
  "chains",
  "dblock",
  "eblock",
  "entry",
  "errors",
  "merkle",
  "network",
  "receipt",
] as const;

const JS = "text/javascript; charset=utf-8";

/**
 * URL path → [file, content type] of the verifier's files. `distSrc`: the compiled src/ (dist/src);
 * `projectRoot`: where node_modules is.
 */
export function proofAssets(distSrc: string, projectRoot: string): Record<string, [string, string]> {
  return {
    ...Object.fromEntries(
      PROOF_PROTOCOL_MODULES.map((m): [string, [string, string]] => [
        `/assets/protocol/${m}.js`,
        [join(distSrc, "protocol", `${m}.js`), JS],
      ]),
    ),
    // protocol/errors.js imports "../errors.js": the project's error base
    "/assets/errors.js": [join(distSrc, "errors.js"), JS],
    // hash.ts's functions on @noble/hashes, under hash.ts's URL (the protocol modules import "./hash.js")
    "/assets/protocol/hash.js": [join(distSrc, "panel", "web", "protocolHash.js"), JS],
    // @noble/ed25519 is one self-contained file (no imports)
    "/assets/noble-ed25519/index.js": [join(projectRoot, "node_modules", "@noble", "ed25519", "index.js"), JS],
  };
}
