/**
 * A model calls fs.move on a folder holding a repository at the same moment as a command, through
 * a real client, against a real bwrap: however the two fall, the command never writes the real
 * repository's hooks. Where the move lands between the server's check and bwrap's mounts, the
 * sandbox guard refuses the command (red team round 7 planted a hook this way in 4 runs of 4).
 * Each attempt falls differently; every way must be safe, so the test asserts only that.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { sandboxSupport } from '../../adapter/process/sandbox/support.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const usable = process.platform === 'linux' && sandboxSupport('linux', { PATH }).usable;
// CI installs bubblewrap (.ci/run) and must not skip this file.
const required = process.env.REQUIRE_DESKTOP_TESTS === '1' && process.platform === 'linux';
const ATTEMPTS = 24;

let home: string;
let code: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  if (!usable && !required) return;
  home = fs.realpathSync(makeTempDir('chatgpt-mcp-move-race-'));
  code = path.join(home, 'code');
  fs.mkdirSync(path.join(home, 'server-tmp'));
  execFileSync('git', ['init', '-q', path.join(code, 'a', 'proj')]);
});
afterAll(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  if (home) removeDir(home);
});

describe.skipIf(!usable && !required)('fs.move of a folder holding a repository, beside a command', () => {
  it("never leaves the moved repository's hooks writable to the command", { timeout: 120_000 }, async () => {
    const server = await startTestServer(
      { filesystem: { write: true, roots: [code] }, shell: { enabled: true, allowedCommands: ['sh'], sandbox: 'workspace' } },
      { adapter: createLocalAdapter({ env: { PATH, HOME: home, LANG: 'C.UTF-8', TMPDIR: path.join(home, 'server-tmp') } }) },
    );
    open.push(server);
    const client = await connectModernHttp(server.url);
    open.push(client);
    const move = (from: string, to: string) =>
      client.callTool({ name: 'fs.move', arguments: { source: path.join(code, from), destination: path.join(code, to) } });
    const sh = async (script: string) => {
      const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', script], cwd: code } });
      return result.isError ? { refused: textOf(result) } : (result.structuredContent as { exitCode: number; stdout: string });
    };
    const hook = path.join(code, 'moved', 'proj', '.git', 'hooks', 'pre-commit');
    const outcomes = { ran: 0, refused: 0 };
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const [, outcome] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, attempt % 8)).then(() => move('a', 'moved')),
        sh(`sleep 0.1; echo 'touch planted' > ${hook} 2>/dev/null && echo WROTE`),
      ]);
      expect(fs.existsSync(hook), `attempt ${attempt}: ${JSON.stringify(outcome)}`).toBe(false);
      if ('refused' in outcome) {
        expect(outcome.refused).toMatch(/PRECONDITION_FAILED.*while the command was starting/s);
        outcomes.refused++;
      } else {
        expect(outcome.stdout).not.toContain('WROTE');
        outcomes.ran++;
      }
      // Back as it was, with the model's own tools: what bwrap made at the old place goes first.
      await sh(`rm -rf ${path.join(code, 'a')}`);
      const back = await move('moved', 'a');
      expect(back.isError, textOf(back)).toBeFalsy();
    }
    expect(outcomes.ran + outcomes.refused).toBe(ATTEMPTS);
  });
});
