/** How an entry point (cli.ts, mcpb-server.ts) ends: with its command's exit code, and an unexpected failure said once. */

/** After a command has finished: what still holds the event loop (a pipe an escaped grandchild keeps open) must not keep the process alive. */
const EXIT_BACKSTOP_MS = 3000;

export function exitWhenDone(run: number | Promise<number>): void {
  Promise.resolve(run).then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
    },
    (error: unknown) => {
      process.stderr.write(`chatgpt-mcp: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
