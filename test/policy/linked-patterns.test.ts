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
import { LinkedPatterns } from '../../main/policy/linked-patterns.js';
import { MAX_LISTED } from '../../main/policy/pattern-places.js';
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

describe('a deny path whose folders after a wildcard pass through a link', () => {
  let wild: string;
  // The owner's spelling: links into the root, which tools judge at its real paths.
  let home: string;
  let disk: string;
  const onDisk = (relative: string) => path.join(disk, relative);
  const keyOf = (folder: string) => onDisk(path.join(folder, 'private', 'key'));
  const rulesFor = (deny: string[]) => new FilesystemPolicy(filesystemSchema.parse({ read: true, write: true, roots: [disk], deny }), localPort());
  const read = async (rules: FilesystemPolicy, file: string) => refusal(rules.resolve(file, 'read', 'fs.read'));

  beforeAll(() => {
    wild = makeTempDir('linked-wild-');
    home = path.join(wild, 'home');
    // Glob and regular-expression characters in the real names: spelled into the rebased pattern literally.
    disk = path.join(wild, 'disk [1]+(x)*');
    for (const folder of ['proj', 'x', 'q[r]*', 'qr']) write(keyOf(folder), 'SECRET');
    write(onDisk('proj/ok.txt'));
    fs.mkdirSync(path.join(home, 'plain'), { recursive: true });
    fs.symlinkSync(onDisk('proj'), path.join(home, 'proj'));
    fs.symlinkSync(onDisk('q[r]*'), path.join(home, '[l]ink*'));
    // A real folder whose `private` is a link.
    fs.symlinkSync(onDisk('x'), path.join(home, 'plain', 'private'));
  });

  afterAll(() => removeDir(wild));

  it('refuses a file by its real path when a link a `*` matches leads there, and hides the place from commands', async () => {
    const deny = path.join(home, '*', 'private', '**');
    const rules = rulesFor([deny]);
    expect(await read(rules, keyOf('proj'))).toBe(`PATH_NOT_ALLOWED: ${keyOf('proj')} matches the deny pattern "${deny}" (filesystem.deny)`);
    expect(await read(rules, keyOf('q[r]*'))).toMatch(/deny pattern/);
    // Matched as the link's target is spelled, not as a glob: `qr` is no link's target.
    expect(await read(rules, keyOf('qr'))).toBe('allowed');
    expect(await read(rules, onDisk('proj/ok.txt'))).toBe('allowed');
    expect(await refusal(rules.resolveEntry(onDisk('proj/private'), 'write', 'fs.delete'))).toMatch(/deny pattern/);
    expect(await refusal(rules.resolveEntry(onDisk('proj'), 'write', 'fs.move'))).toMatch(/holds paths protected by the deny pattern/);
    // What the command sandbox hides: each place the pattern names whole, reached through a link.
    expect((await rules.deniedPlaces()).sort()).toEqual([onDisk('proj/private'), onDisk('q[r]*/private'), onDisk('x')].sort());
  });

  it('follows a link at a name after a wildcard (a real folder whose `private` is a link)', async () => {
    const rules = rulesFor([path.join(home, '*', 'private')]);
    expect(await read(rules, onDisk('x'))).toMatch(/deny pattern/);
    expect(await read(rules, keyOf('x'))).toMatch(/deny pattern/);
    expect(await rules.deniedPlaces()).toContain(onDisk('x'));
    expect(await read(rules, onDisk('proj/ok.txt'))).toBe('allowed');
  });

  it('follows a link made after the first check, a second on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    write(keyOf('late'));
    const rules = rulesFor([path.join(home, '*', 'private', '**')]);
    expect(await read(rules, keyOf('late'))).toBe('allowed');
    const link = path.join(home, 'late');
    fs.symlinkSync(onDisk('late'), link);
    try {
      vi.setSystemTime(Date.now() + 200);
      await rules.deniedPlaces();
      expect(await read(rules, keyOf('late'))).toBe('allowed');
      vi.setSystemTime(Date.now() + 1000);
      await rules.deniedPlaces();
      expect(await read(rules, keyOf('late'))).toMatch(/deny pattern/);
    } finally {
      fs.rmSync(link);
    }
  });

  it('lists no folder of over MAX_LISTED names (one of exactly that many is)', async () => {
    for (const [folder, count] of [
      ['full', MAX_LISTED],
      ['over', MAX_LISTED + 1],
    ] as const) {
      const dir = path.join(wild, folder);
      fs.mkdirSync(dir);
      for (let i = 1; i < count; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
      write(keyOf(folder));
      fs.symlinkSync(onDisk(folder), path.join(dir, 'link'));
    }
    const rules = rulesFor([path.join(wild, 'full', '*', 'private', '**'), path.join(wild, 'over', '*', 'private', '**')]);
    expect(await read(rules, keyOf('full'))).toMatch(/deny pattern/);
    expect(await read(rules, keyOf('over'))).toBe('allowed');
  });

  it('keeps the places found first when links beyond the bound come later (decoys), and adds no more than the bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const dir = path.join(wild, 'decoys');
    fs.mkdirSync(dir);
    write(keyOf('first'));
    fs.symlinkSync(onDisk('first'), path.join(dir, 'first'));
    const rules = rulesFor([path.join(dir, '*', 'private', '**')]);
    expect(await read(rules, keyOf('first'))).toMatch(/deny pattern/);
    const decoys = Array.from({ length: 70 }, (_, i) => `decoy-${i}`);
    for (const decoy of decoys) {
      write(keyOf(decoy));
      fs.symlinkSync(onDisk(decoy), path.join(dir, decoy));
    }
    vi.setSystemTime(Date.now() + 1000);
    await rules.deniedPlaces();
    expect(await read(rules, keyOf('first'))).toMatch(/deny pattern/);
    // 64 places a pattern at most, one of them `first`.
    const refused = await Promise.all(decoys.map(async (decoy) => /deny pattern/.test(await read(rules, keyOf(decoy)))));
    expect(refused.filter(Boolean)).toHaveLength(63);
  });

  it('walks a link loop no deeper than the pattern is long, and leaves out a link to itself', async () => {
    const dir = path.join(wild, 'loop');
    fs.mkdirSync(dir);
    write(keyOf('looped'));
    fs.symlinkSync(dir, path.join(dir, 'up'));
    fs.symlinkSync(path.join(dir, 'self'), path.join(dir, 'self'));
    fs.symlinkSync(onDisk('looped'), path.join(dir, 'real'));
    // Only `loop/up/real/private` reaches the key: three levels, two of them through `up`.
    const rules = rulesFor([path.join(dir, '*', '*', 'private', '**')]);
    expect(await read(rules, keyOf('looped'))).toMatch(/deny pattern/);
  });

  it('changes nothing for a wildcard that matches no name, or only real folders', async () => {
    fs.mkdirSync(path.join(home, 'solid', 'private'), { recursive: true });
    const [none, real, linked] = compilePatterns(
      [path.join(home, 'zzz*', 'private', '**'), path.join(home, 'sol?d', 'private', 'key'), path.join(home, 'pro?', 'private', '**')],
      'deny',
      'linux',
    );
    const patterns = new LinkedPatterns([none!, real!, linked!], localPort(), 'linux');
    await patterns.settled();
    expect(patterns.current.map((p) => p.source)).toEqual([none!.source, real!.source, linked!.source, linked!.source]);
    expect(findMatch(patterns.current, wholePath(keyOf('proj'), 'linux'))).toBe(patterns.current[3]);
    expect(patterns.wholePlaces()).toEqual([onDisk('proj/private')]);
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

  it('spelled from where a wildcard led: the real path exactly, then the parts after the ones it stands for', () => {
    const [pattern] = compilePatterns(['/home/me/*/keys/**'], 'deny', 'linux');
    const moved = rebased(pattern!, '/mnt/p*', 'linux', 3);
    expect(findMatch([moved], wholePath('/mnt/p*/keys/a', 'linux'))).toBe(moved);
    expect(findMatch([moved], wholePath('/mnt/px/keys/a', 'linux'))).toBeUndefined();
    expect(findMatch([moved], wholePath('/mnt/p*/src/a', 'linux'))).toBeUndefined();
  });
});
