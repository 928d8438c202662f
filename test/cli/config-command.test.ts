/** `config check` shows the owner the checks verify_changes runs, and those the projects in the roots suggest (not run until adopted). */
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
});
