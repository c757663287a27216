/** Entry point of `ledgerd-wallet` (bin/ledgerd-wallet imports this file). */
import { readFileSync } from "node:fs";
import { main } from "./commands.js";
process.exitCode = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    readStdin: () => readFileSync(0),
});
//# sourceMappingURL=cli.js.map