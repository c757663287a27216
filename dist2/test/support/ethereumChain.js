/**
 * A real local Ethereum development chain for tests: the npm package `ganache` (no download at run time),
 * served on a loopback port inside the test process, mining a block every `blockTimeSeconds`. The node is
 * pointed at a TCP relay in front of it, which a test can cut (`cut()`: the port refuses connections) and
 * restore (`restore()`: the same port answers again) to make the chain unreachable for a while without
 * losing its state.
 */
import net from "node:net";
import ganache from "ganache";
export class EthereumChain {
    server;
    directPort;
    relayPort;
    relay;
    sockets = new Set();
    constructor(server, 
    /** port of ganache itself */
    directPort, 
    /** port of the relay the node uses */
    relayPort) {
        this.server = server;
        this.directPort = directPort;
        this.relayPort = relayPort;
    }
    static async start(options) {
        const server = ganache.server({
            logging: { quiet: true },
            chain: { chainId: options.chainId },
            miner: { blockTime: options.blockTimeSeconds },
            wallet: {
                accounts: options.fundedKeys.map((secretKey) => ({ secretKey, balance: `0x${(10n ** 21n).toString(16)}` })),
            },
        });
        await new Promise((resolve, reject) => server.listen(0, "127.0.0.1", (e) => (e ? reject(e) : resolve())));
        const directPort = server.address().port;
        const chain = new EthereumChain(server, directPort, 0);
        const relayPort = await chain.openRelay(0);
        chain.relayPort = relayPort;
        return chain;
    }
    /** URL of ganache itself (what a verifier uses). */
    get directUrl() {
        return `http://127.0.0.1:${this.directPort}`;
    }
    /** URL of the relay (what the node uses). */
    get relayUrl() {
        return `http://127.0.0.1:${this.relayPort}`;
    }
    openRelay(port) {
        const relay = net.createServer((client) => {
            const upstream = net.connect(this.directPort, "127.0.0.1");
            this.sockets.add(client).add(upstream);
            const drop = () => {
                client.destroy();
                upstream.destroy();
                this.sockets.delete(client);
                this.sockets.delete(upstream);
            };
            client.on("error", drop).on("close", drop);
            upstream.on("error", drop).on("close", drop);
            client.pipe(upstream).pipe(client);
        });
        this.relay = relay;
        return new Promise((resolve, reject) => {
            relay.once("error", reject);
            relay.listen(port, "127.0.0.1", () => resolve(relay.address().port));
        });
    }
    /** Make the chain unreachable through the relay: close its port and every connection. */
    async cut() {
        const relay = this.relay;
        this.relay = undefined;
        for (const s of this.sockets)
            s.destroy();
        this.sockets.clear();
        if (relay !== undefined)
            await new Promise((r) => relay.close(() => r()));
    }
    /** Answer on the relay port again. */
    async restore() {
        await this.openRelay(this.relayPort);
    }
    /** One JSON-RPC call to ganache directly. */
    async rpc(method, params = []) {
        const res = await fetch(this.directUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        const body = (await res.json());
        if (body.error !== undefined)
            throw new Error(`${method}: ${body.error.message}`);
        return body.result;
    }
    async close() {
        await this.cut();
        await this.server.close();
    }
}
//# sourceMappingURL=ethereumChain.js.map