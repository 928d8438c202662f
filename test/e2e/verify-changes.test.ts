/**
 * verify_changes and git.commit_verified end to end, on a small npm project in a git repository:
 * its checks (npm test, a lint script) run as the owner configured them, in the command sandbox;
 * a failing test keeps git.commit_verified from committing, and so do unrelated staged changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { git, gitHome, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let base: string;
let project: string;
let owner: GitHome;
let server: TestHttpServer;
const clients: Record<string, TestClient> = {};

const PACKAGE = {
  name: 'tiny',
  version: '1.0.0',
  private: true,
  scripts: { test: 'node test.js', lint: 'node lint.js', build: 'node -e "process.exit(0)"' },
};
/** The test passes while sum.js adds. */
const TEST =
  "const sum = require('./sum.js');\nif (sum(2, 3) !== 5) { console.error('FAIL: sum(2, 3) is ' + sum(2, 3)); process.exit(1); }\nconsole.log('ok 1 - sum adds');\n";
const LINT = "console.log('lint clean');\n";

beforeAll(async () => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  project = makeRepo(owner, path.join(base, 'root', 'tiny'), {
    'package.json': JSON.stringify(PACKAGE, null, 2),
    'test.js': TEST,
    'lint.js': LINT,
    'sum.js': 'module.exports = (a, b) => a + b;\n',
  });
  server = await startTestServer(
    {
      filesystem: { write: true, roots: [path.join(base, 'root')] },
      git: { read: true, write: true },
      checks: { projects: [{ path: project, checks: { lint: ['npm', 'run', 'lint'], test: ['npm', 'test'], build: ['npm', 'run', 'build'] } }] },
    },
    { adapter: createLocalAdapter({ env: { ...owner.env, npm_config_update_notifier: 'false' } }) },
  );
  clients.modern = await connectModernHttp(server.url);
  clients.legacy = await connectLegacyHttp(server.url);
}, 60_000);

afterAll(async () => {
  for (const client of Object.values(clients)) await client.close();
  await server?.close();
  removeDir(base);
});

