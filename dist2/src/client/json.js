import { randomBytes } from "node:crypto";
/**
 * JSON without precision loss. The node sends integers above 2^53 (`current-minute` times in ns,
 * ~1.7e18; large balances in base units), which `JSON.parse` would round. `parseJson` returns such
 * integers as `bigint` and every other number as `number`; `stringifyJson` writes bigints as digits.
 */
/** Integers with at most 15 digits are always exact as a double; 16+ digits may not be. */
const LONG_DIGIT_RUN = /\d{16}/;
/**
 * Parse JSON text. Integers outside Number.MAX_SAFE_INTEGER become bigint; all else as JSON.parse.
 * Fast path: text without any run of 16 digits cannot hold an unsafe integer, so JSON.parse is exact.
 * @throws SyntaxError on invalid JSON (message names the offset)
 */
export function parseJson(text) {
    if (!LONG_DIGIT_RUN.test(text))
        return JSON.parse(text);
    const parser = new LosslessParser(text);
    const value = parser.value();
    parser.end();
    return value;
}
/** JSON.stringify that writes bigint values as plain integers. */
export function stringifyJson(value) {
    const marks = [];
    // Each bigint becomes a marker string with a per-call random tag (so no real string can look like one),
    // then the quoted marker is replaced by the digits.
    const tag = randomBytes(8).toString("hex");
    const text = JSON.stringify(value, (_key, v) => {
        if (typeof v !== "bigint")
            return v;
        marks.push(v.toString());
        return `${tag}:${marks.length - 1}`;
    });
    if (marks.length === 0)
        return text;
    return text.replace(new RegExp(`"${tag}:(\\d+)"`, "g"), (_m, i) => marks[Number(i)]);
}
const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const WS_RE = /[ \t\n\r]*/y;
class LosslessParser {
    text;
    pos = 0;
    constructor(text) {
        this.text = text;
    }
    ws() {
        WS_RE.lastIndex = this.pos;
        WS_RE.exec(this.text);
        this.pos = WS_RE.lastIndex;
    }
    fail(what) {
        throw new SyntaxError(`JSON: ${what} at offset ${this.pos}`);
    }
    value() {
        this.ws();
        const c = this.text[this.pos];
        switch (c) {
            case "{":
                return this.object();
            case "[":
                return this.array();
            case '"':
                return this.string();
            case "t":
                return this.literal("true", true);
            case "f":
                return this.literal("false", false);
            case "n":
                return this.literal("null", null);
            default:
                return this.number();
        }
    }
    end() {
        this.ws();
        if (this.pos !== this.text.length)
            this.fail("unexpected text after the value");
    }
    literal(word, value) {
        if (!this.text.startsWith(word, this.pos))
            this.fail("unexpected token");
        this.pos += word.length;
        return value;
    }
    number() {
        NUMBER_RE.lastIndex = this.pos;
        const m = NUMBER_RE.exec(this.text);
        if (m === null)
            this.fail("unexpected token");
        this.pos = NUMBER_RE.lastIndex;
        const token = m[0];
        if (m[1] !== undefined || m[2] !== undefined)
            return Number(token);
        const n = Number(token);
        return Number.isSafeInteger(n) ? n : BigInt(token);
    }
    string() {
        const start = this.pos;
        let i = start + 1;
        for (;;) {
            const c = this.text.charCodeAt(i);
            if (Number.isNaN(c))
                this.fail("unterminated string");
            if (c === 0x5c)
                i += 2;
            else if (c === 0x22)
                break;
            else
                i++;
        }
        this.pos = i + 1;
        // JSON.parse of the exact string token handles every escape and rejects control characters.
        return JSON.parse(this.text.slice(start, this.pos));
    }
    array() {
        this.pos++;
        const out = [];
        this.ws();
        if (this.text[this.pos] === "]") {
            this.pos++;
            return out;
        }
        for (;;) {
            out.push(this.value());
            this.ws();
            const c = this.text[this.pos++];
            if (c === "]")
                return out;
            if (c !== ",")
                this.fail("expected , or ] in array");
        }
    }
    object() {
        this.pos++;
        const out = {};
        this.ws();
        if (this.text[this.pos] === "}") {
            this.pos++;
            return out;
        }
        for (;;) {
            this.ws();
            if (this.text[this.pos] !== '"')
                this.fail("expected a member name");
            const key = this.string();
            this.ws();
            if (this.text[this.pos++] !== ":")
                this.fail("expected : after a member name");
            const v = this.value();
            // defineProperty: a member named "__proto__" must become data, not change the prototype.
            Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
            this.ws();
            const c = this.text[this.pos++];
            if (c === "}")
                return out;
            if (c !== ",")
                this.fail("expected , or } in object");
        }
    }
}
//# sourceMappingURL=json.js.map