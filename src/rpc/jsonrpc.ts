/**
 * JSON-RPC 2.0 envelope (spec §1, §7; reference api-behavior §2): body text → request(s) → handler →
 * response text and HTTP status. Transport-free: server.ts feeds it text and writes what it returns.
 *
 * Rules:
 * - empty body → -32600; not JSON → -32700; not a request object → -32600 (both with `id: null`);
 * - `jsonrpc` must be exactly "2.0"; member names match case-insensitively (exact match first);
 * - missing/empty/unknown `method` → -32601 with the name (or the problem) in `data`, id echoed;
 * - every error answers HTTP 400, a success 200 (the reference node's convention, which clients rely on);
 * - a batch (array) answers an array in the same order with HTTP 200; an empty batch is one -32600;
 * - requests without `id` still get a response with `"id": null` (no notifications, as the reference).
 */
import { closestName } from "../config/suggest.js";
import { InvariantError } from "../errors.js";
import type { CallRecord, RpcContext } from "./context.js";
import {
  internalError,
  invalidRequest,
  isInternal,
  methodNotFound,
  parseError,
  type RpcError,
  toRpcError,
} from "./errors.js";
import { type Serialized, WALLET_SERVICE_METHODS } from "./methods.js";
import { jsonType } from "./params.js";
import { REFERENCE_METHOD_NAMES } from "./referenceNames.js";

/** A method implementation: validated params in, JSON-ready result out (bigint allowed for exact integers). */
export type MethodHandler = (params: unknown, ctx: RpcContext) => unknown;

/** The methods of one endpoint, by exact (case-sensitive) name. */
export type MethodTable = ReadonlyMap<string, MethodHandler>;

/** One endpoint (`/v2` or `/debug`): its methods and, for helpful -32601 data, the other endpoint's names. */
export interface Endpoint {
  path: string;
  methods: MethodTable;
  /** path of the endpoint serving a method this one does not have, for the -32601 hint */
  elsewhere: (method: string) => string | undefined;
  /** false: no "did you mean" in -32601 (the panel, whose tables leave out what it does not offer) */
  suggest?: boolean;
}

/** Longest method name a -32601 looks for a near name to (the edit distance costs length × candidates). */
const MAX_SUGGESTED_NAME_LENGTH = 64;

/**
 * `data` of a -32601 for `name`: where it is served instead, the neutral name of a reference method name, or
 * the nearest name of this endpoint (a typo); else the name alone.
 */
export function methodNotFoundData(name: string, endpoint: Endpoint): string {
  const other = endpoint.elsewhere(name);
  if (other !== undefined) return `${name} (served on ${other}, not ${endpoint.path})`;
  if (WALLET_SERVICE_METHODS.has(name))
    return `${name} is a wallet service method: send it to ledgerd-walletd (port 8089), not to the node`;
  const renamed = REFERENCE_METHOD_NAMES.get(name);
  if (renamed !== undefined && endpoint.methods.has(renamed))
    return `${name} (the reference node's name: this node calls it ${renamed}; docs/compat.md)`;
  if (endpoint.suggest === false || name.length > MAX_SUGGESTED_NAME_LENGTH) return name;
  const near = closestName(name, endpoint.methods.keys());
  if (near === undefined) return name;
  return near.toLowerCase() === name.toLowerCase()
    ? `${name} (method names are case-sensitive: did you mean ${near}?)`
    : `${name} (did you mean ${near}?)`;
}

/**
 * Deepest JSON nesting accepted in a request. Real requests nest 3 levels (`params.addresses[i]`);
 * the limit keeps recursive work on echoed ids and params bounded whatever a client sends.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Most main-thread ms a batch runs before letting other requests in (one event-loop turn). One call is bounded
 * by its own limits (e.g. 1000 addresses, ~25 ms); 10 ms keeps a 100-call batch from stalling the node for the
 * sum of its calls.
 */
const BATCH_TURN_MS = 10;

/** What one request of a body did (declared with the context, which the envelope imports: no cycle). */
export type { CallRecord };

/** The HTTP answer to one body. */
export interface EnvelopeAnswer {
  status: number;
  body: string;
  calls: CallRecord[];
}

/**
 * The HTTP answer to one body for a transport that sends it at once (`handleBodyToSend`): a single request
 * answered by a remembered view comes as bytes shared with the view (JsonText.answerBytes), valid only until
 * the next request is answered — send them before returning to the event loop, or copy them.
 */
