/**
 * `serve --stdio` ends when its host goes away (stdin closed) or on SIGTERM, even when a process
 * under a handle left a grandchild behind that escaped its group (setsid, sandbox off) and still
 * holds the handle's output pipes: those pipes must not keep the server alive.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith } from '../helpers/proc.js';
import { childEnv, CLI } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let home: string;
let config: string;
beforeAll(() => {
  home = makeTempDir();
  fs.mkdirSync(path.join(home, 'root'));
  config = writeJson(path.join(home, 'config.json'), {
    filesystem: { read: true, roots: [path.join(home, 'root')] },
    shell: { enabled: true, allowedCommands: ['sh'], sandbox: 'off' },
    server: { toolNames: 'dotted' },
  });
});
afterAll(() => removeDir(home));

const withMarker = (marker: string) => processesWith(marker).map((p) => p.pid);

/** A stdio server with a handle whose escaped grandchild (`sleep <marker>`) holds the output pipes. */
async function serverWithEscapedGrandchild(marker: string): Promise<ChildProcessWithoutNullStreams> {
  const server = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', config], { env: childEnv(home), stdio: 'pipe' });
  const answers = new Map<number, unknown>();
  let buffered = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end)) as { id: number };
      buffered = buffered.slice(end + 1);
      answers.set(message.id, message);
    }
  });
  const send = (message: Record<string, unknown>) => server.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  const answer = async (id: number) => {
    for (let i = 0; i < 500 && !answers.has(id); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answers.has(id), `answer ${id}`).toBe(true);
  };
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'shutdown-test', version: '1' } } });
  await answer(1);
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name: 'process.start', arguments: { command: 'sh', args: ['-c', `setsid sleep ${marker} & sleep 3600`] } } });
  await answer(2);
  for (let i = 0; i < 100 && withMarker(marker).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(withMarker(marker)).not.toEqual([]);
  return server;
}

function exitWithin(server: ChildProcessWithoutNullStreams, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (server.exitCode !== null) return resolve(server.exitCode);
    const timer = setTimeout(() => reject(new Error(`the server was still running ${ms} ms later`)), ms);
    server.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe.skipIf(process.platform === 'win32')('serve --stdio shuts down', () => {
  it.each([
    ['when the host closes stdin', '3112.71', (server: ChildProcessWithoutNullStreams) => server.stdin.end()],
    ['on SIGTERM', '3112.72', (server: ChildProcessWithoutNullStreams) => server.kill('SIGTERM')],
  ])('%s, though an escaped grandchild still holds a handle’s output pipes', async (_when, marker, stop) => {
    const server = await serverWithEscapedGrandchild(marker);
    try {
      stop(server);
      expect(await exitWithin(server, 10_000)).toBe(0);
    } finally {
      server.kill('SIGKILL');
      for (const pid of withMarker(marker)) process.kill(pid, 'SIGKILL');
    }
  });
});
