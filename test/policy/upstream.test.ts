/**
 * An upstream's rules: exclusions, annotations filled cautiously and overridden by the owner,
 * path arguments found by schema and name and checked against its folders (read-only folders
 * refuse writes), and the plan it starts from: the program found on PATH, the environment
 * from nothing but its entry, inside its own sandbox with the home folder hidden.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../adapter/process/sandbox/support.js';
import { configSchema } from '../../main/config/schema.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { UpstreamPolicy } from '../../main/policy/upstream.js';
import { localPort } from '../helpers/adapter.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
let data: string;
let shelf: string;
beforeAll(() => {
  dir = makeTempDir();
  data = path.join(dir, 'data');
  shelf = path.join(dir, 'shelf');
  fs.mkdirSync(data);
  fs.mkdirSync(shelf);
});
afterAll(() => removeDir(dir));

function policy(entry: Record<string, unknown>, env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, SERVER_SECRET: 'x' }) {
  const config = configSchema.parse({ gateway: { servers: [{ name: 'up', command: 'node', ...entry }] } });
  const port = localPort(env);
  const files = new FilesystemPolicy(config.filesystem, port);
  return new UpstreamPolicy(config.gateway.servers[0]!, config, port, [], files);
}

describe('UpstreamPolicy', () => {
  it('excludes by exact name and by a part of a name, case-insensitively', () => {
    const p = policy({ tools: { exclude: ['drop_table'], excludeMatching: ['Delete'] } });
    expect(['drop_table', 'delete_row', 'bulkDELETE', 'read_row'].filter((t) => !p.isExcluded(t))).toEqual(['read_row']);
    // Look-alikes: a Cyrillic е, fullwidth letters; a name that only shares ASCII letters elsewhere stays.
    expect(['d\u0435lete_all', '\uff24\uff25\uff2c\uff25\uff34\uff25', 'dele_te', 'r\u00e9ad_row'].filter((t) => !p.isExcluded(t))).toEqual([
      'dele_te',
      'r\u00e9ad_row',
    ]);
  });

  it('with include, exposes only the tools it names exactly, and exclude still applies to them', () => {
    const p = policy({ tools: { include: ['read_row', 'delete_row'], excludeMatching: ['delete'] } });
    expect(['read_row', 'Read_row', 'read_rows', 'delete_row', 'write_row'].filter((t) => !p.isExcluded(t))).toEqual(['read_row']);
    // An empty list exposes nothing (absent exposes everything not excluded).
    expect(policy({ tools: { include: [] } }).isExcluded('read_row')).toBe(true);
    expect(policy({}).isExcluded('read_row')).toBe(false);
  });

  it("fills missing hints cautiously, keeps the upstream's, and the owner's kind wins", () => {
    const p = policy({ tools: { kinds: { search: 'read-only', send: 'open-world' } } });
    expect(p.annotations('x', undefined)).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(p.annotations('y', { readOnlyHint: true })).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: true });
    expect(p.annotations('search', { readOnlyHint: false, destructiveHint: true })).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(p.annotations('send', { readOnlyHint: true, openWorldHint: false })).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
  });

  it('finds path arguments by format and by name, plus the owner list', () => {
    const p = policy({ tools: { pathArguments: { run: ['script'] } } });
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string' },
        targetDir: { type: 'string' },
        where: { type: 'string', format: 'path' },
        paths: { type: 'array', items: { type: 'string' } },
        count: { type: 'number' },
        file: { type: 'number' },
      },
    };
    expect(p.pathArguments('run', schema).sort()).toEqual(['path', 'paths', 'script', 'targetDir', 'where']);
  });

  it('counts a path argument in every spelling of a string: a nullable type list, anyOf, a nullable list of them', () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: ['string', 'null'] },
        file_path: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        sourcePaths: { type: ['array', 'null'], items: { type: ['string', 'null'] } },
        target: { type: 'object', properties: { where: { type: 'string' } } },
        where: { type: ['array', 'null'], items: { type: 'string', format: 'path' } },
        files: { type: ['integer', 'null'] },
        dir: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
      },
    };
    expect(policy({}).pathArguments('run', schema).sort()).toEqual(['file_path', 'path', 'sourcePaths', 'target', 'where']);
  });

  it('checks paths against its folders, relative ones from its first folder, and a read-only folder refuses writes', async () => {
    const p = policy({ folders: [data, { path: shelf, readOnly: true }] });
    await expect(p.checkPaths('read', ['path'], { path: path.join(data, 'a.txt') }, true)).resolves.toBeUndefined();
    await expect(p.checkPaths('read', ['path'], { path: 'a.txt' }, true)).resolves.toBeUndefined();
    await expect(p.checkPaths('read', ['paths'], { paths: [path.join(data, 'a'), path.join(dir, 'b')] }, true)).rejects.toMatchObject({
      code: 'PATH_NOT_ALLOWED',
      message: expect.stringContaining('outside the allowed roots'),
    });
    await expect(p.checkPaths('read', ['path'], { path: `file://${path.join(dir, 'x')}` }, true)).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(p.checkPaths('read', ['path'], { path: path.join(shelf, 'book') }, true)).resolves.toBeUndefined();
    await expect(p.checkPaths('write', ['path'], { path: path.join(shelf, 'book') }, false)).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(policy({}).checkPaths('read', ['path'], { path: data }, true)).rejects.toMatchObject({ message: expect.stringContaining('has no folders') });
  });

  it('finds paths in any spelling and at any depth: file: URIs, ~/, lists of objects, path-like names inside other arguments', async () => {
    const p = policy({ folders: [data] });
    const outside = path.join(dir, 'private.txt');
    for (const args of [
      { path: `FILE://${outside}` },
      { path: `file:${outside}` },
      { path: `file://localhost${outside}` },
      { path: [path.join(data, 'ok'), { p: outside }] },
      { options: { nested: { targetPath: outside } } },
      // Deeper than the old limit of 8 levels.
      { options: JSON.parse(`${'{"a":'.repeat(20)}{"targetPath":${JSON.stringify(outside)}}${'}'.repeat(20)}`) as unknown },
    ])
      await expect(p.checkPaths('read', ['path'], args, true), JSON.stringify(args)).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    // Too deep to look at every path: refused, not let through.
    const deep = JSON.parse(`${'['.repeat(100)}"${path.join(data, 'ok')}"${']'.repeat(100)}`) as unknown;
    await expect(p.checkPaths('read', ['path'], { path: deep }, true)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('nested deeper than 64 levels'),
    });
    await expect(p.checkPaths('read', ['path'], { path: 'file://elsewhere/etc/passwd' }, true)).rejects.toMatchObject({
      message: expect.stringContaining('another host'),
    });
    await expect(
      p.checkPaths('read', ['path'], { path: `FILE://${path.join(data, 'a.txt')}`, options: { count: 3, label: outside } }, true),
    ).resolves.toBeUndefined();
  });

  it.skipIf(process.platform !== 'linux' || !sandboxSupport('linux', process.env).usable)(
    'does not start when a folder it is given is reached through a link inside a folder it can write (it could have made it)',
    async () => {
      const project = path.join(data, 'proj');
      const secretPlace = path.join(dir, 'autostart');
      fs.mkdirSync(project, { recursive: true });
      fs.mkdirSync(secretPlace, { recursive: true });
      fs.symlinkSync(secretPlace, path.join(project, 'out'));
      const p = policy({ folders: [data, path.join(project, 'out')] });
      await expect(p.plan({})).rejects.toMatchObject({
        code: 'PATH_NOT_ALLOWED',
        message: expect.stringContaining(`through the link ${path.join(project, 'out')}`),
      });
      const cwd = policy({ folders: [data], cwd: path.join(project, 'out') });
      await expect(cwd.plan({})).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
      fs.rmSync(path.join(project, 'out'));
      fs.mkdirSync(path.join(project, 'out'));
      await expect(policy({ folders: [data, path.join(project, 'out')] }).plan({})).resolves.toMatchObject({ file: expect.any(String) });
    },
  );

  it.skipIf(process.platform !== 'linux' || !sandboxSupport('linux', process.env).usable)(
    "shows its script's folder, not the folder above a folder argument",
    async () => {
      const notes = path.join(dir, 'notes');
      fs.mkdirSync(path.join(notes, 'sub'), { recursive: true });
      const script = path.join(dir, 'srv', 'server.js');
      fs.mkdirSync(path.dirname(script), { recursive: true });
      fs.writeFileSync(script, '');
      const plan = await policy({ folders: [path.join(notes, 'sub')], args: [script, path.join(notes, 'sub')] }).plan({});
      const seen = plan.sandbox!.entries.filter((e) => e.access !== 'hidden').map((e) => e.path);
      expect(seen).toContain(path.dirname(script));
      expect(seen).not.toContain(notes);
    },
  );

  it.skipIf(process.platform !== 'linux' || !sandboxSupport('linux', process.env).usable)(
    'plans the program found on PATH, an environment from nothing but its entry, in a sandbox that hides the home folder',
    async () => {
      const p = policy({ folders: [data], env: { MODE: 'x' }, args: ['/opt/thing/node_modules/pkg/dist/index.js'] });
      const plan = await p.plan({ MODE: 'x' });
      expect(plan.file).toBe(fs.realpathSync(process.execPath));
      expect(Object.keys(plan.env).sort()).toEqual(['HOME', 'MODE', 'PATH', 'TMPDIR']);
      expect(plan.env.HOME).toBe(plan.sandbox!.tempDir);
      expect(plan.sandbox).toMatchObject({ mechanism: 'bubblewrap', network: 'off', display: false });
      const entries = plan.sandbox!.entries;
      expect(entries).toContainEqual(expect.objectContaining({ path: data, access: 'write' }));
      // The temp "home" of this test lies in /tmp, private anyway; its data folder is mounted over it.
      expect(entries.findIndex((e) => e.path === data)).toBeGreaterThan(entries.findIndex((e) => e.path === '/tmp'));
    },
  );

  it('without a sandbox here it does not start unless its entry says sandbox: false', async () => {
    const p = policy({}, { PATH: '/nonexistent', HOME: dir });
    // No bwrap on this PATH: the sandbox is unavailable.
    expect(p.sandboxProblem).not.toBeNull();
    await expect(p.plan({})).rejects.toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringContaining('"sandbox": false') });
  });
});
