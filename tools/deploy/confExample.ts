/**
 * Writes deploy/ledgerd.conf.example from the configuration file's field table (config/fields.ts): every
 * field with its meaning, range or choices and default (commented out), and this example's production
 * choices uncommented. `make build` runs it: the file is rewritten only when its text changes (a field was
 * added or changed), and that change is then to be committed. test/integration/deploy.test.ts checks it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { allFields } from "../../src/config/ini.js";

/** The example's choices for a production node ("Group.Field" → value). */
const ACTIVE: Readonly<Record<string, string>> = {
  "App.Network": "LOCAL",
  "App.HomeDir": "/var/lib/ledgerd",
  "App.PortNumber": "8088",
  "App.ListenHost": "127.0.0.1",
  "App.MetricsPort": "9876",
  "App.MinFreeDiskMB": "1024",
  "Log.LogLevel": "info",
};

const INFORMATIONAL = "reference field: accepted and shown by `configuration`; ledgerd does not act on it";

/** The example file's text. */
export function confExample(): string {
  const out = [
    "; ledgerd configuration file — deploy/ledgerd.conf.example (kept up to date by `make build`)",
    "; Install as <homedir>/ledgerd.conf (deploy/ledgerd.service: /var/lib/ledgerd/ledgerd.conf), mode 0600 when it",
    "; holds a password. Every field the file format knows is here: lines starting with ';' show the default",
    "; and change nothing; the uncommented lines are this example's choices for a production node.",
    "; Flags override the file (bin/ledgerd -h); docs/configuration.md explains each field.",
    "; `reload-configuration` or SIGHUP re-reads this file (what applies live: docs/configuration.md §4).",
  ];
  let group = "";
  for (const { group: g, field: f } of allFields()) {
    if (g !== group) {
      out.push("", `[${g}]`);
      group = g;
    }
    const range = f.type === "int" && f.min !== undefined ? ` (${f.min}..${f.max})` : "";
    const choices = f.choices !== undefined && !f.doc.includes("|") ? ` (${f.choices.join(" | ")})` : "";
    const doc = f.doc === "informational" ? INFORMATIONAL : f.doc;
    out.push(`; ${doc}${f.type === "int" ? range : choices}`);
    const show = (v: string): string => (f.type === "string" && (v === "" || /[;\s"]/.test(v)) ? `"${v}"` : v);
    const active = ACTIVE[`${g}.${f.name}`];
    out.push(active !== undefined ? `${f.name} = ${show(active)}` : `; ${f.name} = ${show(f.default ?? "")}`);
  }
  return `${out.join("\n")}\n`;
}

// dist/tools/deploy → the repository root
if (process.argv[1]?.endsWith("confExample.js")) {
  const file = join(import.meta.dirname, "..", "..", "..", "deploy", "ledgerd.conf.example");
  const text = confExample();
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
    writeFileSync(file, text);
    process.stdout.write(`updated ${file} from the configuration fields: commit it\n`);
  }
}
