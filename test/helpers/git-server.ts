/**
 * The git tools' end-to-end setting: a temp folder holding the owner's git home, a root and a
 * folder outside it (and any others named), a server started on them over the owner's
 * environment, and a client whose `call` answers with the result's text and structured data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { connectModernHttp, textOf } from './clients.js';
import { gitHome, type GitHome } from './git-repos.js';
import { startTestServer } from './servers.js';
import { makeTempDir, removeDir } from './temp.js';

type Places = { base: string; root: string; outside: string } & Record<string, string>;

export interface GitServer {
  places: Places;
  owner: GitHome;
  call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; text: string; data: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startGitServer(config: (places: Places) => Parameters<typeof startTestServer>[0], folders: readonly string[] = []): Promise<GitServer> {
  const base = makeTempDir();
  const owner = gitHome(path.join(base, 'home'));
  const places: Places = { base, root: path.join(base, 'root'), outside: path.join(base, 'outside') };
  for (const name of folders) places[name] = path.join(base, name);
  for (const [name, place] of Object.entries(places)) if (name !== 'base') fs.mkdirSync(place);
  const server = await startTestServer(config(places), { adapter: createLocalAdapter({ env: owner.env }) });
  const client = await connectModernHttp(server.url);
  return {
    places,
    owner,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      return { ...result, text: textOf(result), data: result.structuredContent as Record<string, unknown> };
    },
    async close() {
      await client.close();
      await server.close();
      removeDir(base);
    },
  };
}
