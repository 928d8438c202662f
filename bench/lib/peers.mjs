/**
 * Where the bench finds what it runs: this checkout (the working directory of every server it
 * spawns), the bare-SDK stdio server and the official filesystem server, and the grants the
 * stdio rows give ours.
 */
import path from 'node:path';

export const REPO = new URL('../../', import.meta.url).pathname;
const BARE_STDIO = new URL('./bare-stdio-server.mjs', import.meta.url).pathname;
const OFFICIAL_FS = path.join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** [command, args] of the bare-SDK stdio server serving `tools`. */
export const bareStdio = (...tools) => [process.execPath, [BARE_STDIO, ...tools]];

/** [command, args] of @modelcontextprotocol/server-filesystem sharing `dir`. */
export const officialFs = (dir) => [process.execPath, [OFFICIAL_FS, dir]];

/** The stdio rows' grants for ours: scenario 2's plus echo. The sandbox is off: scenario 5 measures it. */
export const stdioGrants = (dir) => ({
  filesystem: { read: true, roots: [dir] },
  shell: { enabled: true, allowedCommands: ['true', 'echo'], sandbox: 'off' },
});
