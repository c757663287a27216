/** Entry point of `ledgerd-cluster` (bin/ledgerd-cluster imports this file). */
import { main } from "./commands.js";
process.exitCode = await main(process.argv.slice(2));
//# sourceMappingURL=cli.js.map