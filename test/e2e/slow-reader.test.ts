/**
 * A client that stops reading while commands with big outputs are in flight: the server must
 * stop starting commands until the earlier answers are read, then finish every call, so its
 * memory follows the limits and not the number of calls (bench/scenarios/big-outputs.mjs
 * measures it). Over stdio (the built CLI on raw pipes, so the test decides when stdout is read)
 * and over HTTP (a connection per call, each response left unread).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN_HEADERS, modernRequest } from '../helpers/raw-rpc.js';
import { childEnv, CLI, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const MAX_CONCURRENT = 2;

interface Answer {
  result?: { structuredContent?: { exitCode: number; stdout: string } };
  error?: unknown;
}

let home: string;
let starts: string;
let emit: string;

beforeAll(() => {
  home = makeTempDir();
  fs.mkdirSync(path.join(home, 'root'));
  starts = path.join(home, 'starts.log');
  // One line in starts.log per run, then `$1` bytes of text.
  emit = path.join(home, 'emit');
  const text = path.join(home, 'text.txt');
  fs.writeFileSync(text, 'all work and no play\n'.repeat((16 * 1024 * 1024) / 16));
  fs.writeFileSync(emit, `#!/bin/sh\necho started >> '${starts}'\nexec head -c "$1" '${text}'\n`, { mode: 0o755 });
});
afterAll(() => removeDir(home));

const shellConfig = (outputBytes: number) => ({
  filesystem: { read: true, roots: [path.join(home, 'root')] },
  shell: { enabled: true, allowedCommands: [emit], sandbox: 'off' as const, maxOutputBytes: outputBytes, maxConcurrent: MAX_CONCURRENT },
  // No answer budget: what this test holds unread is the whole output, not an answer cut to fit a model.
  server: { toolNames: 'dotted' as const, answerBudgetTokens: 0 },
});
const callEmit = (outputBytes: number) => ({ name: 'shell.exec', arguments: { command: emit, args: [String(outputBytes)] } });
const started = () => (fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0);

async function until(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** While nothing is read: the first commands start, and no more do in a time in which all could have. */
async function expectHeldBack(calls: number): Promise<void> {
  await until(() => started() >= MAX_CONCURRENT);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(started()).toBeLessThanOrEqual(MAX_CONCURRENT + 1);
  expect(started()).toBeLessThan(calls);
}

function expectAllAnswered(answers: Answer[], outputBytes: number): void {
  expect(started()).toBe(answers.length);
  for (const answer of answers) {
    expect(answer.error).toBeUndefined();
    expect(answer.result?.structuredContent?.exitCode).toBe(0);
    expect(answer.result?.structuredContent?.stdout.length).toBe(outputBytes);
  }
}

describe('a host that stops reading stdout', () => {
  const OUTPUT = 256 * 1024;
  const CALLS = 10;
  let server: ChildProcessWithoutNullStreams;
  const answers = new Map<number, Answer>();
  const send = (message: Record<string, unknown>) => server.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');

  beforeAll(async () => {
    fs.rmSync(starts, { force: true });
    const config = writeJson(path.join(home, 'config.json'), shellConfig(OUTPUT));
    server = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', config], { env: childEnv(home), stdio: 'pipe' });
    let buffered = '';
    server.stdout.setEncoding('utf8');
    server.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        answers.set(message.id, message);
      }
    });
    send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow-reader', version: '1' } } });
    await until(() => answers.has(0));
    send({ method: 'notifications/initialized' });
  });
  afterAll(() => void server?.kill());

  it('gets no new commands started until it reads, then every answer', async () => {
    server.stdout.pause();
    for (let id = 1; id <= CALLS; id++) send({ id, method: 'tools/call', params: callEmit(OUTPUT) });
    await expectHeldBack(CALLS);
    server.stdout.resume();
    const ids = Array.from({ length: CALLS }, (_, i) => i + 1);
    await until(() => ids.every((id) => answers.has(id)));
    expectAllAnswered(
      ids.map((id) => answers.get(id)!),
      OUTPUT,
    );
  });
});

describe('HTTP clients that leave their responses unread', () => {
  // Bigger than a loopback socket's kernel buffers, so unread answers stay in the server.
  const OUTPUT = 8 * 1024 * 1024;
  const CALLS = 6;
  let server: TestHttpServer;
  beforeAll(async () => {
    fs.rmSync(starts, { force: true });
    server = await startTestServer(shellConfig(OUTPUT));
  });
  afterAll(() => server?.close());

  it('get no new commands started until they read, then every answer', async () => {
    const responses: http.IncomingMessage[] = [];
    const bodies = Array.from(
      { length: CALLS },
      (_, i) =>
        new Promise<Answer>((resolve, reject) => {
          const request = http.request(server.url, {
            method: 'POST',
            agent: false,
            headers: { ...MODERN_HEADERS, 'mcp-method': 'tools/call', 'mcp-name': 'shell.exec' },
          });
          request.on('error', reject);
          request.on('response', (response) => {
            response.pause();
            responses.push(response);
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          });
          request.end(modernRequest(i + 1, 'tools/call', callEmit(OUTPUT)));
        }),
    );
    await expectHeldBack(CALLS);
    const resumeAll = setInterval(() => responses.forEach((response) => response.resume()), 20);
    try {
      expectAllAnswered(await Promise.all(bodies), OUTPUT);
    } finally {
      clearInterval(resumeAll);
    }
  });
});
