/**
 * The filesystem policy against a real tree with real symlinks in a temp dir: escape attempts
 * (traversal, prefix tricks, symlinks out, dangling links, secrets, protected files, read-only
 * roots) are refused with the right code and a message naming what is allowed; the matching
 * legitimate paths resolve to the right real path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isComputerAdapterError, type ComputerAdapterError, type ErrorCode } from '../../adapter/contract/errors.js';
import { configSchema, filesystemSchema, type Config } from '../../main/config/schema.js';
import { FilesystemPolicy, type Access, type FilesystemPolicyOptions } from '../../main/policy/filesystem.js';
import { git, gitHome, makeBare, makeRepo } from '../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { localPort } from '../helpers/adapter.js';

const TOKEN = 'tok_8f3Kq2LmN9pXvR7sW1yZ';

let tmp: string;
let root: string; // the first root: writable, holds the tree below
let ro: string; // a read-only root
let second: string; // a second writable root
let outside: string;
let missingRoot: string;
let protectedFile: string;
let protectedDir: string;

function mk(relative: string, content = 'x'): void {
  const file = path.join(tmp, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function link(target: string, at: string): void {
  fs.symlinkSync(target, path.join(tmp, at));
}

beforeAll(() => {
  tmp = makeTempDir('fs-policy-');
  root = path.join(tmp, 'root');
  ro = path.join(tmp, 'ro');
  second = path.join(tmp, 'second');
  outside = path.join(tmp, 'outside');
  missingRoot = path.join(tmp, 'not-there');
  protectedDir = path.join(root, 'app-state');
  protectedFile = path.join(root, 'app-config.json');

  for (const f of [
    'root/file.txt',
    'root/sub/inner.txt',
    'root/nested/deep/keep',
    'root/.ssh/id_rsa',
    'root/.SSH/id_rsa',
    'root/.env',
    'root/.ENV',
    'root/.env.local',
  ])
    mk(f);
  for (const f of [
    'root/certs/server.pem',
    'root/certs/SERVER.PEM',
    'root/keys/id_ed25519.pub',
    'root/owner-secret/data.txt',
    'root/build/out.log',
    'root/.environment',
  ])
    mk(f);
  for (const f of ['root-evil/x.txt', 'outside/secret.txt', 'outside/dir/y.txt', 'ro/readme.txt', 'second/s.txt']) mk(f);
  mk('root/app-config.json', JSON.stringify({ server: { token: TOKEN } }));
  mk('root/app-state/token', TOKEN);

  link(path.join(root, 'file.txt'), 'root/link-in');
  link('sub', 'root/dirlink-in'); // relative target, inside
  link(path.join(outside, 'secret.txt'), 'root/link-out');
  link(outside, 'root/dirlink-out');
  link('../../outside', 'root/sub/rel-out'); // relative target climbing out
  link(path.join(tmp, 'nowhere'), 'root/dangling');
  link(path.join(root, 'missing-target'), 'root/dangling-in');
  link('loop-b', 'root/loop-a');
  link('loop-a', 'root/loop-b');
  link('.env', 'root/alias.txt'); // innocent name, secret target
  link(ro, 'root/link-to-ro');
  link(protectedFile, 'root/config-alias');
  link(root, 'outside/back-in'); // outside -> inside: the real path decides
});

afterAll(() => removeDir(tmp));

function policy(overrides: Partial<Config['filesystem']> = {}, options: FilesystemPolicyOptions = {}): FilesystemPolicy {
  const fsConfig = filesystemSchema.parse({
    read: true,
    write: true,
    roots: [root, { path: ro, readOnly: true }, second, missingRoot],
    deny: ['owner-secret/', '*.log'],
    ...overrides,
  });
  return new FilesystemPolicy(fsConfig, localPort(), { protectedFiles: [protectedFile, protectedDir], ...options });
}

async function denial(promise: Promise<unknown>): Promise<ComputerAdapterError> {
  try {
    await promise;
  } catch (error) {
    if (isComputerAdapterError(error)) return error;
    throw error;
  }
  throw new Error('expected the policy to refuse');
}

type Escape = [label: string, input: () => string, access: Access, code: ErrorCode, reason?: string];

const escapes: Escape[] = [
  // absolute paths and traversal
  ['absolute outside', () => '/etc/passwd', 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['filesystem root', () => '/', 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['double slash', () => '//etc/passwd', 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['parent of the root', () => tmp, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['.. out of the root', () => `${root}/../outside/secret.txt`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['.. from a subdir', () => `${root}/sub/../../outside/secret.txt`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['.. through a file', () => `${root}/sub/inner.txt/../../../outside/secret.txt`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['./ then ..', () => `${root}/./././../outside`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['many ..', () => `${root}/${'../'.repeat(40)}etc/passwd`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['relative ..', () => '../outside/secret.txt', 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['relative deep ..', () => 'sub/../../../../../../etc/passwd', 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['write outside', () => `${outside}/new.txt`, 'write', 'PATH_NOT_ALLOWED', 'outside-roots'],
  // prefix tricks
  ['sibling with root as prefix', () => `${root}-evil/x.txt`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['sibling dir itself', () => `${root}-evil`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['new file in prefix sibling', () => `${root}-evil/new.txt`, 'write', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['name glued to root', () => `${root}x`, 'write', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['case variant on Linux', () => `${tmp}/ROOT/file.txt`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  // symlinks
  ['file symlink out (read)', () => `${root}/link-out`, 'read', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['file symlink out (write)', () => `${root}/link-out`, 'write', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['dir symlink out', () => `${root}/dirlink-out`, 'read', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['file under dir symlink out', () => `${root}/dirlink-out/secret.txt`, 'read', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['create under dir symlink out', () => `${root}/dirlink-out/new.txt`, 'write', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['create deep under dir symlink out', () => `${root}/dirlink-out/a/b/c.txt`, 'write', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['relative symlink climbing out', () => `${root}/sub/rel-out/secret.txt`, 'read', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['relative input through symlink out', () => 'dirlink-out/dir/y.txt', 'read', 'PATH_NOT_ALLOWED', 'symlink-escape'],
  ['.. after a symlink out, still out', () => `${root}/dirlink-out/../../outside/secret.txt`, 'read', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['dangling symlink (read)', () => `${root}/dangling`, 'read', 'PATH_NOT_ALLOWED', 'unresolvable'],
  ['dangling symlink (write)', () => `${root}/dangling`, 'write', 'PATH_NOT_ALLOWED', 'unresolvable'],
  ['create under dangling symlink', () => `${root}/dangling/new.txt`, 'write', 'PATH_NOT_ALLOWED', 'unresolvable'],
  ['dangling symlink pointing inside', () => `${root}/dangling-in`, 'write', 'PATH_NOT_ALLOWED', 'unresolvable'],
  ['symlink loop', () => `${root}/loop-a`, 'read', 'PATH_NOT_ALLOWED', 'unresolvable'],
  ['create under symlink loop', () => `${root}/loop-a/x`, 'write', 'PATH_NOT_ALLOWED', 'unresolvable'],
  // separators and encodings (POSIX: a backslash is a name character)
  ['backslash traversal is a sibling name', () => `${root}\\..\\x`, 'write', 'PATH_NOT_ALLOWED', 'outside-roots'],
  ['NUL byte', () => `${root}/file.txt\0.png`, 'read', 'INVALID_INPUT'],
  ['NUL in relative', () => 'file\0', 'write', 'INVALID_INPUT'],
  ['empty', () => '', 'read', 'INVALID_INPUT'],
  ['blank', () => '  ', 'read', 'INVALID_INPUT'],
  ['too long', () => `${root}/${'a'.repeat(300)}`, 'write', 'INVALID_INPUT'],
  // built-in secrets
  ['.ssh dir', () => `${root}/.ssh`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['.ssh/id_rsa', () => `${root}/.ssh/id_rsa`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['new file in .ssh', () => `${root}/.ssh/authorized_keys`, 'write', 'PATH_NOT_ALLOWED', 'secret'],
  ['.SSH case trick', () => `${root}/.SSH/id_rsa`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['.env', () => `${root}/.env`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['.ENV case trick', () => `${root}/.ENV`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['.env relative', () => '.env', 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['.env.local', () => `${root}/.env.local`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['create .env.production', () => `${root}/sub/.env.production`, 'write', 'PATH_NOT_ALLOWED', 'secret'],
  ['certs/server.pem', () => `${root}/certs/server.pem`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['SERVER.PEM case trick', () => `${root}/certs/SERVER.PEM`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['id_ed25519.pub', () => `${root}/keys/id_ed25519.pub`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['create a .key', () => `${root}/sub/new.key`, 'write', 'PATH_NOT_ALLOWED', 'secret'],
  ['missing .git-credentials', () => `${root}/.git-credentials`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['create .npmrc', () => `${root}/.npmrc`, 'write', 'PATH_NOT_ALLOWED', 'secret'],
  ['zero-width trick', () => `${root}/.e\u200cnv`, 'write', 'PATH_NOT_ALLOWED', 'secret'],
  ['innocent link to .env', () => `${root}/alias.txt`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['.. after inside symlink into .ssh', () => `${root}/dirlink-in/../.ssh/id_rsa`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  // owner deny globs
  ['deny dir', () => `${root}/owner-secret/data.txt`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['deny glob', () => `${root}/build/out.log`, 'read', 'PATH_NOT_ALLOWED', 'secret'],
  ['deny glob in another root', () => `${second}/new.log`, 'write', 'PATH_NOT_ALLOWED', 'secret'],
  // the app's own files
  ['own config (read)', () => protectedFile, 'read', 'PATH_NOT_ALLOWED', 'protected-file'],
  ['own config (write)', () => protectedFile, 'write', 'PATH_NOT_ALLOWED', 'protected-file'],
  ['own config via symlink', () => `${root}/config-alias`, 'read', 'PATH_NOT_ALLOWED', 'protected-file'],
  ['own config relative', () => 'sub/../app-config.json', 'read', 'PATH_NOT_ALLOWED', 'protected-file'],
  ['own token dir content', () => `${protectedDir}/token`, 'read', 'PATH_NOT_ALLOWED', 'protected-file'],
  ['own token dir (move/delete)', () => protectedDir, 'write', 'PATH_NOT_ALLOWED', 'protected-file'],
  ['root holding own config (move/delete)', () => root, 'write', 'PATH_NOT_ALLOWED', 'protected-file'],
  // read-only and missing roots
  ['write in read-only root', () => `${ro}/readme.txt`, 'write', 'PATH_NOT_ALLOWED', 'read-only'],
  ['create in read-only root', () => `${ro}/new/x.txt`, 'write', 'PATH_NOT_ALLOWED', 'read-only'],
  ['write via symlink into read-only root', () => `${root}/link-to-ro/new.txt`, 'write', 'PATH_NOT_ALLOWED', 'read-only'],
  ['path in a root that does not exist', () => `${missingRoot}/x.txt`, 'write', 'PATH_NOT_ALLOWED', 'root-unusable'],
];

describe('escape attempts are refused', () => {
  it('has a dense table', () => {
    expect(escapes.length).toBeGreaterThanOrEqual(40);
  });

  it.each(escapes)('%s', async (_label, input, access, code, reason) => {
    const error = await denial(policy().resolve(input(), access, 'fs.test'));
    expect(error.code).toBe(code);
    expect(error.operation).toBe('fs.test');
    if (reason) expect(error.details?.reason).toBe(reason);
    expect(error.message).not.toContain(TOKEN);
  });
});

type Allowed = [label: string, input: () => string, access: Access, expected: () => { path: string; exists: boolean; root?: string; isRoot?: boolean }];

const allowed: Allowed[] = [
  ['a file', () => `${root}/file.txt`, 'read', () => ({ path: `${root}/file.txt`, exists: true, root, isRoot: false })],
  ['the root itself', () => root, 'read', () => ({ path: root, exists: true, root, isRoot: true })],
  ['the root with a trailing slash', () => `${root}/`, 'read', () => ({ path: root, exists: true, isRoot: true })],
  ['the root through ..', () => `${root}/sub/..`, 'read', () => ({ path: root, exists: true, isRoot: true })],
  ['relative file (first root)', () => 'file.txt', 'read', () => ({ path: `${root}/file.txt`, exists: true, root })],
  ['relative dot', () => '.', 'read', () => ({ path: root, exists: true, isRoot: true })],
  ['relative nested', () => 'sub/inner.txt', 'read', () => ({ path: `${root}/sub/inner.txt`, exists: true })],
  ['relative ./ and ..', () => './sub/../file.txt', 'read', () => ({ path: `${root}/file.txt`, exists: true })],
  ['tilde is literal', () => '~/x', 'write', () => ({ path: `${root}/~/x`, exists: false })],
  ['symlink to a file inside', () => `${root}/link-in`, 'read', () => ({ path: `${root}/file.txt`, exists: true })],
  ['through a dir symlink inside', () => `${root}/dirlink-in/inner.txt`, 'read', () => ({ path: `${root}/sub/inner.txt`, exists: true })],
  [
    'create through a dir symlink inside',
    () => `${root}/dirlink-in/new/deeper/x.txt`,
    'write',
    () => ({ path: `${root}/sub/new/deeper/x.txt`, exists: false }),
  ],
  ['create nested new dirs', () => `${root}/a/b/c/d.txt`, 'write', () => ({ path: `${root}/a/b/c/d.txt`, exists: false, root })],
  ['create next to existing', () => `${root}/nested/deep/new.txt`, 'write', () => ({ path: `${root}/nested/deep/new.txt`, exists: false })],
  ['create under a file (the tool fails, not the policy)', () => `${root}/file.txt/x`, 'write', () => ({ path: `${root}/file.txt/x`, exists: false })],
  ['.. after a symlink is lexical', () => `${root}/dirlink-out/../file.txt`, 'read', () => ({ path: `${root}/file.txt`, exists: true })],
  ['URL encoding is literal', () => `${root}/%2e%2e/%2e%2e/etc/passwd`, 'write', () => ({ path: `${root}/%2e%2e/%2e%2e/etc/passwd`, exists: false })],
  ['backslashes are literal', () => `${root}/..\\..\\etc\\passwd`, 'write', () => ({ path: `${root}/..\\..\\etc\\passwd`, exists: false })],
  ['outside symlink back into the root', () => `${outside}/back-in/file.txt`, 'read', () => ({ path: `${root}/file.txt`, exists: true, root })],
  ['names close to secrets', () => `${root}/.environment`, 'read', () => ({ path: `${root}/.environment`, exists: true })],
  ['a dir named keys', () => `${root}/keys`, 'read', () => ({ path: `${root}/keys`, exists: true })],
  ['public.key.txt', () => `${root}/public.key.txt`, 'write', () => ({ path: `${root}/public.key.txt`, exists: false })],
  ['read in a read-only root', () => `${ro}/readme.txt`, 'read', () => ({ path: `${ro}/readme.txt`, exists: true, root: ro })],
  ['read-only root itself', () => ro, 'read', () => ({ path: ro, exists: true, root: ro, isRoot: true })],
  ['write in the second root', () => `${second}/new.txt`, 'write', () => ({ path: `${second}/new.txt`, exists: false, root: second })],
  ['write the second root itself', () => second, 'write', () => ({ path: second, exists: true, isRoot: true })],
  ['sibling of own config', () => `${root}/app-config.json.bak`, 'write', () => ({ path: `${root}/app-config.json.bak`, exists: false })],
];

describe('legitimate paths resolve', () => {
  it.each(allowed)('%s', async (_label, input, access, expected) => {
    expect(await policy().resolve(input(), access, 'fs.test')).toMatchObject(expected());
  });
});

describe('grants', () => {
  it('read and write are separate grants naming their setting', async () => {
    const noRead = await denial(policy({ read: false }).resolve(`${root}/file.txt`, 'read', 'fs.read'));
    expect(noRead).toMatchObject({ code: 'CAPABILITY_DISABLED', operation: 'fs.read' });
    expect(noRead.message).toContain('filesystem.read');
    expect(await policy({ read: false }).resolve(`${root}/new.txt`, 'write', 'fs.write')).toMatchObject({ exists: false });

    const noWrite = await denial(policy({ write: false }).resolve(`${root}/new.txt`, 'write', 'fs.write'));
    expect(noWrite).toMatchObject({ code: 'CAPABILITY_DISABLED' });
    expect(noWrite.message).toContain('filesystem.write');
  });

  it('the safe defaults allow no writes and have no roots', async () => {
    const defaults = new FilesystemPolicy(filesystemSchema.parse({}), localPort());
    expect((await denial(defaults.resolve('/etc/passwd', 'write', 'fs.write'))).code).toBe('CAPABILITY_DISABLED');
    const noRoots = await denial(defaults.resolve('/etc/passwd', 'read', 'fs.read'));
    expect(noRoots.code).toBe('CAPABILITY_DISABLED');
    expect(noRoots.message).toContain('filesystem.roots');
    expect(defaults.describeRoots()).toBe('none configured');
  });

  it('a read-only root denial names the writable roots', async () => {
    const error = await denial(policy().resolve(`${ro}/readme.txt`, 'write', 'fs.write'));
    expect(error.message).toBe(`${ro}/readme.txt is in the read-only root ${ro}; writable roots: ${root}, ${second}, ${missingRoot} (does not exist)`);
    const allReadOnly = policy({ roots: [{ path: ro, readOnly: true }] });
    expect((await denial(allReadOnly.resolve(`${ro}/x`, 'write', 'fs.write'))).message).toContain('no root is writable');
  });

  it('the innermost of nested roots decides', async () => {
    const nested = policy({ roots: [root, { path: `${root}/nested`, readOnly: true }] });
    expect((await denial(nested.resolve(`${root}/nested/deep/x`, 'write', 'fs.write'))).details?.reason).toBe('read-only');
    expect(await nested.resolve(`${root}/sub/x`, 'write', 'fs.write')).toMatchObject({ root });
    expect(await nested.resolve(`${root}/nested`, 'read', 'fs.read')).toMatchObject({ root: `${root}/nested`, isRoot: true });
  });

  it('protectSecrets: false lifts the built-in list but not the owner deny globs or own files', async () => {
    const open = policy({ protectSecrets: false });
    expect(await open.resolve(`${root}/.ssh/id_rsa`, 'read', 'fs.read')).toMatchObject({ exists: true });
    expect(await open.resolve(`${root}/.env`, 'read', 'fs.read')).toMatchObject({ exists: true });
    expect((await denial(open.resolve(`${root}/build/out.log`, 'read', 'fs.read'))).details?.reason).toBe('secret');
    expect((await denial(open.resolve(protectedFile, 'read', 'fs.read'))).details?.reason).toBe('protected-file');
  });

  it("refuses a saver's temp file beside a protected file in any letter case, and only that", async () => {
    const p = policy();
    for (const name of ['.app-config.json.x1y2.tmp', '.APP-CONFIG.JSON.x1y2.tmp']) {
      expect((await denial(p.resolve(`${root}/${name}`, 'write', 'fs.write'))).details?.reason).toBe('protected-file');
    }
    for (const name of ['.app-config.jsonx.tmp', 'app-config.json.bak', 'sub/.app-config.json.x1y2.tmp']) {
      expect(await p.resolve(`${root}/${name}`, 'write', 'fs.write')).toMatchObject({ path: `${root}/${name}` });
    }
  });

  it.runIf(process.platform === 'linux')("keeps /proc closed under a root of /: every process's environment and memory is there", async () => {
    const whole = policy({ roots: ['/'], protectSecrets: false });
    for (const target of [`/proc/${process.pid}/environ`, '/proc/self/mem', '/proc', '/proc/../proc/1/cmdline']) {
      const error = await denial(whole.resolve(target, 'read', 'fs.read'));
      expect(error.details?.reason).toBe('protected-file');
      expect(error.message).toContain("holds every process's environment");
    }
    // Through a link to it too (the real path decides).
    link('/proc/self', 'root/me');
    expect((await denial(whole.resolve(`${root}/me/environ`, 'read', 'fs.read'))).details?.reason).toBe('protected-file');
    expect(await whole.resolve('/etc/hostname', 'read', 'fs.read')).toMatchObject({ exists: true });
  });

  it('owner deny globs can be anchored absolute paths', async () => {
    const anchored = policy({ deny: [`${root}/sub/**`] });
    expect((await denial(anchored.resolve(`${root}/sub/inner.txt`, 'read', 'fs.read'))).message).toContain(
      `matches the deny pattern "${root}/sub/**" (filesystem.deny)`,
    );
    expect((await denial(anchored.resolve(`${root}/dirlink-in/inner.txt`, 'read', 'fs.read'))).details?.reason).toBe('secret');
    expect(await anchored.resolve(`${root}/file.txt`, 'read', 'fs.read')).toMatchObject({ exists: true });
  });
});

describe('denial messages', () => {
  it('name the allowed roots, mark read-only and missing ones, and carry no secret', async () => {
    const config = configSchema.parse({
      server: { token: TOKEN },
      filesystem: { write: true, roots: [root, { path: ro, readOnly: true }, missingRoot] },
    });
    const p = new FilesystemPolicy(config.filesystem, localPort(), { protectedFiles: [protectedFile] });
    const error = await denial(p.resolve('/etc/passwd', 'read', 'fs.read'));
    expect(error.message).toBe(`/etc/passwd is outside the allowed roots (${root}, ${ro} (read-only), ${missingRoot} (does not exist))`);
    expect(p.describeRoots()).toBe(`${root}, ${ro} (read-only), ${missingRoot} (does not exist)`);

    const messages = await Promise.all(
      [protectedFile, `${root}/config-alias`, `${root}/.env`, `${root}/link-out`, `${ro}/x`, `${root}/dangling`].map(
        async (input) => (await denial(p.resolve(input, 'write', 'fs.write'))).message,
      ),
    );
    for (const message of messages) {
      expect(message).not.toContain(TOKEN);
      expect(message).not.toContain(outside); // where an escaping link points is not disclosed
    }
    expect(messages[2]).toBe(`${root}/.env is protected by the secret pattern ".env" (filesystem.protectSecrets)`);
    expect(messages[3]).toContain('resolves through a symlink to a location outside the allowed roots');
  });

  it('say which root does not exist, also for relative paths', async () => {
    const p = policy({ roots: [missingRoot, root] });
    const relative = await denial(p.resolve('x.txt', 'read', 'fs.read'));
    expect(relative.message).toBe(`x.txt is relative, and relative paths resolve against the first root ${missingRoot}, which does not exist`);
    expect((await denial(p.resolve(`${missingRoot}/x.txt`, 'read', 'fs.read'))).message).toContain(`under the root ${missingRoot}, which does not exist`);
  });

  it('never echo control characters or unbounded input', async () => {
    const error = await denial(policy().resolve(`/etc/${'\n'.repeat(3)}${'y'.repeat(1000)}`, 'read', 'fs.read'));
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(500);
  });
});

describe('roots are resolved lazily', () => {
  it('a root created after startup becomes usable; a file is never a root', async () => {
    const late = path.join(tmp, 'late');
    const p = policy({ roots: [late, `${root}/file.txt`] });
    expect((await denial(p.resolve(`${late}/x`, 'write', 'fs.write'))).details?.reason).toBe('root-unusable');
    fs.mkdirSync(late);
    expect(await p.resolve(`${late}/x`, 'write', 'fs.write')).toMatchObject({ path: `${late}/x`, root: late });
    expect(p.describeRoots()).toBe(`${late}, ${root}/file.txt (is not a directory)`);
  });

  it('a read-only root created later under a root given through a link is read-only, not part of the outer root', async () => {
    fs.mkdirSync(path.join(tmp, 'real-projects'));
    const viaLink = path.join(tmp, 'projects-link');
    fs.symlinkSync(path.join(tmp, 'real-projects'), viaLink);
    const p = policy({ roots: [viaLink, { path: `${viaLink}/docs`, readOnly: true }] });
    await p.resolve(`${viaLink}/notes.txt`, 'write', 'fs.write');
    fs.mkdirSync(path.join(tmp, 'real-projects', 'docs'));
    for (const spelling of [`${viaLink}/docs/new.txt`, path.join(tmp, 'real-projects', 'docs', 'new.txt')]) {
      expect((await denial(p.resolve(spelling, 'write', 'fs.write'))).details?.reason, spelling).toBe('read-only');
    }
  });

  it('a late root is not taken when a link took its place or a linked parent leads out of every root', async () => {
    fs.mkdirSync(path.join(tmp, 'late-outer', 'sub'), { recursive: true });
    fs.mkdirSync(path.join(outside, 'b'), { recursive: true });
    const outer = path.join(tmp, 'late-outer');
    const p = policy({ roots: [outer, { path: `${outer}/planted`, readOnly: true }, { path: `${outer}/a/b`, readOnly: true }] });
    await p.resolve(`${outer}/sub`, 'read', 'fs.list');
    fs.symlinkSync(path.join(outer, 'sub'), path.join(outer, 'planted'));
    fs.symlinkSync(outside, path.join(outer, 'a'));
    await p.resolve(`${outer}/sub`, 'read', 'fs.list');
    expect(p.describeRoots()).toMatch(/planted \(read-only, appeared after the server started as a link inside another root/);
    expect((await denial(p.resolve(`${outer}/a/b/x.txt`, 'read', 'fs.read'))).details?.reason).toBe('symlink-escape');
  });

  it('a late read-only root is not bound to a decoy inside the root through a linked folder on the way', async () => {
    const outer = path.join(tmp, 'decoy-outer');
    fs.mkdirSync(path.join(outer, 'elsewhere', 'ro'), { recursive: true });
    const p = policy({ roots: [outer, { path: `${outer}/sub/ro`, readOnly: true }] });
    await p.resolve(`${outer}/elsewhere`, 'read', 'fs.list');
    fs.symlinkSync('elsewhere', path.join(outer, 'sub'));
    await p.resolve(`${outer}/elsewhere`, 'read', 'fs.list');
    expect(p.describeRoots()).toMatch(/sub\/ro \(read-only, appeared after the server started as a link/);
    // Once the link is gone and the real folder is made where the root is spelled, it is the root, read-only.
    fs.unlinkSync(path.join(outer, 'sub'));
    fs.mkdirSync(path.join(outer, 'sub', 'ro'), { recursive: true });
    expect((await denial(p.resolve(`${outer}/sub/ro/owner.txt`, 'write', 'fs.write'))).details?.reason).toBe('read-only');
  });

  it('a root given through a symlink is compared by its real path', async () => {
    const viaLink = path.join(tmp, 'root-link');
    fs.symlinkSync(root, viaLink);
    const p = policy({ roots: [viaLink] });
    expect(await p.resolve(`${viaLink}/file.txt`, 'read', 'fs.read')).toMatchObject({ path: `${root}/file.txt`, root });
    expect(await p.resolve(`${root}/file.txt`, 'read', 'fs.read')).toMatchObject({ root });
    expect((await denial(p.resolve(`${viaLink}/../outside/secret.txt`, 'read', 'fs.read'))).code).toBe('PATH_NOT_ALLOWED');
  });
});

describe('case-insensitive platforms (macOS rules on this disk)', () => {
  // On Linux these spellings do not exist, so resolution walks up to `/`: what is under test
  // is that containment and the denylist compare with macOS case folding.
  const darwin = () => policy({}, { platform: 'darwin' });
  const upper = (p: string) => p.toUpperCase();

  it('a different case of a root is the same root', async () => {
    expect(await darwin().resolve(`${upper(root)}/NEW.txt`, 'write', 'fs.write')).toMatchObject({ exists: false, root });
  });

  it.each([
    ['prefix sibling in upper case', () => `${upper(root)}-EVIL/x.txt`, 'outside-roots'],
    ['.SSH in a differently cased root', () => `${upper(root)}/.SSH/new`, 'secret'],
    ['own config in upper case', () => upper(protectedFile), 'protected-file'],
    ['read-only root in upper case', () => `${upper(ro)}/new.txt`, 'read-only'],
  ])('%s is refused', async (_label, input, reason) => {
    expect((await denial(darwin().resolve(input(), 'write', 'fs.write'))).details?.reason).toBe(reason);
  });
});

describe('isProtectedName (hiding entries in listings)', () => {
  it.each([
    ['.ssh', true],
    ['.env', true],
    ['.env.local', true],
    ['id_rsa', true],
    ['server.PEM', true],
    ['out.log', true],
    ['owner-secret', true],
    ['..', true],
    ['a/b', true],
    ['file.txt', false],
    ['.environment', false],
    ['app-config.json', false],
  ])('%j -> %s', (name, expected) => {
    expect(policy().isProtectedName(name)).toBe(expected);
  });

  it('knows the app files and multi-segment globs when given the listed directory', async () => {
    const p = policy({ deny: ['sub/inner.txt'] });
    const rootDir = await p.resolve(root, 'read', 'fs.list');
    const subDir = await p.resolve(`${root}/sub`, 'read', 'fs.list');
    expect(p.isProtectedName('app-config.json', rootDir)).toBe(true);
    expect(p.isProtectedName('app-state', rootDir)).toBe(true);
    expect(p.isProtectedName('inner.txt', subDir)).toBe(true);
    expect(p.isProtectedName('inner.txt')).toBe(false);
    expect(p.isProtectedName('file.txt', rootDir)).toBe(false);
  });

  it('shows secrets when protectSecrets is off (owner globs still hide)', () => {
    const p = policy({ protectSecrets: false });
    expect(p.isProtectedName('.env')).toBe(false);
    expect(p.isProtectedName('out.log')).toBe(true);
  });
});

describe('confirm: the re-check of what the adapter really opened', () => {
  it('accepts the place it checked and refuses one outside the roots, a secret or a protected file', async () => {
    const resolved = await policy().resolve(`${root}/file.txt`, 'read', 'fs.read');
    expect(() => resolved.confirm(`${root}/file.txt`)).not.toThrow();
    for (const [real, reason] of [
      [`${outside}/secret.txt`, 'symlink-escape'],
      [`${root}/.env`, 'secret'],
      [protectedFile, 'protected-file'],
    ] as const) {
      try {
        resolved.confirm(real);
        throw new Error(`confirm accepted ${real}`);
      } catch (error) {
        expect(isComputerAdapterError(error) && error.code).toBe('PATH_NOT_ALLOWED');
        expect((error as ComputerAdapterError).details).toMatchObject({ reason });
      }
    }
  });

  it('keeps the access it was resolved for: a write confirmed into a read-only root is refused', async () => {
    const resolved = await policy().resolve(`${root}/new.txt`, 'write', 'fs.write');
    expect(() => resolved.confirm(`${ro}/new.txt`)).toThrow(/read-only root/);
  });
});

describe('configured roots are never moved, replaced or deleted, nor what holds them', () => {
  it.each([
    ['the root itself', () => second],
    ['a folder holding a nested root', () => `${root}/sub`],
  ])('refuses %s as an entry to change', async (_label, target) => {
    const nested = policy({ roots: [root, { path: `${root}/sub/deeper`, readOnly: true }, second] });
    const error = await denial(nested.resolveEntry(target(), 'write', 'fs.delete'));
    expect(error.details).toMatchObject({ reason: 'holds-root' });
  });

  it('refuses a folder holding a root that does not exist yet (by its configured path)', async () => {
    const p = policy({ roots: [root, { path: `${root}/sub/not-yet`, readOnly: true }] });
    const error = await denial(p.resolveEntry(`${root}/sub`, 'write', 'fs.move'));
    expect(error.message).toMatch(/holds the configured root .*not-yet/);
  });

  it('still lets entries beside a root change', async () => {
    const p = policy({ roots: [root, { path: `${root}/sub`, readOnly: true }] });
    await expect(p.resolveEntry(`${root}/file.txt`, 'write', 'fs.delete')).resolves.toMatchObject({ path: `${root}/file.txt` });
  });
});

describe('git code files', () => {
  it('are refused for writes, not for reads, unless filesystem.allowGitHookWrites', async () => {
    fs.mkdirSync(`${root}/repo/.git/hooks`, { recursive: true });
    const strict = policy();
    expect((await denial(strict.resolve(`${root}/repo/.git/hooks/post-checkout`, 'write', 'fs.write'))).details).toMatchObject({ reason: 'git' });
    await expect(strict.resolve(`${root}/repo/.git/hooks`, 'read', 'fs.list')).resolves.toBeDefined();
    await expect(policy({ allowGitHookWrites: true }).resolve(`${root}/repo/.git/hooks/post-checkout`, 'write', 'fs.write')).resolves.toBeDefined();
  });

  it("include submodules' git folders, nested and with slashes in their names; their objects stay writable", async () => {
    const strict = policy();
    for (const file of ['.git/modules/sub/config', '.git/modules/sub/hooks/pre-commit', '.git/modules/libs/deep/modules/inner/config']) {
      fs.mkdirSync(path.dirname(`${root}/repo/${file}`), { recursive: true });
      expect((await denial(strict.resolve(`${root}/repo/${file}`, 'write', 'fs.write'))).details, file).toMatchObject({ reason: 'git' });
    }
    fs.mkdirSync(`${root}/repo/.git/modules/sub/objects`, { recursive: true });
    await expect(strict.resolve(`${root}/repo/.git/modules/sub/objects/pack`, 'write', 'fs.write')).resolves.toBeDefined();
  });

  it("include worktrees' settings and the files that point git at another git folder or working tree, in the folders real git makes", async () => {
    const owner = gitHome(path.join(tmp, 'git-home'));
    const repo = makeRepo(owner, path.join(root, 'worktrees'));
    git(owner, repo, ['worktree', 'add', '-q', path.join(root, 'worktrees-linked')]);
    const bare = makeBare(owner, path.join(root, 'worktrees-backup.git'), repo);
    git(owner, bare, ['worktree', 'add', '-q', path.join(root, 'worktrees-from-bare')]);
    // Where git put them: the paths below are real, not guessed.
    expect(fs.readFileSync(path.join(repo, '.git/worktrees/worktrees-linked/commondir'), 'utf8').trim()).toBe('../..');
    expect(fs.existsSync(path.join(bare, 'worktrees/worktrees-from-bare/gitdir'))).toBe(true);
    const strict = policy();
    const refused = [
      'worktrees/.git/config.worktree',
      'worktrees/.git/commondir',
      'worktrees/.git/worktrees/worktrees-linked/config.worktree',
      'worktrees/.git/worktrees/worktrees-linked/commondir',
      'worktrees/.git/worktrees/worktrees-linked/gitdir',
      // With no commondir, a worktree's git folder is a repository's own: its config and hooks count.
      'worktrees/.git/worktrees/worktrees-linked/config',
      'worktrees/.git/worktrees/worktrees-linked/hooks/pre-commit',
      'worktrees/.git/modules/sub/config.worktree',
      'worktrees/.git/modules/sub/commondir',
      'worktrees/.git/modules/sub/worktrees/w/gitdir',
      'worktrees-backup.git/config.worktree',
      'worktrees-backup.git/commondir',
      'worktrees-backup.git/worktrees/worktrees-from-bare/config.worktree',
      'worktrees-backup.git/worktrees/worktrees-from-bare/commondir',
      'worktrees-backup.git/worktrees/worktrees-from-bare/gitdir',
      // A rebase, cherry-pick or revert under way: its steps run (`exec` lines) when the owner continues it.
      'worktrees/.git/rebase-merge/git-rebase-todo',
      'worktrees/.git/rebase-apply/patch',
      'worktrees/.git/sequencer/todo',
      'worktrees/.git/worktrees/worktrees-linked/rebase-merge/git-rebase-todo',
    ];
    for (const file of refused) {
      fs.mkdirSync(path.dirname(`${root}/${file}`), { recursive: true });
      const error = await denial(strict.resolve(`${root}/${file}`, 'write', 'fs.write'));
      expect(error.details, file).toMatchObject({ reason: 'git' });
      expect(error.message, file).toMatch(
        /is where git runs code from on the next git command \(".*"\): tools may read it but not write it \(filesystem\.allowGitHookWrites\)/,
      );
      await expect(strict.resolve(`${root}/${file}`, 'read', 'fs.read'), file).resolves.toBeDefined();
      await expect(policy({ allowGitHookWrites: true }).resolve(`${root}/${file}`, 'write', 'fs.write'), file).resolves.toBeDefined();
    }
    // A worktree's own state is git's to write as before: its HEAD, index and logs.
    for (const file of ['HEAD', 'index', 'logs/HEAD'])
      await expect(strict.resolve(`${repo}/.git/worktrees/worktrees-linked/${file}`, 'write', 'fs.write'), file).resolves.toBeDefined();
  });
});

describe('patterns that span folders, whatever the roots', () => {
  // A home with a GitHub CLI token and a project whose .git is its own root.
  const home = () => path.join(tmp, 'home');
  beforeAll(() => {
    mk('home/.config/gh/hosts.yml', 'oauth_token: gho_SECRET');
    mk('home/.config/other/settings.json');
    mk('home/projects/app/.git/config');
    mk('home/projects/app/.git/hooks/pre-commit.sample');
    mk('home/projects/app/private/notes/plan.txt');
  });
  const at = (relative: string) => path.join(home(), relative);

  it.each([
    ['a root nested in another', ['', '.config']],
    ['a root inside the secret folder', ['.config']],
  ])('are refused with %s', async (_case, roots) => {
    const p = policy({ roots: roots.map((r) => at(r)), deny: [] });
    expect((await denial(p.resolve(at('.config/gh/hosts.yml'), 'read', 'fs.read'))).details).toMatchObject({ reason: 'secret' });
    expect((await denial(p.resolve(at('.config/gh/hosts.yml'), 'write', 'fs.write'))).details).toMatchObject({ reason: 'secret' });
    await expect(p.resolve(at('.config/other/settings.json'), 'read', 'fs.read')).resolves.toBeDefined();
    const listed = await p.resolve(at('.config/gh'), 'read', 'fs.list');
    expect(p.isProtectedName('hosts.yml', listed)).toBe(true);
  });

  it("keep git's code read-only when .git itself is a root, and the owner's deny patterns whole", async () => {
    const p = policy({ roots: [at('projects'), at('projects/app/.git'), at('projects/app/private')], deny: ['private/notes/**'] });
    expect((await denial(p.resolve(at('projects/app/.git/hooks/pre-commit'), 'write', 'fs.write'))).details).toMatchObject({ reason: 'git' });
    expect((await denial(p.resolve(at('projects/app/.git/config'), 'write', 'fs.write'))).details).toMatchObject({
      reason: expect.stringMatching(/git|secret/),
    });
    expect((await denial(p.resolve(at('projects/app/private/notes/plan.txt'), 'read', 'fs.read'))).details).toMatchObject({ reason: 'secret' });
  });
});

describe('a deny pattern written through a root that is a link', () => {
  // roots: [tmp/linked] with linked -> real; the owner spells the deny path as the root: the real path is denied too (red team).
  beforeAll(() => {
    mk('real/proj/private/notes.txt', 'SECRET');
    mk('real/proj/ok.txt');
    link(path.join(tmp, 'real'), 'linked');
  });
  const linked = (relative: string) => path.join(tmp, 'linked', relative);
  const real = (relative: string) => path.join(tmp, 'real', relative);
  const p = () => policy({ roots: [path.join(tmp, 'linked')], deny: [linked('proj/private/**')] });

  it('holds for the file reached by its real path, for a move or delete of a folder holding it, and for protects()', async () => {
    const rules = p();
    for (const spelling of [linked('proj/private/notes.txt'), real('proj/private/notes.txt')])
      expect((await denial(rules.resolve(spelling, 'read', 'fs.read'))).details).toMatchObject({ reason: 'secret' });
    await expect(rules.resolve(real('proj/ok.txt'), 'read', 'fs.read')).resolves.toMatchObject({ path: real('proj/ok.txt') });
    await expect(rules.resolveEntry(real('proj/private'), 'write', 'fs.delete')).rejects.toThrow(/deny pattern/);
    // What the change journal asks of each file inside a folder it keeps (by its real path).
    expect(rules.protects(real('proj/private/notes.txt'), 'read')).toBe(true);
    expect(rules.protects(real('proj/ok.txt'), 'read')).toBe(false);
    const proj = await rules.resolve(real('proj'), 'read', 'fs.list');
    expect([rules.isProtectedName('private', proj), rules.isProtectedName('ok.txt', proj)]).toEqual([true, false]);
  });
});
