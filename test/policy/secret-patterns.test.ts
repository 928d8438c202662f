/** The deny-pattern matcher: built-in secret locations and owner globs, on path segments. */
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_SECRET_LOCATIONS,
  BUILT_IN_SECRET_PATTERNS,
  checkSecretExamples,
  compilePatterns,
  findAncestorMatch,
  findMatch,
  isGitCodeFolder,
} from '../../main/policy/secret-patterns.js';
import { splitPath, type Platform } from '../../main/policy/path-compare.js';

const builtIn = compilePatterns(BUILT_IN_SECRET_PATTERNS, 'built-in', 'linux');

describe('built-in secret patterns', () => {
  const denied: Array<[string, string]> = [
    ['.ssh', '.ssh/'],
    ['.ssh/id_rsa', '.ssh/'],
    ['.ssh/config', '.ssh/'],
    ['home/u/.ssh/known_hosts', '.ssh/'],
    ['.gnupg/private-keys-v1.d/x.key', '.gnupg/'],
    ['.aws/credentials', '.aws/'],
    ['.env', '.env'],
    ['app/.env', '.env'],
    ['.env.local', '.env.*'],
    ['.env.production.local', '.env.*'],
    ['certs/server.pem', '*.pem'],
    ['.pem', '*.pem'],
    ['tls/server.key', '*.key'],
    ['store.p12', '*.p12'],
    ['store.pfx', '*.pfx'],
    ['id_rsa', 'id_rsa*'],
    ['backup/id_rsa.pub', 'id_rsa*'],
    ['id_dsa', 'id_dsa*'],
    ['id_ecdsa_sk', 'id_ecdsa*'],
    ['keys/id_ed25519', 'id_ed25519*'],
    ['.git-credentials', '.git-credentials'],
    ['.npmrc', '.npmrc'],
    ['.netrc', '.netrc'],
    ['.pgpass', '.pgpass'],
    // case and Unicode tricks
    ['.SSH/id_rsa', '.ssh/'],
    ['.Env', '.env'],
    ['.ENV.LOCAL', '.env.*'],
    ['certs/SERVER.PEM', '*.pem'],
    ['ID_RSA', 'id_rsa*'],
    ['.e\u200cnv', '.env'], // HFS+ ignores zero-width joiners
    ['\ufeff.npmrc', '.npmrc'],
  ];
  it.each(denied)('%j is protected by %j', (relative, pattern) => {
    expect(findMatch(builtIn, { relative: relative.split('/') })?.source).toBe(pattern);
  });

  const allowed = [
    'file.txt',
    '.environment',
    'env',
    'src/env.ts',
    'public.key.txt',
    'keys',
    'ssh/config',
    'my.ssh.txt',
    'id-rsa-notes.md',
    'pem',
    '.npmrc.bak',
    '',
  ];
  it.each(allowed)('%j is not protected', (relative) => {
    expect(findMatch(builtIn, { relative: relative === '' ? [] : relative.split('/') })).toBeUndefined();
  });
});

describe('the built-in patterns check themselves', () => {
  it('every pattern carries examples both ways, and they hold through the real matcher', () => {
    expect(BUILT_IN_SECRET_PATTERNS).toEqual(BUILT_IN_SECRET_LOCATIONS.map((l) => l.pattern));
    expect(Object.isFrozen(BUILT_IN_SECRET_PATTERNS)).toBe(true);
    for (const location of BUILT_IN_SECRET_LOCATIONS) {
      expect(location.matches.length, location.pattern).toBeGreaterThan(0);
      expect(location.nearMisses.length, location.pattern).toBeGreaterThan(0);
    }
    expect(() => checkSecretExamples(BUILT_IN_SECRET_LOCATIONS)).not.toThrow();
  });

  it('a path the pattern does not match, given as a match, is caught with the pattern and the path', () => {
    expect(() => checkSecretExamples([{ pattern: '*.pem', matches: ['certs/server.pem', 'server.pem.txt'], nearMisses: [] }])).toThrow(
      'secret pattern "*.pem": the example "server.pem.txt" must match it, but does not',
    );
  });

  it('a near-miss the pattern matches is caught with the pattern and the path', () => {
    expect(() => checkSecretExamples([{ pattern: '.ssh/', matches: ['.ssh/id_rsa'], nearMisses: ['home/u/.ssh/config'] }])).toThrow(
      'secret pattern ".ssh/": the near-miss "home/u/.ssh/config" must not match it, but does',
    );
  });
});

