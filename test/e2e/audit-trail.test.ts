/**
 * The audit trail end to end: three clients (a bearer-token HTTP client, a 2025-era stdio host
 * and a 2026-07-28 stdio host) make 1,000 calls to three server processes sharing one log,
 * small enough to rotate several times under them; the CLI then verifies it across its files,
 * finds the calls, and names a line cut or edited. No planted secret, file
 * content or command output reaches the log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyStdio, connectModernHttp, connectModernStdio, type TestClient } from '../helpers/clients.js';
import { childEnv, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const TOKEN = 'audit-test-token-5f0c9b2e7d1a4c3b8e6f';
const FILE_CONTENT = 'PLANTED-FILE-CONTENT-7e1d';
const WRITTEN = 'PLANTED-WRITE-CONTENT-93ab';
const CALLS = 1000;
/** The smallest file the config allows, so 1,000 lines rotate several times; nine files hold them all. */
const FILE_BYTES = 64 * 1024;
const KEEP = 8;

let home: string;
let env: NodeJS.ProcessEnv;
let logDir: string;

async function drive(client: TestClient, root: string, count: number, label: string): Promise<void> {
  const call = (i: number) => {
    if (i % 50 === 0) return client.callTool({ name: 'shell.exec', arguments: { command: 'cat', args: [path.join(root, 'secret.txt')] } });
    if (i % 10 === 0)
      return client.callTool({ name: 'fs.write', arguments: { path: path.join(root, `${label}-${i}.txt`), content: WRITTEN, mode: 'overwrite' } });
    if (i % 7 === 0) return client.callTool({ name: 'fs.read', arguments: { path: path.join(home, 'outside.txt') } });
    return client.callTool({ name: 'fs.read', arguments: { path: path.join(root, 'secret.txt') } });
  };
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) => call(i + j));
    await Promise.all(batch);
  }
}

beforeAll(async () => {
  home = makeTempDir();
  const root = path.join(home, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'secret.txt'), FILE_CONTENT);
  fs.writeFileSync(path.join(home, 'outside.txt'), FILE_CONTENT);
  const config = writeJson(path.join(home, 'config.json'), {
    filesystem: { read: true, write: true, roots: [root] },
    shell: { enabled: true, allowedCommands: ['cat'] },
    audit: { maxFileBytes: FILE_BYTES, keepFiles: KEEP },
    profiles: { token: 'Coding' },
  });
  env = childEnv(home, { CHATGPT_MCP_TOKEN: TOKEN });
  logDir = path.join(home, '.config', 'chatgpt-mcp', 'audit');
  const http = await startCliHttp(['--config', config], env);
  const stdioEnv = env as Record<string, string>;
  const clients = await Promise.all([
    connectModernHttp(http.url, TOKEN),
    connectLegacyStdio(['--config', config], stdioEnv),
    connectModernStdio(['--config', config], stdioEnv),
  ]);
  try {
    await Promise.all([drive(clients[0], root, 400, 'http'), drive(clients[1], root, 300, 'legacy'), drive(clients[2], root, 300, 'modern')]);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    http.child.kill('SIGTERM');
  }
}, 180_000);

afterAll(() => removeDir(home));

const logText = () =>
  fs
    .readdirSync(logDir)
    .map((name) => fs.readFileSync(path.join(logDir, name), 'utf8'))
    .join('');

