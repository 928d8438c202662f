/**
 * `chatgpt-mcp gateway add` through the built CLI: a pasted entry becomes one in the config file
 * as written on disk (no variable or flag applied), all or nothing; a secret reference never names
 * a secret stored already; `--dry-run` checks as the real add does and writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE, gatewayHome, nodeUpstream, type GatewayHome } from '../helpers/gateway.js';
import { CLI, runCli } from '../helpers/servers.js';

let home: GatewayHome;
beforeAll(() => {
  home = gatewayHome();
});
afterAll(() => home?.remove());

const cli = (...args: string[]) => runCli([...args, '--config', home.configFile], home.env, 30_000);

describe('chatgpt-mcp gateway add', () => {
  it('puts a pasted entry into the config file as written, secrets left behind, and refuses a name taken', async () => {
    home.write({ gateway: { servers: [nodeUpstream('kit', FIXTURE)] } });
    const pasted = JSON.stringify({ mcpServers: { notes: { command: 'node', args: [FIXTURE], env: { NOTES_TOKEN: 'hunter2-secret-value', MODE: 'ro' } } } });
    // The token in the environment applies to this run only: it must not land in the file.
    const env = { ...home.env, CHATGPT_MCP_TOKEN: 'env-token-0123456789abcdef0123456789' };
    const added = await runCli(['gateway', 'add', '--config', home.configFile], env, 30_000, pasted);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain('note: notes: store NOTES_TOKEN as notes/NOTES_TOKEN under "Secrets"');
    expect(added.stderr).toContain(`added notes to ${home.configFile} (rewritten with every setting in effect, owner-only); nothing started`);
    const file = fs.readFileSync(home.configFile, 'utf8');
    expect(JSON.parse(file).gateway.servers.map((s: { name: string }) => s.name)).toEqual(['kit', 'notes']);
    expect(JSON.parse(file).gateway.servers[1]).toMatchObject({ command: 'node', env: { NOTES_TOKEN: { secret: 'notes/NOTES_TOKEN' }, MODE: 'ro' } });
    for (const secret of ['hunter2', 'env-token']) expect(file + added.stdout + added.stderr).not.toContain(secret);
    expect(fs.statSync(home.configFile).mode & 0o777).toBe(0o600);
    const again = await runCli(['gateway', 'add', '--config', home.configFile], home.env, 30_000, pasted);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('nothing added: gateway.servers has a server named "notes" already');
    expect(fs.readFileSync(home.configFile, 'utf8')).toBe(file);
  });

  it('--dry-run writes nothing, an entry the config would refuse adds nothing, and --dry-run elsewhere is refused', async () => {
    home.write({ gateway: { servers: [] } });
    const before = fs.readFileSync(home.configFile, 'utf8');
    const dry = await runCli(['gateway', 'add', '--dry-run', '--config', home.configFile], home.env, 30_000, '[mcp_servers.docs]\ncommand = "docs-server"\n');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual([{ name: 'docs', prefix: 'docs', command: 'docs-server' }]);
    expect(dry.stderr).toContain('would add docs to');
    const bad = await runCli(
      ['gateway', 'add', '--config', home.configFile],
      home.env,
      30_000,
      '{"pre": {"command": "srv", "env": {"LD_PRELOAD": "/tmp/x.so"}}}',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nothing added: Invalid configuration, nothing was written:\n');
    expect(bad.stderr).toContain('gateway.servers.0.env');
    const dryBad = await runCli(
      ['gateway', 'add', '--dry-run', '--config', home.configFile],
      home.env,
      30_000,
      '{"pre": {"command": "srv", "env": {"LD_PRELOAD": "/tmp/x.so"}}}',
    );
    expect(dryBad.code).toBe(2);
    expect(dryBad.stderr).toContain('nothing added: Invalid configuration, it would not be added:\n');
    const garbage = await runCli(['gateway', 'add', '--config', home.configFile], home.env, 30_000, 'not an entry');
    expect(garbage.stderr).toContain('nothing added: This is neither JSON nor TOML');
    expect(fs.readFileSync(home.configFile, 'utf8')).toBe(before);
    const elsewhere = await cli('undo', 'list', '--dry-run');
    expect(elsewhere.code).toBe(64);
    expect(elsewhere.stderr).toContain('--dry-run goes with "gateway add" only');
  });

  it('a reference never names a secret stored already: the token stored for another server is not sent to the pasted url', async () => {
    home.write({ gateway: { servers: [] } });
    home.storeSecrets({ 'github/token': 'ghp_owners-real-token-0123456789', 'github/token-2': 'also-taken' });
    const pasted = '{"github": {"url": "https://attacker.example/mcp", "headers": {"Authorization": "Bearer ${input:pat}"}}}';
    const added = await runCli(['gateway', 'add', '--config', home.configFile], home.env, 30_000, pasted);
    expect(added.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(home.configFile, 'utf8')).gateway.servers[0].bearerToken).toEqual({ secret: 'github/token-3' });
    expect(added.stderr).toContain('the secret name github/token is taken');
    expect(added.stderr + added.stdout).not.toContain('ghp_owners');
    // Not stored yet, but another entry refers to it (a config copied from another machine): taken all the same.
    home.write({ gateway: { servers: [{ name: 'gh-work', url: 'https://api.example/mcp', bearerToken: { secret: 'hub/token' } }] } });
    const again = await runCli(['gateway', 'add', '--config', home.configFile], home.env, 30_000, pasted.replace('"github"', '"hub"'));
    expect(again.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(home.configFile, 'utf8')).gateway.servers[1].bearerToken).toEqual({ secret: 'hub/token-2' });
  });

  it('a config file that cannot be read, or written, adds nothing and says why', async () => {
    const blocker = path.join(home.home, 'not-a-folder');
    fs.writeFileSync(blocker, '');
    const unread = await runCli(['gateway', 'add', '--config', path.join(blocker, 'config.json')], home.env, 30_000, '{"a": {"command": "x"}}');
    expect(unread.code).toBe(2);
    expect(unread.stderr).toContain('nothing added: Cannot read config file');
    // Nobody, root included, makes a file in /proc: the write fails after everything else passed.
    if (process.platform !== 'linux') return;
    const unwritten = await runCli(['gateway', 'add', '--config', '/proc/self/chatgpt-mcp-config.json'], home.env, 30_000, '{"a": {"command": "x"}}');
    expect(unwritten.code).toBe(2);
    expect(unwritten.stderr).toMatch(/nothing added: cannot write \/proc\/self\/chatgpt-mcp-config\.json \([A-Z]+\)/);
  });
});

describe('gateway add, given far too much', () => {
  it('stops reading a stream that never ends, adds nothing and says why', async () => {
    home.write({ gateway: { servers: [] } });
    const before = fs.readFileSync(home.configFile, 'utf8');
    const started = Date.now();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'gateway', 'add', '--config', home.configFile], { env: home.env });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.stdin.on('error', () => {});
      // Written until the command stops reading: an endless paste.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (child.stdin.writable && child.stdin.write(chunk));
        if (child.stdin.writable) child.stdin.once('drain', pump);
      };
      pump();
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/nothing added: what came on stdin is over 4194304 bytes.*an entry is at most 1048576 characters/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(fs.readFileSync(home.configFile, 'utf8')).toBe(before);
  });
});
