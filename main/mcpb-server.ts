#!/usr/bin/env node
/** Entry of the Claude Desktop bundle's server (cli/mcpb-serve.ts); bundled beside cli.js, sharing its chunks. */
import { setCliName } from './command-name.js';
import { serveBundle } from './cli/mcpb-serve.js';

/** After the server has stopped: what still holds the event loop must not keep the process alive. */
const EXIT_BACKSTOP_MS = 3000;

setCliName('chatgpt-mcp');
Promise.resolve(serveBundle(process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
  },
  (error: unknown) => {
    process.stderr.write(`chatgpt-mcp: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