describe.each(['modern', 'legacy'])('%s client', (kind) => {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await clients[kind]!.callTool({ name, arguments: args });
    return { ...result, text: textOf(result) };
  };

  it('verify_changes passes, level by level', async () => {
    const fast = await call('verify_changes', { path: project, level: 'fast' });
    expect(fast.isError, fast.text).toBeFalsy();
    expect(fast.structuredContent).toMatchObject({
      project,
      level: 'fast',
      passed: true,
      checks: [{ name: 'lint', passed: true, exitCode: 0 }],
      skipped: ['test', 'build'],
    });
    const normal = await call('verify_changes', { path: path.join(project, 'node_modules-does-not-matter') });
    expect(normal.structuredContent).toMatchObject({ level: 'normal', passed: true, skipped: ['build'] });
    const test = (normal.structuredContent!.checks as Array<Record<string, unknown>>).find((c) => c.name === 'test')!;
    expect(test.stdoutTail).toContain('ok 1 - sum adds');
    // A passed check's output is in the text too (warnings of a passing lint matter).
    expect(normal.text).toContain('ok 1 - sum adds');
    const strict = await call('verify_changes', { path: project, level: 'strict' });
    expect((strict.structuredContent!.checks as unknown[]).length).toBe(3);
  });

  it('verify_changes reports a failing test with the end of its output', async () => {
    writeFiles(project, { 'sum.js': 'module.exports = (a, b) => a - b;\n' });
    try {
      const failed = await call('verify_changes', { path: project, checks: ['test'] });
      expect(failed.isError).toBeFalsy();
      expect(failed.structuredContent).toMatchObject({ passed: false, checks: [{ name: 'test', passed: false, exitCode: 1, timedOut: false }] });
      expect(failed.text).toMatch(/Checks failed .*test FAILED \(exit 1/);
      expect(failed.text).toContain('FAIL: sum(2, 3) is -1');
    } finally {
      writeFiles(project, { 'sum.js': 'module.exports = (a, b) => a + b;\n' });
    }
  });

  it('git.commit_verified does not commit when a check fails, and stages nothing', async () => {
    const head = git(owner, project, ['rev-parse', 'HEAD']);
    writeFiles(project, { 'sum.js': 'module.exports = (a, b) => a * b;\n' });
    const result = await call('git.commit_verified', { path: project, paths: ['sum.js'], message: 'multiply' });
    expect(result.isError, result.text).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ committed: false, verification: { passed: false } });
    expect(result.text).toMatch(/^Not committed/);
    expect(git(owner, project, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(owner, project, ['diff', '--cached', '--name-only'])).toBe('');
  });

  it('git.commit_verified refuses when unrelated changes are staged', async () => {
    writeFiles(project, { 'sum.js': 'module.exports = (a, b) => b + a;\n', 'lint.js': "console.log('lint clean!');\n" });
    git(owner, project, ['add', 'lint.js']);
    try {
      const result = await call('git.commit_verified', { path: project, paths: ['sum.js'], message: 'swap' });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^PRECONDITION_FAILED: the index already holds staged changes this call did not name \(lint\.js\)/);
    } finally {
      git(owner, project, ['reset', '-q', 'lint.js']);
      git(owner, project, ['checkout', '--', 'lint.js']);
    }
  });

  it('git.commit_verified refuses a named path with nothing to commit (unchanged, or no such path) before running any check', async () => {
    const marker = path.join(path.dirname(project), `ran-${kind}.txt`);
    writeFiles(project, { 'test.js': `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n${TEST}` });
    git(owner, project, ['commit', '-q', '-am', `a test that leaves a mark (${kind})`]);
    for (const paths of [['package.json'], ['nope.js']]) {
      const result = await call('git.commit_verified', { path: project, paths, message: 'nothing' });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        new RegExp(`^PRECONDITION_FAILED: nothing to commit under ${paths[0]!.replace('.', '\\.')}: no change there \\(or no such path\\)`),
      );
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('git.commit_verified commits exactly the named paths when the checks pass', async () => {
    writeFiles(project, { 'sum.js': `module.exports = (a, b) => a + b; // ${kind}\n`, 'notes.txt': 'not committed\n' });
    const result = await call('git.commit_verified', { path: project, paths: ['sum.js'], message: `tidy sum (${kind})`, level: 'fast' });
    expect(result.isError, result.text).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      committed: true,
      branch: 'main',
      commit: { subject: `tidy sum (${kind})` },
      verification: { passed: true },
    });
    expect(git(owner, project, ['show', '--name-only', '--format=', 'HEAD'])).toBe('sum.js\n');
    expect(git(owner, project, ['status', '--porcelain'])).toBe('?? notes.txt\n');
    fs.rmSync(path.join(project, 'notes.txt'));
  });

  it('git.commit_verified commits nothing when a check (rewritten by the model) stages a path it did not name', async () => {
    const head = git(owner, project, ['rev-parse', 'HEAD']);
    writeFiles(project, {
      'sum.js': `module.exports = (a, b) => a + b; // smuggled (${kind})\n`,
      'extra.txt': 'smuggled\n',
      'lint.js': "require('child_process').execFileSync('git', ['add', 'extra.txt']);\nconsole.log('lint clean');\n",
    });
    try {
      const result = await call('git.commit_verified', { path: project, paths: ['sum.js'], message: 'smuggle' });
      expect(result.text).toMatch(
        /^PRECONDITION_FAILED: the index holds changes this call did not name \(extra\.txt\), staged while it ran: nothing was committed/,
      );
      expect(git(owner, project, ['rev-parse', 'HEAD'])).toBe(head);
    } finally {
      git(owner, project, ['reset', '-q']);
      git(owner, project, ['checkout', '--', 'lint.js', 'sum.js']);
      fs.rmSync(path.join(project, 'extra.txt'));
    }
  });

  it('refuses a folder outside the configured projects, and unknown check names', async () => {
    const outside = await call('verify_changes', { path: base });
    expect(outside.isError).toBe(true);
    const unknown = await call('verify_changes', { path: project, checks: ['deploy'] });
    expect(unknown.text).toMatch(/deploy: not a check of .* \(its checks: lint: npm run lint, test: npm test, build: npm run build\)/);
  });
});

describe('a host that reads the text and structuredContent both (ChatGPT)', () => {
  it("reads each check's output once, in the text", async () => {
    const chatgpt = new Client({ name: 'openai-mcp', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await chatgpt.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    writeFiles(project, { 'sum.js': 'module.exports = (a, b) => a - b;\n' });
    try {
      const result = await chatgpt.callTool({ name: 'verify_changes', arguments: { path: project, checks: ['test', 'lint'] } });
      const both = JSON.stringify([result.content, result.structuredContent]);
      expect(both.split('FAIL: sum(2, 3) is -1').length - 1).toBe(1);
      expect(both.split('lint clean').length - 1).toBe(1);
      const checks = (result.structuredContent as { checks: Array<Record<string, unknown>> }).checks;
      expect(checks.map((c) => [c.name, c.passed, 'stdoutTail' in c]).sort()).toEqual([
        ['lint', true, false],
        ['test', false, false],
      ]);
    } finally {
      writeFiles(project, { 'sum.js': 'module.exports = (a, b) => a + b;\n' });
      await chatgpt.close();
    }
  });
});
