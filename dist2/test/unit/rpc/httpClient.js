/**
 * A raw HTTP/HTTPS client for the RPC tests: any verb, any headers, a body on GET, chunked bodies —
 * things fetch() does not allow. Answers keep the status, headers and exact body text.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
/** Send one request to `base` (e.g. http://127.0.0.1:8088). */
export function rawRequest(base, req) {
    const url = new URL(req.path ?? "/v2", base);
    const body = typeof req.body === "string" ? Buffer.from(req.body, "utf8") : req.body;
    const headers = { ...(req.headers ?? {}) };
    if (body !== undefined && req.chunkBytes === undefined)
        headers["Content-Length"] = String(body.length);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
        const r = send(url, { method: req.method ?? "POST", headers, agent: false, ...(req.ca !== undefined ? { ca: req.ca } : {}) }, (res) => {
            const chunks = [];
            res.on("data", (c) => chunks.push(c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
            res.on("error", reject);
        });
        r.on("error", reject);
        if (body !== undefined && req.chunkBytes !== undefined) {
            for (let i = 0; i < body.length; i += req.chunkBytes)
                r.write(body.subarray(i, i + req.chunkBytes));
            r.end();
        }
        else {
            r.end(body);
        }
    });
}
/** POST one JSON-RPC request object (or any JSON value) and parse the answer. */
export async function rpc(base, method, params, options = {}) {
    const request = { jsonrpc: "2.0", id: options.id ?? 1, method };
    if (params !== undefined)
        request.params = params;
    return rawJson(base, { path: options.path ?? "/v2", body: JSON.stringify(request), headers: options.headers });
}
/** Send a raw request and parse the JSON answer. */
export async function rawJson(base, req) {
    const answer = await rawRequest(base, {
        ...req,
        headers: { "Content-Type": "text/plain;", ...(req.headers ?? {}) },
    });
    return { ...answer, json: JSON.parse(answer.text) };
}
//# sourceMappingURL=httpClient.js.map