export interface SendableAnswer {
  status: number;
  body: string | Uint8Array;
  calls: CallRecord[];
}

type Json = null | boolean | number | string | bigint | JsonText | Json[] | { [key: string]: Json } | undefined;

/**
 * Serialise to compact JSON. Unlike JSON.stringify, a `bigint` is written as its exact integer digits
 * (nanosecond times and large balances exceed 2^53). `undefined` members are omitted, `undefined` array
 * items become null, non-finite numbers null.
 */
export function encodeJson(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  // JSON.stringify writes the same text as `write` for every value but a bigint (it throws: the slow path
  // below) and a JsonText (its toJSON throws), at a fraction of the cost: `write` was 18 % of a loaded node's
  // main thread answering `heights` (docs/performance.md §Reads).
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    // bigint or JsonText inside
  }
  return exactJson(value);
}

/** encodeJson's exact writer alone (for a value JSON.stringify has just refused). */
function exactJson(value: unknown): string {
  const out: string[] = [];
  write(value as Json, out);
  return out.join("");
}

/**
 * Bytes left free in front of a remembered view for the start of its answer, `{"jsonrpc":"2.0","id":<id>,"result":`
 * (30 bytes and the id's JSON): ids of up to ~98 bytes are spliced in place; a longer one takes the text path.
 */
export const ANSWER_HEADROOM = 128;
const RESULT_END = 0x7d; // "}"

/**
 * A JSON text written as is where a value would be (a result remembered already serialised, viewCache.ts).
 * JSON.stringify must never meet one: its toJSON throws, which sends `encodeJson` to its exact path.
 *
 * A remembered view (`JsonText.remembered`) is kept as the bytes of a whole answer instead: its UTF-8 text
 * with ANSWER_HEADROOM free bytes before it and the answer's closing brace after it, so that a single request
 * answered by it is sent as one Buffer with the request's id written into the headroom (`answerBytes`) — no
 * per-request string of the view's size built, flattened and UTF-8-encoded by uWebSockets: ~23 → ~10 µs of CPU
 * per request for a 37 KB answer in a bare uWebSockets.js test (docs/performance.md §Reads).
 */
export class JsonText<T = unknown> implements Serialized<T> {
  declare readonly __of?: T;
  private readonly plain: string | undefined;
  /** headroom, the text as UTF-8, "}" (remembered views only) */
  private readonly wire: Buffer | undefined;
  /** free bytes at the start of `wire` */
  private readonly headroom: number;

  constructor(text: string, wire?: Buffer, headroom = 0) {
    this.plain = wire === undefined ? text : undefined;
    this.wire = wire;
    this.headroom = headroom;
  }

  /** The JSON text of `value` (encodeJson), typed as the JSON of T. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(encodeJson(value));
  }

  /**
   * The JSON text of `value`, kept as answer bytes (`answerBytes`) rather than as a string: for views kept.
   * `headroom` free bytes (ANSWER_HEADROOM; fewer for many small answers: an id that does not fit takes the
   * text path).
   */
  static remembered<T>(value: T, headroom = ANSWER_HEADROOM): JsonText<T> {
    return JsonText.rememberedText<T>(encodeJson(value), headroom);
  }

  /** `remembered` of a value whose JSON text (as `encodeJson` writes it) the caller has written already. */
  static rememberedText<T>(text: string, headroom = ANSWER_HEADROOM): JsonText<T> {
    const n = Buffer.byteLength(text);
    const wire = Buffer.allocUnsafeSlow(headroom + n + 1);
    wire.fill(0x20, 0, headroom);
    wire.write(text, headroom, n, "utf8");
    wire[headroom + n] = RESULT_END;
    return new JsonText<T>("", wire, headroom);
  }

  /**
   * `remembered` of answer bytes the caller has written already in its layout: `headroom` free bytes, the JSON
   * text (as `encodeJson` writes it) as UTF-8, then the answer's closing brace.
   */
  static rememberedBytes<T>(wire: Buffer, headroom: number): JsonText<T> {
    if (wire.length <= headroom || wire[wire.length - 1] !== RESULT_END)
      throw new InvariantError("JsonText.rememberedBytes: no text, or no closing brace after it");
    return new JsonText<T>("", wire, headroom);
  }

  /** The JSON text (decoded from the answer bytes of a remembered view: batches and nested values only). */
  get text(): string {
    return this.plain ?? this.wire!.toString("utf8", this.headroom, this.wire!.length - 1);
  }