describe('the audit trail', () => {
  it('records every call, from every client, and verify passes', async () => {
    const lines = logText().trimEnd().split('\n');
    expect(lines).toHaveLength(CALLS);
    // Who called, and the profile each one's credential got (the token is bound to Coding; stdio has the active one).
    const clients = lines.map((line) =>
      JSON.stringify((({ client, profile }) => ({ client, profile }))(JSON.parse(line) as { client: unknown; profile: unknown })),
    );
    expect(new Set(clients)).toEqual(
      new Set([
        JSON.stringify({ client: { kind: 'token' }, profile: 'Coding' }),
        JSON.stringify({ client: { kind: 'host', name: 'test-legacy', version: '1.0.0' }, profile: 'Full' }),
        JSON.stringify({ client: { kind: 'host', name: 'test-modern', version: '1.0.0' }, profile: 'Full' }),
      ]),
    );
    const verify = await runCli(['audit', 'verify'], env);
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^ok: 1000 lines in \d+ file\(s\), 3 chain\(s\), none cut or edited/);
  }, 30_000);

  it('rotated under three writers, within the bound', () => {
    const files = fs.readdirSync(logDir).sort();
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(files.length).toBeLessThanOrEqual(KEEP + 1);
    const sizes = files.map((name) => fs.statSync(path.join(logDir, name)).size);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual((KEEP + 1) * FILE_BYTES);
    for (const [i, name] of files.entries()) if (name !== 'audit.jsonl') expect(sizes[i], name).toBeGreaterThanOrEqual(FILE_BYTES);
  }, 30_000);

  it('keeps no secret, file content or command output', () => {
    const text = logText();
    for (const planted of [TOKEN, FILE_CONTENT, WRITTEN]) expect(text).not.toContain(planted);
    expect(text).toContain('"tool":"shell_exec"');
    expect(text).toContain('"outcome":"PATH_NOT_ALLOWED"');
  });

  it('tails, searches and exports', async () => {
    const tail = await runCli(['audit', 'tail', '3'], env);
    expect(tail.code).toBe(0);
    expect(tail.stdout.trimEnd().split('\n')).toHaveLength(3);
    const denied = await runCli(['audit', 'search', 'outcome=PATH_NOT_ALLOWED', 'client=test-legacy', 'limit=500'], env);
    expect(denied.code).toBe(0);
    const shown = denied.stdout.trimEnd().split('\n');
    expect(shown.length).toBeGreaterThan(10);
    for (const line of shown)
      expect(line).toMatch(/ fs_read {2}PATH_NOT_ALLOWED {2}[\d.]+ms {2}by test-legacy 1\.0\.0 \(profile Full\) {2}path=\/.*outside\.txt$/);
    const exported = await runCli(['audit', 'export', 'tool=shell_exec'], env);
    expect(exported.stdout.trimEnd().split('\n')).toHaveLength(CALLS / 50);
    const bad = await runCli(['audit', 'search', 'colour=red'], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/unknown search key "colour": use tool=, client=/);
  }, 30_000);

  it('names the line cut, then the line edited', async () => {
    const file = path.join(logDir, 'audit.1.jsonl');
    const original = fs.readFileSync(file, 'utf8');
    const lines = original.trimEnd().split('\n');
    // A chain's newest lines can be cut unseen (audit-verify.ts says so), and a writer that finished in this file ended
    // its chain here; so the line cut is the first from the middle on whose chain goes on after it.
    const record = (line: string) => JSON.parse(line) as { chain: string; seq: number };
    const newest = new Map<string, number>();
    for (const line of logText().trimEnd().split('\n')) {
      const { chain, seq } = record(line);
      newest.set(chain, Math.max(seq, newest.get(chain) ?? 0));
    }
    const goesOn = (line: string) => record(line).seq < newest.get(record(line).chain)!;
    try {
      const middle = lines.findIndex((line, i) => i >= Math.floor(lines.length / 2) && goesOn(line));
      expect(middle).toBeGreaterThan(0);
      fs.writeFileSync(file, `${lines.filter((_, i) => i !== middle).join('\n')}\n`);
      const cut = await runCli(['audit', 'verify'], env);
      expect(cut.code).toBe(1);
      expect(cut.stderr).toMatch(
        /was changed: audit\.(1\.)?jsonl line \d+: (1 line\(s\) of chain \w+ were cut between audit\.1\.jsonl line \d+ and it|it links to a line that is no longer in the log)/,
      );

      const edited = [...lines];
      edited[middle] = edited[middle]!.replace('"outcome":"', '"outcome":"x');
      fs.writeFileSync(file, `${edited.join('\n')}\n`);
      const changed = await runCli(['audit', 'verify'], env);
      expect(changed.code).toBe(1);
      expect(changed.stderr).toContain(`was changed: audit.1.jsonl line ${middle + 1}: its text does not match its hash (edited)`);
    } finally {
      fs.writeFileSync(file, original);
    }
  }, 30_000);
});

describe('a planted audit log', () => {
  it('stops the server when other users could read or write it, saying what to do', async () => {
    const planted = makeTempDir();
    try {
      const dir = path.join(planted, '.config', 'chatgpt-mcp', 'audit');
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(dir, 'audit.jsonl'), '', { mode: 0o666 });
      fs.chmodSync(path.join(dir, 'audit.jsonl'), 0o666);
      const run = await runCli(['serve', '--http', '--port', '0'], childEnv(planted, { CHATGPT_MCP_TOKEN: TOKEN }));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/the audit log .*audit\.jsonl can be read or written by other users \(mode 666\), so it is not trusted: move it away/);
    } finally {
      removeDir(planted);
    }
  }, 30_000);
});
