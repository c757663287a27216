import { internalError, invalidRequest, isInternal, methodNotFound, parseError, toRpcError, } from "./errors.js";
import { jsonType } from "./params.js";
/**
 * Deepest JSON nesting accepted in a request. Real requests nest 3 levels (`params.addresses[i]`);
 * the limit keeps recursive work on echoed ids and params bounded whatever a client sends.
 */
export const MAX_JSON_DEPTH = 64;
/**
 * Serialise to compact JSON. Unlike JSON.stringify, a `bigint` is written as its exact integer digits
 * (nanosecond times and large balances exceed 2^53). `undefined` members are omitted, `undefined` array
 * items become null, non-finite numbers null.
 */
export function encodeJson(value) {
    const out = [];
    write(value, out);
    return out.join("");
}
function write(v, out) {
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
            if (i > 0)
                out.push(",");
            write(v[i], out);
        }
        out.push("]");
        return;
    }
    out.push("{");
    let first = true;
    for (const key of Object.keys(v)) {
        const item = v[key];
        if (item === undefined)
            continue;
        if (!first)
            out.push(",");
        first = false;
        out.push(JSON.stringify(key), ":");
        write(item, out);
    }
    out.push("}");
}
/** True when `value` nests deeper than `limit` (iterative, so any input depth is safe to measure). */
export function nestsDeeperThan(value, limit) {
    const stack = [[value, 1]];
    while (stack.length > 0) {
        const [v, depth] = stack.pop();
        if (typeof v !== "object" || v === null)
            continue;
        if (depth > limit)
            return true;
        const children = Array.isArray(v) ? v : Object.values(v);
        for (const c of children)
            if (typeof c === "object" && c !== null)
                stack.push([c, depth + 1]);
    }
    return false;
}
/** A member of the request object: exact name first, then any letter case (Go's decoder does the same). */
function member(obj, name) {
    if (Object.hasOwn(obj, name))
        return { present: true, value: obj[name] };
    let found = { present: false, value: undefined };
    for (const key of Object.keys(obj))
        if (key.toLowerCase() === name)
            found = { present: true, value: obj[key] };
    return found;
}
function errorResponse(id, e) {
    return encodeJson({ jsonrpc: "2.0", id: e.nullId ? null : (id ?? null), error: e.toObject() });
}
/** Run one request object; returns its response text and whether it failed. */
async function runOne(request, endpoint, ctx) {
    if (typeof request !== "object" || request === null || Array.isArray(request)) {
        const e = invalidRequest(`expected a request object, got ${jsonType(request)}`);
        return { text: errorResponse(null, e), record: { method: undefined, code: e.code } };
    }
    const obj = request;
    const version = member(obj, "jsonrpc").value;
    const method = member(obj, "method");
    const id = member(obj, "id").value ?? null;
    const params = member(obj, "params").value;
    const fail = (e, name) => ({ text: errorResponse(id, e), record: { method: name, code: e.code } });
    if (version !== "2.0")
        return fail(invalidRequest(`jsonrpc: expected "2.0", got ${version === undefined ? "nothing" : JSON.stringify(version)}`));
    if (method.present && method.value !== null && typeof method.value !== "string")
        return fail(invalidRequest(`method: expected a string, got ${jsonType(method.value)}`));
    const name = typeof method.value === "string" ? method.value : "";
    if (name === "")
        return fail(methodNotFound("method: missing"));
    const handler = endpoint.methods.get(name);
    if (handler === undefined) {
        const other = endpoint.elsewhere(name);
        return fail(methodNotFound(other === undefined ? name : `${name} (served on ${other}, not ${endpoint.path})`), name);
    }
    try {
        const result = await handler(params, ctx);
        return { text: encodeJson({ jsonrpc: "2.0", id, result }), record: { method: name } };
    }
    catch (thrown) {
        const e = toRpcError(thrown);
        if (isInternal(e)) {
            ctx.log.error("rpc method failed", {
                path: endpoint.path,
                method: name,
                error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
            });
        }
        return fail(e, name);
    }
}
/**
 * Answer one HTTP body. Never throws: anything unexpected becomes -32603.
 * @param maxBatch largest number of requests in one batch
 */
export async function handleBody(text, endpoint, ctx, maxBatch) {
    const single = (e) => ({
        status: 400,
        body: errorResponse(null, e),
        calls: [{ method: undefined, code: e.code }],
    });
    if (text.trim() === "")
        return single(invalidRequest("empty body"));
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch (e) {
        return single(parseError(e instanceof Error ? e.message : "invalid JSON"));
    }
    if (nestsDeeperThan(parsed, MAX_JSON_DEPTH))
        return single(invalidRequest(`JSON nests deeper than ${MAX_JSON_DEPTH} levels`));
    try {
        if (!Array.isArray(parsed)) {
            const { text: body, record } = await runOne(parsed, endpoint, ctx);
            return { status: record.code === undefined ? 200 : 400, body, calls: [record] };
        }
        if (parsed.length === 0)
            return single(invalidRequest("empty batch"));
        if (parsed.length > maxBatch)
            return single(invalidRequest(`batch of ${parsed.length} requests is larger than the limit of ${maxBatch}`));
        // Sequential: writes in a batch keep their order, as if sent one after another.
        const texts = [];
        const calls = [];
        for (const request of parsed) {
            const { text: t, record } = await runOne(request, endpoint, ctx);
            texts.push(t);
            calls.push(record);
        }
        return { status: 200, body: `[${texts.join(",")}]`, calls };
    }
    catch (thrown) {
        ctx.log.error("rpc envelope failed", {
            error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
        });
        return single(internalError());
    }
}
//# sourceMappingURL=jsonrpc.js.map