/**
 * The INI configuration file, read the way the reference node's gcfg reads it (git-config syntax):
 *
 * - `[Group]` headers and `Name = value` lines; group and field names are case-insensitive;
 * - comments start with `;` or `#` (whole line, or after a value outside quotes);
 * - values are trimmed; double quotes keep spaces and comment characters; inside or outside quotes the
 *   escapes `\\`, `\"`, `\n`, `\t` are recognised; a `\` at the end of a line outside quotes continues the
 *   value on the next line;
 * - a bare `Name` (no `=`) sets a boolean to true and empties a list;
 * - integers are decimal or `0x` hexadecimal (a leading zero is not octal: ExchangeRate = 00100000 is 100000);
 * - booleans are true/yes/on/1 and false/no/off/0, in any case;
 * - a UTF-8 byte-order mark at the start is skipped.
 *
 * Unlike the reference (which falls back to the defaults on any error), every problem is a ConfigError that
 * names the file, the line and the field: a node must not run with settings its operator did not write.
 */
import { readFileSync } from "node:fs";
import { ConfigError } from "./errors.js";
import { fieldSpec, findField, findGroup, GROUPS, IGNORED_GROUPS } from "./fields.js";
import { type FieldSpec, GROUP_NAMES, type GroupName, type GroupSpec } from "./fieldTypes.js";
import { didYouMean } from "./suggest.js";

/** Raw values by canonical group and field name, as written (unquoted). Lists are joined with LIST_SEPARATOR. */
export type RawFile = Record<string, Record<string, string>>;

/** A list value's items inside RawFile. A newline cannot be written unescaped in a value, so it is unambiguous. */
export const LIST_SEPARATOR = "\n";

export type FieldValue = string | number | boolean | string[] | null;

export interface IniDocument {
  /** every group of GROUP_NAMES is present (possibly empty) */
  values: RawFile;
  /** "Group.Field" → line of the assignment that gave the value */
  lines: Record<string, number>;
}

/** An empty RawFile: every group present, no field set. */
export function emptyRawFile(): RawFile {
  const values: RawFile = {};
  for (const g of GROUP_NAMES) values[g] = {};
  return values;
}

/**
 * Reads and parses the file at `path`. A missing file is `null` (the caller decides whether that is fine);
 * an unreadable or malformed file is a ConfigError.
 */
export function readIniFile(path: string): IniDocument | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new ConfigError(`${path}: cannot read the configuration file: ${(err as Error).message}`, { file: path });
  }
  return parseIni(text, path);
}

const NAME = /^[A-Za-z][A-Za-z0-9-]*/;
const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\", '"': '"', n: "\n", t: "\t" };