describe('owner deny globs', () => {
  const cases: Array<[Platform, string, string, boolean]> = [
    ['linux', 'secrets', 'secrets/a.txt', true],
    ['linux', 'secrets/', 'a/secrets', true],
    ['linux', 'secrets', 'not-secrets/a.txt', false],
    ['linux', '*.log', 'build/out.log', true],
    ['linux', '*.log', 'build/out.log.txt', false],
    ['linux', 'config/prod.json', 'app/config/prod.json', true],
    ['linux', 'config/prod.json', 'config/dev.json', false],
    ['linux', 'config/prod.json', 'prod.json', false],
    ['linux', 'a/**/z', 'a/z', true],
    ['linux', 'a/**/z', 'x/a/b/c/z/file', true],
    ['linux', 'a/**/z', 'a/b/c', false],
    ['linux', 'data/*/private', 'data/u1/private/x', true],
    ['linux', 'data/*/private', 'data/u1/u2/private', false],
    ['linux', 'file?.txt', 'file1.txt', true],
    ['linux', 'file?.txt', 'file10.txt', false],
    ['linux', 'v[0-9].bin', 'v7.bin', true],
    ['linux', 'v[!0-9].bin', 'v7.bin', false],
    ['linux', 'v[!0-9].bin', 'vx.bin', true],
    ['linux', 'a.b', 'aXb', false], // dots are literal
    ['linux', '(x)+', '(x)+', true], // regex characters are literal
    ['linux', 'Private', 'PRIVATE/x', true], // case-insensitive on every platform
    ['win32', 'config\\prod.json', 'config/prod.json', true],
    ['win32', 'config/prod.json', 'config/prod.json', true],
  ];
  it.each(cases)('%s %j vs %j -> %s', (platform, glob, relative, expected) => {
    const patterns = compilePatterns([glob], 'deny', platform);
    expect(findMatch(patterns, { relative: relative.split('/') }) !== undefined).toBe(expected);
  });

  const anchored: Array<[Platform, string, string, boolean]> = [
    ['linux', '/srv/data/private', '/srv/data/private/x', true],
    ['linux', '/srv/data/private', '/srv/data/private', true],
    ['linux', '/srv/data/private', '/other/srv/data/private', false],
    ['linux', '/srv/*/private', '/srv/a/private/y', true],
    ['linux', '/srv/**/*.db', '/srv/a/b/c.db', true],
    ['win32', 'C:\\Users\\*\\secrets', 'c:\\users\\me\\Secrets\\x', true],
    ['win32', 'C:/Users/*/secrets', 'D:\\Users\\me\\secrets', false],
    ['win32', '\\\\srv\\share\\hr', '\\\\SRV\\share\\HR\\pay.xlsx', true],
  ];
  it.each(anchored)('%s anchored %j vs %j -> %s', (platform, glob, absolute, expected) => {
    const patterns = compilePatterns([glob], 'deny', platform);
    expect(findMatch(patterns, { absolute: splitPath(absolute, platform) }) !== undefined).toBe(expected);
    // An anchored pattern never floats: the same segments below a root do not match it.
    expect(findMatch(patterns, { relative: splitPath(absolute, platform).segments })).toBeUndefined();
  });

  it('reports the first pattern that matches and where it came from', () => {
    const patterns = [...compilePatterns(['*.txt'], 'deny', 'linux'), ...builtIn];
    expect(findMatch(patterns, { relative: ['.env'] })).toMatchObject({ source: '.env', origin: 'built-in' });
    expect(findMatch(patterns, { relative: ['notes.txt'] })).toMatchObject({ source: '*.txt', origin: 'deny' });
  });
});

describe('findAncestorMatch: entries a move or delete would carry out of a pattern', () => {
  const deny = (...sources: string[]) => compilePatterns(sources, 'deny', 'linux');
  const cases: Array<[string, string, boolean]> = [
    ['config/credentials.json', 'config', true],
    ['config/credentials.json', 'app/config', true],
    ['secrets/**/key', 'secrets/a', true],
    ['/abs/proj/private/**', '/abs/proj', true],
    // A leading ** floats: the pattern still matches below the entry wherever it is moved.
    ['**/private/**', 'obsolete.txt', false],
    ['**/private/**', 'src', false],
    ['**/private/*.txt', 'docs/readme.md', false],
    ['config/credentials.json', 'other', false],
    ['*.log', 'build', false],
  ];
  it.each(cases)('%s protects something below %s: %s', (pattern, target, expected) => {
    const match = target.startsWith('/')
      ? findAncestorMatch(deny(pattern), { absolute: splitPath(target, 'linux') })
      : findAncestorMatch(deny(pattern), { relative: target.split('/') });
    expect(match !== undefined).toBe(expected);
  });
});

describe('isGitCodeFolder: git folders whose code the git-code patterns protect', () => {
  const cases: Array<[Platform, string, boolean]> = [
    ['linux', '/r/app/.git', true],
    ['linux', '/r/app/.GIT', true],
    ['linux', '/r/app/.git/worktrees/wt', true],
    ['linux', '/r/app/.git/modules/libs/deep', true],
    ['linux', '/r/app/.git/modules/sub/worktrees/w', true],
    ['linux', '/r/backup.git', true],
    ['linux', '/r/backup.git/worktrees/wt', true],
    ['win32', 'C:\\r\\app\\.git\\worktrees\\wt', true],
    // Inside a .git folder under a name no git folder has there: its config is the tools' to write.
    ['linux', '/r/app/.git/m-gd', false],
    ['linux', '/r/app/.git/worktrees/wt/nested', false],
    ['linux', '/r/app/.git/refs', false],
    ['linux', '/r/m-gd', false],
    ['linux', '/r/backup.git/objects', false],
    ['win32', 'C:\\r\\app\\.git\\m-gd', false],
  ];
  it.each(cases)('%s %j -> %s', (platform, folder, expected) => {
    expect(isGitCodeFolder(folder, platform)).toBe(expected);
  });
});
