/**
 * The built server over stdio, driven by the v1 client as hosts drive it: a listener the test
 * opens is in system.ports with its pid, a secret planted in the server's own environment
 * is shown by name only, and a Go install put first on its PATH is listed with the version its
 * files say (the program is a script that would fail if it were run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyStdio, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const SECRET = 'stdio-planted-secret-5e1d';
let home: string;
let client: TestClient;
let listener: ChildProcess | undefined;

beforeAll(async () => {
  home = makeTempDir();
  const config = writeJson(path.join(home, 'config.json'), { system: { inventory: true } });
  fs.mkdirSync(path.join(home, 'goroot', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(home, 'goroot', 'bin', 'go'), '#!/bin/sh\nexit 99\n', { mode: 0o755 });
  fs.writeFileSync(path.join(home, 'goroot', 'VERSION'), 'go1.23.2\n');
  const env = childEnv(home, { SERVICE_API_KEY: SECRET, OPENAI_API_KEY: SECRET });
  env.PATH = `${path.join(home, 'goroot', 'bin')}${path.delimiter}${env.PATH ?? ''}`;
  client = await connectLegacyStdio(['--config', config], env as Record<string, string>);
}, 30_000);

afterAll(async () => {
  listener?.kill();
  await client?.close();
  removeDir(home);
});

describe.skipIf(process.platform === 'win32')('inventory tools through stdio and the v1 client', () => {
  it('finds a TCP listener the test opened, with its pid', async () => {
    listener = spawn(process.execPath, ['-e', "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => console.log(s.address().port))"], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(listener.stdout!, 'data')) as [Buffer];
    const port = Number(line.toString().trim());
    const result = await client.callTool({ name: 'system.ports', arguments: { protocol: 'tcp', port } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { sockets: unknown[] }).sockets).toEqual([expect.objectContaining({ port, pid: listener.pid, state: 'LISTEN' })]);
    expect(textOf(result)).toContain(`127.0.0.1:${port} LISTEN pid ${listener.pid}`);
  });

  it("names the server's secret variables without their values", async () => {
    const result = await client.callTool({ name: 'system.environment', arguments: {} });
    expect((result.structuredContent as { names: string[] }).names).toEqual(expect.arrayContaining(['SERVICE_API_KEY', 'OPENAI_API_KEY']));
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(textOf(result)).toContain(`HOME=${home}`);
  });

  it('lists a runtime on PATH with the version its install says, without running it', async () => {
    const result = await client.callTool({ name: 'system.environment', arguments: {} });
    const go = path.join(home, 'goroot', 'bin', 'go');
    expect((result.structuredContent as { programs: unknown[] }).programs).toContainEqual({ name: 'go', path: go, version: '1.23.2' });
    expect(textOf(result)).toContain(`go 1.23.2 ${go}`);
  });
});