/** Parses INI text; `fileName` only appears in error messages. */
export function parseIni(text: string, fileName: string): IniDocument {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  const values = emptyRawFile();
  const lineOf: Record<string, number> = {};
  let group: GroupSpec | null = null;
  let ignoring = false; // inside one of IGNORED_GROUPS
  let sawGroup = false;
  const fail = (line: number, message: string, field?: string): never => {
    throw new ConfigError(`${fileName}:${line}: ${message}`, { file: fileName, line, field });
  };

  let i = 0;
  while (i < lines.length) {
    const lineNo = i + 1;
    const line = lines[i++]!;
    const body = line.trimStart();
    if (body === "" || body.startsWith(";") || body.startsWith("#")) continue;

    if (body.startsWith("[")) {
      const m = /^\[\s*([^\]\s"]*)\s*("(?:[^"\\]|\\.)*")?\s*\]\s*(?:[;#].*)?$/.exec(body);
      if (!m) fail(lineNo, `syntax error: expected a group header such as [App], got ${JSON.stringify(body)}`);
      const name = m![1]!;
      if (!NAME.test(name) || NAME.exec(name)![0] !== name) {
        fail(lineNo, `syntax error: bad group name ${JSON.stringify(name)}`);
      }
      if (m![2] !== undefined) fail(lineNo, `syntax error: subsections ([${name} ${m![2]}]) are not supported`);
      sawGroup = true;
      group = findGroup(name) ?? null;
      ignoring = group === null && IGNORED_GROUPS.some((g) => g.toLowerCase() === name.toLowerCase());
      if (group === null && !ignoring) {
        fail(
          lineNo,
          `unknown group [${name}]${didYouMean(name, GROUP_NAMES)} (known groups: ${GROUP_NAMES.join(", ")})`,
          name,
        );
      }
      continue;
    }

    const nm = NAME.exec(body);
    if (!nm) fail(lineNo, `syntax error: expected "Name = value", got ${JSON.stringify(body)}`);
    const name = nm![0];
    if (!sawGroup) fail(lineNo, `syntax error: field ${name} comes before any group header such as [App]`, name);
    let rest = body.slice(name.length).trimStart();
    const blank = rest === "" || rest.startsWith(";") || rest.startsWith("#");
    if (!blank && !rest.startsWith("=")) {
      // only the first character: the rest is often the value, and the value may be a password (security
      // review 3, L4: reload-configuration logged `got ": Leaky-Secret-123"` at warning level)
      fail(
        lineNo,
        `syntax error: expected "=" after ${name}, got ${JSON.stringify(rest[0])} (the rest of the line is not shown: it may hold a secret)`,
        name,
      );
    }

    let raw = "";
    if (!blank) {
      rest = rest.slice(1);
      // Scan the value; a trailing backslash outside quotes continues on the next line.
      let out = "";
      let pending = ""; // whitespace outside quotes, kept only if something follows it
      let started = false;
      let quoted = false;
      let p = 0;
      let cur = rest;
      for (;;) {
        if (p >= cur.length) {
          if (quoted) fail(lineNo, `syntax error: missing closing quote in the value of ${name}`, name);
          break;
        }
        const c = cur[p]!;
        if (c === "\\") {
          const next = cur[p + 1];
          if (next === undefined) {
            if (quoted) fail(lineNo, `syntax error: missing closing quote in the value of ${name}`, name);
            if (i >= lines.length)
              fail(lineNo, `syntax error: the value of ${name} continues past the end of the file`, name);
            cur = lines[i++]!;
            p = 0;
            continue;
          }
          const esc = ESCAPES[next];
          if (esc === undefined) fail(lineNo, `syntax error: invalid escape "\\${next}" in the value of ${name}`, name);
          out += pending + esc;
          pending = "";
          started = true;
          p += 2;
          continue;
        }
        if (c === '"') {
          out += pending;
          pending = "";
          quoted = !quoted;
          started = true;
        } else if (!quoted && (c === ";" || c === "#")) {
          break; // as in gcfg, any unquoted ; or # starts a comment (quote values that contain them)
        } else if (!quoted && (c === " " || c === "\t")) {
          if (started) pending += c;
        } else {
          out += pending + c;
          pending = "";
          started = true;
        }
        p++;
      }
      raw = out;
    }

    if (ignoring) continue;
    const field = findField(group!, name);
    const where = `${group!.name}.${name}`;
    if (!field)
      fail(
        lineNo,
        `unknown field ${name} in [${group!.name}]${didYouMean(
          name,
          group!.fields.map((f) => f.name),
        )}`,
        where,
      );
    const key = `${group!.name}.${field!.name}`;
    const bucket = values[group!.name]!;

    if (blank) {
      if (field!.type === "bool") bucket[field!.name] = "true";
      else if (field!.type === "list") bucket[field!.name] = "";
      else fail(lineNo, `[${group!.name}] ${field!.name}: a value is required (${describeType(field!)})`, key);
    } else if (field!.type === "list") {
      const prev = bucket[field!.name];
      bucket[field!.name] = prev === undefined || prev === "" ? raw : prev + LIST_SEPARATOR + raw;
    } else {
      try {
        typedValue(field!, raw);
      } catch (err) {
        fail(lineNo, `[${group!.name}] ${field!.name}: ${(err as Error).message}`, key);
      }
      bucket[field!.name] = raw;
    }
    lineOf[key] = lineNo;
  }
  return { values, lines: lineOf };
}

function describeType(field: FieldSpec): string {
  switch (field.type) {
    case "int":
      return `an integer from ${field.min ?? 0} to ${field.max ?? Number.MAX_SAFE_INTEGER}`;
    case "bool":
      return "true or false";
    case "list":
      return "a list";
    case "string":
      return field.choices ? `one of ${field.choices.join(", ")}` : "a string";
  }
}

/** Parses one raw value per the field's type; throws a ConfigError whose message says what was expected. */
export function typedValue(field: FieldSpec, raw: string): FieldValue {
  switch (field.type) {
    case "string":
      if (field.choices && !field.choices.some((c) => c.toLowerCase() === raw.trim().toLowerCase())) {
        throw new ConfigError(`expected ${describeType(field)}, got ${JSON.stringify(raw)}`);
      }
      return raw;
    case "bool": {
      const v = raw.trim().toLowerCase();
      if (v === "true" || v === "yes" || v === "on" || v === "1") return true;
      if (v === "false" || v === "no" || v === "off" || v === "0") return false;
      throw new ConfigError(`expected true or false, got ${JSON.stringify(raw)}`);
    }
    case "int": {
      const v = raw.trim();
      let n: number;
      if (/^[+-]?0x[0-9a-f]+$/i.test(v)) {
        const neg = v.startsWith("-");
        n = Number.parseInt(v.replace(/^[+-]?0x/i, ""), 16) * (neg ? -1 : 1);
      } else if (/^[+-]?[0-9]+$/.test(v)) {
        n = Number.parseInt(v, 10);
      } else {
        throw new ConfigError(`expected ${describeType(field)}, got ${JSON.stringify(raw)}`);
      }
      const min = field.min ?? 0;
      const max = field.max ?? Number.MAX_SAFE_INTEGER;
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        throw new ConfigError(`expected ${describeType(field)}, got ${JSON.stringify(raw)}`);
      }
      return n;
    }
    case "list":
      return raw === "" ? [] : raw.split(LIST_SEPARATOR);
  }
}

/**
 * The typed value of a field from raw file values: the file's value when present, else the default
 * (null when the field has none). Values in `file` were validated when the file was read.
 */
export function fileValue(file: RawFile, group: GroupName, name: string): FieldValue {
  const field = fieldSpec(group, name);
  const raw = file[group]?.[name];
  if (raw !== undefined) return typedValue(field, raw);
  return field.default === null ? null : typedValue(field, field.default);
}

export function fileString(file: RawFile, group: GroupName, name: string): string {
  return fileValue(file, group, name) as string;
}

export function fileInt(file: RawFile, group: GroupName, name: string): number | null {
  return fileValue(file, group, name) as number | null;
}

export function fileBool(file: RawFile, group: GroupName, name: string): boolean {
  return fileValue(file, group, name) as boolean;
}

/** Every (group, field) pair the file format knows, for docs and exhaustive tests. */
export function allFields(): { group: GroupName; field: FieldSpec }[] {
  return GROUPS.flatMap((g) => g.fields.map((field) => ({ group: g.name, field })));
}
