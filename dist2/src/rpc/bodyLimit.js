import HyperExpress from "hyper-express";
let installed = false;
/** Install once per process (the patch is on the shared prototype, so it is idempotent). */
export function installJsonBodyLimitAnswer() {
    if (installed)
        return;
    installed = true;
    const proto = HyperExpress.Request.prototype;
    const enforce = proto._body_parser_enforce_limit;
    proto._body_parser_enforce_limit = function (response) {
        if (!response.__jsonRpc413) {
            response.__jsonRpc413 = true;
            const limit = this._body_limit_bytes;
            const send = response.send;
            response.send = function (body) {
                if (this._status_code === 413 && (body === undefined || body === "")) {
                    this.header("Content-Type", "application/json");
                    return send.call(this, JSON.stringify({
                        jsonrpc: "2.0",
                        id: null,
                        error: {
                            code: -32600,
                            message: "Invalid Request",
                            data: `request body exceeds the limit of ${limit} bytes`,
                        },
                    }));
                }
                return send.call(this, body);
            };
        }
        return enforce.call(this, response);
    };
}
//# sourceMappingURL=bodyLimit.js.map