  /** Bytes held outside the JS heap (a remembered view's answer bytes), for caches that count them. */
  get heldBytes(): number {
    return this.wire?.byteLength ?? 0;
  }

  /**
   * The whole answer `{"jsonrpc":"2.0","id":<idJson>,"result":<text>}` as bytes, or undefined when this is not
   * a remembered view or the id does not fit the headroom. The bytes are shared: valid only until the next
   * call on this view (any request answered by it) — send them at once or copy them.
   */
  answerBytes(idJson: string): Uint8Array | undefined {
    const wire = this.wire;
    if (wire === undefined) return undefined;
    const start = `{"jsonrpc":"2.0","id":${idJson},"result":`;
    const n = Buffer.byteLength(start);
    if (n > this.headroom) return undefined;
    wire.write(start, this.headroom - n, n, "utf8");
    return wire.subarray(this.headroom - n);
  }

  toJSON(): never {
    throw new InvariantError("JsonText: serialise with encodeJson");
  }
}

function write(v: Json, out: string[]): void {
  if (v instanceof JsonText) {
    out.push(v.text);
    return;
  }
  switch (typeof v) {
    case "string":
      out.push(JSON.stringify(v));
      return;
    case "number":
      out.push(Number.isFinite(v) ? String(v) : "null");
      return;
    case "bigint":
      out.push(v.toString());
      return;
    case "boolean":
      out.push(v ? "true" : "false");
      return;
    case "undefined":
      out.push("null");
      return;
  }
  if (v === null) {
    out.push("null");
    return;
  }
  if (Array.isArray(v)) {
    out.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(",");
      write(v[i], out);
    }
    out.push("]");
    return;
  }
  out.push("{");
  let first = true;
  for (const key of Object.keys(v)) {
    const item = v[key];
    if (item === undefined) continue;
    if (!first) out.push(",");
    first = false;
    out.push(JSON.stringify(key), ":");
    write(item, out);
  }
  out.push("}");
}

/**
 * True when `value` nests deeper than `limit` (the value itself is level 1). Every request body longer than
 * 2 × MAX_JSON_DEPTH is measured (the writes' and most reads' with a hash param): a walk that allocates nothing,
 * where a stack of [value, depth] pairs and an `Object.values` array per object cost a `chain-head` read ~0.4 µs
 * (issue 35). Recursive, but it stops one call past `limit`: at most limit + 1 frames, whatever the input's depth.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return typeof value === "object" && value !== null && deeperThan(value, 1, limit);
}

/** `v` (an object or array at level `depth`) or anything in it lies deeper than `limit`. */
function deeperThan(v: object, depth: number, limit: number): boolean {
  if (depth > limit) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const c: unknown = v[i];
      if (typeof c === "object" && c !== null && deeperThan(c, depth + 1, limit)) return true;
    }
    return false;
  }
  const members = v as Record<string, unknown>;
  // a parsed JSON object inherits no enumerable member: for-in walks its own keys, without an array of them
  for (const key in members) {
    const c = members[key];
    if (typeof c === "object" && c !== null && deeperThan(c, depth + 1, limit)) return true;
  }
  return false;
}

/**
 * A member of the request object: exact name first, then any letter case (Go's decoder does the same; the last
 * such key wins). `undefined` when absent (a parsed JSON object holds no undefined member).
 */
function member(obj: Record<string, unknown>, name: string): unknown {
  // a parsed JSON object holds no undefined member and inherits none of the four names: a value is an own member
  const exact = obj[name];
  if (exact !== undefined) return exact;
  let found: unknown;
  for (const key of Object.keys(obj)) if (key.toLowerCase() === name) found = obj[key];
  return found;
}

/**
 * `{"jsonrpc":"2.0","id":<id>,"result":<result>}` (no `result` when undefined). A plain result is written with
 * the envelope by one JSON.stringify: one flat string, where the pieces joined made a rope that uWebSockets
 * flattened again before encoding it. JSON.stringify throws for a bigint (and a JsonText), which encodeJson writes.
 */
function answerText(id: unknown, result: unknown): string {
  if (result === undefined) return encodeJson({ jsonrpc: "2.0", id });
  // a function or symbol, which JSON.stringify would leave out of the object, is written as null by encodeJson
  if (result instanceof JsonText || typeof result === "function" || typeof result === "symbol")
    return `{"jsonrpc":"2.0","id":${encodeJson(id)},"result":${encodeJson(result)}}`;
  try {
    return JSON.stringify({ jsonrpc: "2.0", id, result });
  } catch {
    // a bigint inside
    return `{"jsonrpc":"2.0","id":${encodeJson(id)},"result":${exactJson(result)}}`;
  }
}

