/**
 * `config check` shows the owner the checks verify_changes runs, and those the projects in the roots suggest (not run until adopted),
 * and prints a gateway entry's plain-text secrets as <redacted>, with a warning naming where each is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, runCli } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let dir: string;
beforeEach(() => (dir = makeTempDir()));
afterEach(() => removeDir(dir));

describe('config check', () => {
  it('lists the configured checks with their levels, and what other projects suggest', async () => {
    const root = path.join(dir, 'projects');
    fs.mkdirSync(path.join(root, 'web'), { recursive: true });
    fs.mkdirSync(path.join(root, 'tool'));
    fs.writeFileSync(path.join(root, 'web', 'package.json'), JSON.stringify({ scripts: { test: 'vitest run', lint: 'eslint .' } }));
    fs.writeFileSync(path.join(root, 'tool', 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
    const file = writeJson(path.join(dir, 'c.json'), {
      filesystem: { roots: [root] },
      checks: { projects: [{ path: path.join(root, 'web'), checks: { test: ['npm', 'test'], lint: { command: ['npm', 'run', 'lint'], level: 'strict' } } }] },
    });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`checks: ${path.join(root, 'web')} runs test (normal): npm test, lint (strict): npm run lint`);
    expect(run.stderr).toMatch(new RegExp(`checks: ${path.join(root, 'tool')} suggests .*npm test.*\\(not run until you add them to checks\\.projects\\)`));
    expect(run.stderr).not.toContain(`${path.join(root, 'web')} suggests`);
  });

  it("prints a password in an entry's connection string as <redacted>, in the listing and the config, and warns where it is", async () => {
    const dsn = 'postgres://app:hunter2-9f3a@localhost/db';
    const file = writeJson(path.join(dir, 'c.json'), {
      gateway: { servers: [{ name: 'pg', command: 'pg-mcp', args: ['--dsn', dsn, '--port', '5432'], env: { DATABASE_URL: dsn, PGHOST: 'localhost' } }] },
    });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain('hunter2');
    expect(run.stderr).toContain('gateway: pg (pg_*): pg-mcp --dsn postgres://app:<redacted>@localhost/db --port 5432, lazy');
    expect(run.stderr).toMatch(/warning: gateway\.servers "pg": env DATABASE_URL holds what looks like a secret .*gateway set-secret pg\/DATABASE_URL/);
    expect(run.stderr).toMatch(/warning: gateway\.servers "pg": args\[1\] holds what looks like a secret/);
    const printed = JSON.parse(run.stdout) as { gateway: { servers: Array<{ env: Record<string, string>; args: string[] }> } };
    expect(printed.gateway.servers[0]!.env).toEqual({ DATABASE_URL: '<redacted>', PGHOST: 'localhost' });
    expect(printed.gateway.servers[0]!.args).toEqual(['--dsn', 'postgres://app:<redacted>@localhost/db', '--port', '5432']);
    // The file itself is left as the owner wrote it.
    expect(fs.readFileSync(file, 'utf8')).toContain('hunter2-9f3a');
  });
});
