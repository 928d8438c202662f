#!/usr/bin/env node
/** Entry of the Claude Desktop bundle's server (cli/mcpb-serve.ts); bundled beside cli.js, sharing its chunks. */
import { setCliName } from './command-name.js';
import { serveBundle } from './cli/mcpb-serve.js';
import { exitWhenDone } from './cli/exit-when-done.js';

setCliName('chatgpt-mcp');
exitWhenDone(serveBundle(process.argv.slice(2)));