function errorResponse(id: unknown, e: RpcError): string {
  return encodeJson({ jsonrpc: "2.0", id: e.nullId ? null : (id ?? null), error: e.toObject() });
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/** One request's response text (or its shared bytes: JsonText.answerBytes) and what it did. */
interface Outcome {
  text: string;
  bytes?: Uint8Array;
  record: CallRecord;
}

function failure(id: unknown, e: RpcError, name?: string): Outcome {
  return { text: errorResponse(id, e), record: { method: name, code: e.code } };
}

/** A handler threw (or its promise rejected): the error's answer; an internal error is logged with its stack. */
function failedCall(thrown: unknown, id: unknown, name: string, endpoint: Endpoint, ctx: RpcContext): Outcome {
  const e = toRpcError(thrown);
  if (isInternal(e)) {
    ctx.log.error("rpc method failed", {
      path: endpoint.path,
      method: name,
      error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
    });
  }
  return failure(id, e, name);
}

function answeredCall(result: unknown, id: unknown, name: string, asBytes: boolean): Outcome {
  if (asBytes && result instanceof JsonText) {
    const bytes = result.answerBytes(encodeJson(id));
    if (bytes !== undefined) return { text: "", bytes, record: { method: name } };
  }
  return { text: answerText(id, result), record: { method: name } };
}

/**
 * Run one request object; returns its response text and whether it failed. Synchronous when the handler
 * is (every read): no promise per request, ~1 µs and some garbage less on a light read; no closure either
 * (the helpers above take what they need), nor an object per member looked up.
 */
function runOne(request: unknown, endpoint: Endpoint, ctx: RpcContext, asBytes: boolean): Outcome | Promise<Outcome> {
  const r = startOne(request, endpoint, ctx, asBytes);
  if (!(r instanceof Pending)) return r;
  return Promise.resolve(r.result).then(
    (value) => answeredCall(value, r.id, r.name, asBytes),
    (thrown: unknown) => failedCall(thrown, r.id, r.name, endpoint, ctx),
  );
}

/** A handler's answer still to come (startOne): what its outcome is made with once it settles. */
class Pending {
  constructor(
    readonly result: PromiseLike<unknown>,
    readonly id: unknown,
    readonly name: string,
  ) {}
}

/**
 * The body of runOne up to the handler's call: the outcome when the handler answered synchronously, or the
 * handler's promise (Pending) for the caller to wait on in one step — a single request's answer is one
 * promise reaction away from the handler's (answerBody), not three (issue 35: per-request promises).
 */
function startOne(request: unknown, endpoint: Endpoint, ctx: RpcContext, asBytes: boolean): Outcome | Pending {
  if (typeof request !== "object" || request === null || Array.isArray(request))
    return failure(null, invalidRequest(`expected a request object, got ${jsonType(request)}`));
  const obj = request as Record<string, unknown>;
  const version = member(obj, "jsonrpc");
  const method = member(obj, "method");
  const id = member(obj, "id") ?? null;
  const params = member(obj, "params");

  if (version !== "2.0")
    return failure(
      id,
      invalidRequest(`jsonrpc: expected "2.0", got ${version === undefined ? "nothing" : JSON.stringify(version)}`),
    );
  if (method !== undefined && method !== null && typeof method !== "string")
    return failure(id, invalidRequest(`method: expected a string, got ${jsonType(method)}`));
  const name = typeof method === "string" ? method : "";
  if (name === "") return failure(id, methodNotFound("method: missing"));
  const handler = endpoint.methods.get(name);
  if (handler === undefined) return failure(id, methodNotFound(methodNotFoundData(name, endpoint)), name);
  let result: unknown;
  try {
    result = handler(params, ctx);
  } catch (thrown) {
    return failedCall(thrown, id, name, endpoint, ctx);
  }
  if (isThenable(result)) return new Pending(result, id, name);
  try {
    return answeredCall(result, id, name, asBytes);
  } catch (thrown) {
    return failedCall(thrown, id, name, endpoint, ctx);
  }
}

/**
 * Answer one HTTP body. Never throws: anything unexpected becomes -32603.
 * @param maxBatch largest number of requests in one batch
 */
export function handleBody(
  text: string,
  endpoint: Endpoint,
  ctx: RpcContext,
  maxBatch: number,
): EnvelopeAnswer | Promise<EnvelopeAnswer> {
  // without asBytes every body is text
  return answerBody(text, endpoint, ctx, maxBatch, false) as EnvelopeAnswer | Promise<EnvelopeAnswer>;
}

/**
 * `handleBody` for a transport that sends the answer at once (the API server): the answer of a single request
 * answered by a remembered view may be bytes shared with the view (SendableAnswer). Never throws.
 */
export function handleBodyToSend(
  text: string,
  endpoint: Endpoint,
  ctx: RpcContext,
  maxBatch: number,
): SendableAnswer | Promise<SendableAnswer> {
  return answerBody(text, endpoint, ctx, maxBatch, true);
}

function answerBody(
  text: string,
  endpoint: Endpoint,
  ctx: RpcContext,
  maxBatch: number,
  asBytes: boolean,
): SendableAnswer | Promise<SendableAnswer> {
  if (text.trim() === "") return single(invalidRequest("empty body"));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return single(parseError(e instanceof Error ? e.message : "invalid JSON"));
  }
  // nesting deeper than MAX_JSON_DEPTH takes that many brackets opened and closed: a shorter text cannot
  if (text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(parsed, MAX_JSON_DEPTH))
    return single(invalidRequest(`JSON nests deeper than ${MAX_JSON_DEPTH} levels`));
  try {
    if (!Array.isArray(parsed)) {
      const outcome = startOne(parsed, endpoint, ctx, asBytes);
      return outcome instanceof Pending ? settleOne(outcome, endpoint, ctx, asBytes) : whole(outcome);
    }
    if (parsed.length === 0) return single(invalidRequest("empty batch"));
    if (parsed.length > maxBatch)
      return single(invalidRequest(`batch of ${parsed.length} requests is larger than the limit of ${maxBatch}`));
    return runBatch(parsed, endpoint, ctx).catch((thrown: unknown) => unexpected(thrown, ctx));
  } catch (thrown) {
    return unexpected(thrown, ctx);
  }
}

