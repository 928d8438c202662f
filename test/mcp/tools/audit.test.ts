/**
 * audit.recent and audit.search through a real stdio server (the host gives them the log): they
 * answer only when audit.tools is on, with redacted lines, oldest first, naming the caller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyStdio, textOf, type TestClient } from '../../helpers/clients.js';
import { childEnv } from '../../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../../helpers/temp.js';

const CONTENT = 'FILE-CONTENT-NEVER-IN-THE-LOG-31c2';

let home: string;
let root: string;
let client: TestClient;

beforeAll(async () => {
  home = makeTempDir();
  root = path.join(home, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'a.txt'), CONTENT);
  const config = writeJson(path.join(home, 'config.json'), { filesystem: { read: true, roots: [root] }, audit: { tools: true } });
  client = await connectLegacyStdio(['--config', config], childEnv(home) as Record<string, string>);
  await client.callTool({ name: 'fs.read', arguments: { path: path.join(root, 'a.txt') } });
  await client.callTool({ name: 'fs.read', arguments: { path: path.join(home, 'config.json') } });
  await client.callTool({ name: 'fs.list', arguments: {} });
}, 30_000);

afterAll(async () => {
  await client?.close();
  removeDir(home);
});

type Calls = { calls: Array<{ tool: string; outcome: string; target: string; client: unknown }>; more: boolean };

describe('the audit tools', () => {
  it('audit.recent: the last calls, oldest first, redacted, naming the host', async () => {
    const result = await client.callTool({ name: 'audit.recent', arguments: { limit: 2 } });
    const { calls, more } = result.structuredContent as Calls;
    expect(calls.map((c) => `${c.tool} ${c.outcome}`)).toEqual(['fs_read PATH_NOT_ALLOWED', 'fs_list ok']);
    expect(more).toBe(true);
    expect(calls[0]!.client).toEqual({ kind: 'host', name: 'test-legacy', version: '1.0.0' });
    expect(JSON.stringify(result)).not.toContain(CONTENT);
  });

  it('audit.search: by outcome, tool and words; a bad date is INVALID_INPUT', async () => {
    const denied = (await client.callTool({ name: 'audit.search', arguments: { outcome: 'path_not_allowed' } })).structuredContent as Calls;
    expect(denied.calls).toHaveLength(1);
    expect(denied.calls[0]!.target).toBe(`path=${path.join(home, 'config.json')}`);
    const byWords = (await client.callTool({ name: 'audit.search', arguments: { tool: 'fs.read', words: ['a.txt'] } })).structuredContent as Calls;
    expect(byWords.calls.map((c) => c.outcome)).toEqual(['ok']);
    const bad = await client.callTool({ name: 'audit.search', arguments: { since: 'yesterday' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/INVALID_INPUT.*since "yesterday" is not a date or time: use ISO 8601/);
  });

  it('are not offered without audit.tools', async () => {
    const plain = await connectLegacyStdio(
      ['--config', writeJson(path.join(home, 'plain.json'), { filesystem: { read: true, roots: [root] } })],
      childEnv(home) as Record<string, string>,
    );
    try {
      const names = (await plain.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('audit.recent');
      const refused = await plain.callTool({ name: 'audit.recent', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/audit\.tools/);
    } finally {
      await plain.close();
    }
  });
});
