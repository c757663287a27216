/** Entry point of `ledgerd-wallet` (bin/ledgerd-wallet imports this file). */
import { readFileSync } from "node:fs";
import { main } from "./commands.js";
import { WalletError } from "./errors.js";

/** Read one line from the terminal without echoing it (stdin in raw mode); Ctrl-C or Ctrl-D gives up. */
function askOnTerminal(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    // echo off before the prompt shows: whatever is typed after it is never echoed
    stdin.setRawMode(true);
    process.stderr.write(prompt);
    stdin.resume();
    let text = "";
    const done = (error?: Error): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          done();
          return;
        }
        if (ch === "\u0003" || ch === "\u0004") {
          done(new WalletError("no passphrase given"));
          return;
        }
        if (ch === "\u007f" || ch === "\b") text = [...text].slice(0, -1).join("");
        else text += ch;
      }
    };
    stdin.on("data", onData);
  });
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  readStdin: () => readFileSync(0),
  ...(process.stdin.isTTY ? { askPassphrase: askOnTerminal } : {}),
});
