/**
 * filesystem.deny paths the owner spells through a link that is not a root (red team: only a
 * root reached through a link was covered). Real folders and links in a temp dir, the policy
 * as the server builds it: the file is refused by its real path, a folder holding it cannot be
 * moved or deleted, and a link made or retargeted later is followed within a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isComputerAdapterError } from '../../adapter/contract/errors.js';
import { filesystemSchema } from '../../main/config/schema.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { compilePatterns, findMatch, rebased, wholePath } from '../../main/policy/secret-patterns.js';
import { localPort } from '../helpers/adapter.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let tmp: string;
// The root is the real folder; the owner's deny list names it through home/work, a link to it.
let data: string;
let viaLink: (relative: string) => string;
const real = (relative: string) => path.join(data, relative);

function write(file: string, content = 'x'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function policy(deny: string[]): FilesystemPolicy {
  return new FilesystemPolicy(filesystemSchema.parse({ read: true, write: true, roots: [data], deny }), localPort());
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isComputerAdapterError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'allowed';
}

beforeAll(() => {
  tmp = makeTempDir('linked-deny-');
  // Names a regular expression gives a meaning to: the real folders are matched as written.
  data = path.join(tmp, 'data [1]+(x)');
  write(real('work/private/notes.txt'), 'SECRET');
  write(real('work/app/keys/id.txt'), 'TOKEN');
  write(real('work/app/src/main.ts'));
  write(real('work/ok.txt'));
  fs.mkdirSync(path.join(tmp, 'home'));
  fs.symlinkSync(real('work'), path.join(tmp, 'home', 'work'));
  viaLink = (relative) => path.join(tmp, 'home', 'work', relative);
});

afterAll(() => removeDir(tmp));
afterEach(() => vi.useRealTimers());

describe('a deny path spelled through a link that is not a root', () => {
  it('refuses the file by its real path and names the pattern as the owner wrote it', async () => {
    const rules = policy([viaLink('private/**')]);
    expect(await refusal(rules.resolve(real('work/private/notes.txt'), 'read', 'fs.read'))).toBe(
      `PATH_NOT_ALLOWED: ${real('work/private/notes.txt')} matches the deny pattern "${viaLink('private/**')}" (filesystem.deny)`,
    );
    await expect(rules.resolve(real('work/ok.txt'), 'read', 'fs.read')).resolves.toMatchObject({ path: real('work/ok.txt') });
  });

  it('refuses deleting or moving a folder that holds it, and says so to protects() and listings', async () => {
    const rules = policy([viaLink('private/**')]);
    expect(await refusal(rules.resolveEntry(real('work/private'), 'write', 'fs.delete'))).toMatch(/deny pattern/);
    expect(await refusal(rules.resolveEntry(real('work'), 'write', 'fs.move'))).toMatch(/holds paths protected by the deny pattern/);
    expect(rules.protects(real('work/private/notes.txt'), 'read')).toBe(true);
    expect(rules.protects(real('work/ok.txt'), 'read')).toBe(false);
    const work = await rules.resolve(real('work'), 'read', 'fs.list');
    expect([rules.isProtectedName('private', work), rules.isProtectedName('ok.txt', work)]).toEqual([true, false]);
  });

  it('keeps the globs after the literal folders', async () => {
    const rules = policy([viaLink('*/keys/**')]);
    expect(await refusal(rules.resolve(real('work/app/keys/id.txt'), 'read', 'fs.read'))).toMatch(/deny pattern/);
    await expect(rules.resolve(real('work/app/src/main.ts'), 'read', 'fs.read')).resolves.toBeDefined();
  });

  it('follows a link made or retargeted after the start, a second on, and never forgets a place it named', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const later = path.join(tmp, 'home', 'later');
    const other = path.join(tmp, 'other');
    write(path.join(other, 'app', 'keys', 'id.txt'));
    const rules = new FilesystemPolicy(filesystemSchema.parse({ roots: [data, other], deny: [path.join(later, 'app', 'keys', '**')] }), localPort());
    const [key, otherKey] = [real('work/app/keys/id.txt'), path.join(other, 'app', 'keys', 'id.txt')];
    const read = async (file: string) => refusal(rules.resolve(file, 'read', 'fs.read'));
    // A second on: the next check starts a resolution and goes on with the last one (it waits
    // only for the first); the sandbox's planning waits for it, as this does.
    const aSecondOn = async () => {
      vi.setSystemTime(Date.now() + 1000);
      await rules.deniedPlaces();
    };
    expect(await read(key)).toBe('allowed');
    fs.symlinkSync(real('work'), later);
    try {
      // Within the second the earlier resolution stands; after it the new link counts.
      vi.setSystemTime(Date.now() + 200);
      await rules.deniedPlaces();
      expect(await read(key)).toBe('allowed');
      await aSecondOn();
      expect(await read(key)).toMatch(/deny pattern/);
      expect(await read(otherKey)).toBe('allowed');
      // Retargeted at another folder: that one is denied too, and the first stays denied (a
      // command could retarget a link in a writable root to uncover what it named).
      fs.rmSync(later);
      fs.symlinkSync(other, later);
      await aSecondOn();
      expect(await read(otherKey)).toMatch(/deny pattern/);
      expect(await read(key)).toMatch(/deny pattern/);
      // Retargeted again and again: the first places stay.
      for (let i = 0; i < 10; i++) {
        fs.mkdirSync(path.join(tmp, `decoy-${i}`));
        fs.rmSync(later);
        fs.symlinkSync(path.join(tmp, `decoy-${i}`), later);
        await aSecondOn();
        expect(await read(key)).toMatch(/deny pattern/);
      }
    } finally {
      fs.rmSync(later, { force: true });
    }
  });

  it('expands ~ to the home folder, follows a link spelled in another case, and resolves ".." (red team)', async () => {
    const home = path.join(tmp, 'home');
    const deny = ['~/work/private/**', path.join(home, 'WORK', 'app', 'keys', '**'), path.join(home, 'x', '..', 'work', 'ok.txt')];
    const rules = new FilesystemPolicy(filesystemSchema.parse({ read: true, write: true, roots: [data], deny }), localPort({ ...process.env, HOME: home }));
    for (const file of ['work/private/notes.txt', 'work/app/keys/id.txt', 'work/ok.txt'])
      expect(await refusal(rules.resolve(real(file), 'read', 'fs.read'))).toMatch(/deny pattern/);
    await expect(rules.resolve(real('work/app/src/main.ts'), 'read', 'fs.read')).resolves.toBeDefined();
  });

  it('refuses to build with ~ in a deny path when the home folder is not known, or with ~user, rather than protect nothing (red team)', () => {
    const env = { ...process.env };
    delete env.HOME;
    const config = filesystemSchema.parse({ read: true, roots: [data], deny: ['~/priv/**'] });
    expect(() => new FilesystemPolicy(config, localPort(env))).toThrow(
      'filesystem.deny: "~/priv/**" is in your home folder, but HOME is not set for this server',
    );
    const other = filesystemSchema.parse({ read: true, roots: [data], deny: ['~root/.ssh/**'] });
    expect(() => new FilesystemPolicy(other, localPort())).toThrow(
      'filesystem.deny: "~root/.ssh/**" names a user\'s home folder: write it as an absolute path',
    );
    // An Office lock file's name is a name.
    expect(() => new FilesystemPolicy(filesystemSchema.parse({ read: true, roots: [data], deny: ['~$*.docx'] }), localPort())).not.toThrow();
  });

  it('waits only for the first resolution: a slow folder slows no later check (red team)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const slow = {
      ...localPort(),
      listNames: async (dir: string, limit?: number) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return localPort().listNames(dir, limit);
      },
    };
    // Spelled in another case than on disk: each resolution looks through the folders.
    const config = filesystemSchema.parse({ read: true, roots: [data], deny: [path.join(tmp, 'HOME', 'work', 'private', '**')] });
    const rules = new FilesystemPolicy(config, slow);
    const timed = async () => {
      const started = performance.now();
      const answer = await refusal(rules.resolve(real('work/private/notes.txt'), 'read', 'fs.read'));
      return { answer, ms: performance.now() - started };
    };
    expect((await timed()).ms).toBeGreaterThan(250);
    vi.setSystemTime(Date.now() + 1000);
    const later = await timed();
    expect(later.answer).toMatch(/deny pattern/);
    expect(later.ms).toBeLessThan(250);
    await rules.deniedPlaces();
  });

  it('lets calls that come together at the start wait for the first resolution', async () => {
    const rules = policy([viaLink('private/**')]);
    const answers = await Promise.all([1, 2, 3].map(() => refusal(rules.resolve(real('work/private/notes.txt'), 'read', 'fs.read'))));
    expect(answers.every((answer) => /deny pattern/.test(answer))).toBe(true);
  });
});

describe('an anchored pattern rebased on its real folders', () => {
  it('takes the folders before the first glob as its literal part, ".." resolved as in a requested path', () => {
    const [keys, whole, glob, dots] = compilePatterns(['/home/me/work/*/keys/**', '/home/me/id.key', '/*/x', '/a/../b'], 'deny', 'linux');
    expect([keys!.literal, whole!.literal, glob!.literal, dots!.literal]).toEqual([
      { path: '/home/me/work', parts: 3 },
      { path: '/home/me/id.key', parts: 3 },
      undefined,
      { path: '/b', parts: 1 },
    ]);
    expect(compilePatterns(['keys/**'], 'deny', 'linux')[0]!.literal).toBeUndefined();
  });

  it('matches the real spelling, names with regular-expression characters literally, and keeps its source', () => {
    const [pattern] = compilePatterns(['/home/me/work/*/keys/**'], 'deny', 'linux');
    const moved = rebased(pattern!, '/mnt/d [1]+(x)/work', 'linux');
    expect(moved.source).toBe('/home/me/work/*/keys/**');
    expect(findMatch([moved], wholePath('/mnt/d [1]+(x)/work/app/keys/a', 'linux'))).toBe(moved);
    expect(findMatch([moved], wholePath('/mnt/d 1+x/work/app/keys/a', 'linux'))).toBeUndefined();
    expect(findMatch([moved], wholePath('/mnt/d [1]+(x)/work/app/src/a', 'linux'))).toBeUndefined();
  });
});
