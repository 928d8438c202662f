/**
 * MCP Apps negotiation: a tool's view is named in tools/list only to clients that declare the
 * extension (modern and legacy, over HTTP); the view is a `ui://` resource of the MCP Apps
 * type, self-contained under a strict CSP, with the exposed name of the tool it calls.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN } from '../helpers/clients.js';
import fs from 'node:fs';
import path from 'node:path';
import { childEnv, CLI, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { APPS_CAPABILITIES } from '../helpers/view-host.js';
import { DESKTOP_ON, DESKTOP_TOOLS } from '../adapter/desktop/fixtures/desktop-server.js';

const APPS = APPS_CAPABILITIES;
const VIEW = 'ui://chatgpt-mcp/screenshot.html';

type Listed = { tools: Array<{ name: string; _meta?: Record<string, unknown> }> };
type Lister = { listTools(): Promise<unknown>; readResource(params: { uri: string }): Promise<unknown>; close(): Promise<void> };

async function modern(url: string, apps: boolean): Promise<Lister> {
  const client = new Client(
    { name: 'apps-host', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } }, ...(apps ? { capabilities: APPS } : {}) },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client as unknown as Lister;
}

/** The legacy handshake over stdio: one server for the connection, which remembers `initialize`. */
async function legacy(home: string, apps: boolean): Promise<Lister> {
  const config = path.join(home, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ ...DESKTOP_ON, server: { logLevel: 'silent' } }));
  const client = new V1Client({ name: 'apps-host-v1', version: '1.0.0' }, apps ? { capabilities: APPS as never } : {});
  const env = childEnv(home) as Record<string, string>;
  await client.connect(new V1StdioTransport({ command: process.execPath, args: [CLI, 'serve', '--stdio', '--config', config], env, stderr: 'pipe' }));
  return client as unknown as Lister;
}

const metaOf = async (client: Lister, name: string) => ((await client.listTools()) as Listed).tools.find((t) => t.name === name)?._meta;

describe('MCP Apps views', () => {
  let server: TestHttpServer;
  let home: string;
  beforeAll(async () => {
    home = makeTempDir('views-');
    server = await startTestServer({ ...DESKTOP_ON, server: { toolNames: 'underscore' } }, { tools: DESKTOP_TOOLS });
  });
  afterAll(async () => {
    await server?.close();
    removeDir(home);
  });

  for (const [era, connect] of [
    ['2026-07-28 over HTTP', (apps: boolean) => modern(server.url, apps)],
    ['legacy initialize over stdio', (apps: boolean) => legacy(home, apps)],
  ] as const) {
    it(`names the screenshot view only to clients that declare MCP Apps (${era})`, async () => {
      const host = await connect(true);
      const other = await connect(false);
      try {
        expect(await metaOf(host, 'screen_capture')).toEqual({ ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW });
        expect(await metaOf(other, 'screen_capture')).toBeUndefined();
        // Tools without a view are listed alike for both.
        expect(await metaOf(host, 'input_click')).toBeUndefined();
        const withoutMeta = (listed: Listed) => listed.tools.map(({ _meta, ...tool }) => tool);
        expect(withoutMeta((await host.listTools()) as Listed)).toEqual(withoutMeta((await other.listTools()) as Listed));
      } finally {
        await host.close();
        await other.close();
      }
    });
  }

  it('serves the view as a self-contained MCP App under a strict CSP, calling the click tool by its exposed name', async () => {
    const host = await modern(server.url, true);
    try {
      const read = (await host.readResource({ uri: VIEW })) as { contents: Array<{ uri: string; mimeType: string; text: string }> };
      const [page] = read.contents;
      expect(page).toMatchObject({ uri: VIEW, mimeType: 'text/html;profile=mcp-app' });
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page!.text)?.[1] ?? '';
      expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; img-src data:/);
      // Nothing loaded from elsewhere: no script or style file, no link (the CSP would refuse them anyway).
      expect(page!.text).not.toMatch(/<script[^>]+src=|<link\b|@import/i);
      expect(page!.text).toMatch(/<script type="application\/json" id="view-config">\s*\{"click":"input_click"\}\s*<\/script>/);
    } finally {
      await host.close();
    }
  });
});