/**
 * The answer to a single request whose handler returned a promise: one reaction on that promise. What the
 * outcome's making throws is answered as the envelope's failure (`unexpected`), as before.
 */
function settleOne(p: Pending, endpoint: Endpoint, ctx: RpcContext, asBytes: boolean): Promise<SendableAnswer> {
  return Promise.resolve(p.result).then(
    (value) => {
      try {
        return whole(answeredCall(value, p.id, p.name, asBytes));
      } catch (thrown) {
        return unexpected(thrown, ctx);
      }
    },
    (thrown: unknown) => {
      try {
        return whole(failedCall(thrown, p.id, p.name, endpoint, ctx));
      } catch (again) {
        return unexpected(again, ctx);
      }
    },
  );
}

/** The answer to a body that is one error (not a request's: id null). */
function single(e: RpcError): EnvelopeAnswer {
  return { status: 400, body: errorResponse(null, e), calls: [{ method: undefined, code: e.code }] };
}

/** The answer to a body whose handling failed in the envelope itself: -32603, logged. */
function unexpected(thrown: unknown, ctx: RpcContext): EnvelopeAnswer {
  ctx.log.error("rpc envelope failed", {
    error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
  });
  return single(internalError());
}

/** The answer to a body holding one request. */
function whole(o: Outcome): SendableAnswer {
  return { status: o.record.code === undefined ? 200 : 400, body: o.bytes ?? o.text, calls: [o.record] };
}

/**
 * A batch, in order: writes in a batch keep their order, as if sent one after another. After BATCH_TURN_MS of
 * main thread the batch waits one event-loop turn, so other requests are served between its calls.
 */
async function runBatch(requests: unknown[], endpoint: Endpoint, ctx: RpcContext): Promise<EnvelopeAnswer> {
  const texts: string[] = [];
  const calls: CallRecord[] = [];
  let turnStarted = performance.now();
  for (const request of requests) {
    if (performance.now() - turnStarted > BATCH_TURN_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turnStarted = performance.now();
    }
    const { text: t, record } = await runOne(request, endpoint, ctx, false);
    texts.push(t);
    calls.push(record);
  }
  return { status: 200, body: `[${texts.join(",")}]`, calls };
}
