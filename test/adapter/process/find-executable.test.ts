import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executableCandidates, findExecutable } from '../../../adapter/process/find-executable.js';
import { isPosix, makeTempDir, writeScript } from './helpers.js';

describe.runIf(isPosix)('findExecutable (real files)', () => {
  let dir: string;
  let first: string;
  let second: string;

  beforeAll(() => {
    dir = makeTempDir('which');
    first = path.join(dir, 'first');
    second = path.join(dir, 'second');
    fs.mkdirSync(first);
    fs.mkdirSync(second);
    writeScript(first, 'mytool', '#!/bin/sh\necho first\n');
    writeScript(first, 'dup', '#!/bin/sh\n');
    writeScript(second, 'dup', '#!/bin/sh\n');
    writeScript(first, 'notexec', '#!/bin/sh\n', 0o644);
    fs.mkdirSync(path.join(first, 'adir'));
    fs.symlinkSync(path.join(first, 'mytool'), path.join(second, 'linked'));
    fs.symlinkSync(path.join(first, 'missing-target'), path.join(second, 'dangling'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds sh on the system PATH and resolves its symlinks', async () => {
    const result = await findExecutable('sh', '/usr/local/bin:/usr/bin:/bin');
    expect(result).not.toBeNull();
    const { found, real } = result as { found: string; real: string };
    expect(path.isAbsolute(found)).toBe(true);
    expect(path.basename(found)).toBe('sh');
    expect(real).toBe(fs.realpathSync(found));
    // Debian: /usr/bin/sh -> dash. Wherever sh is a link, real must differ from found.
    if (fs.lstatSync(found).isSymbolicLink()) expect(real).not.toBe(found);
  });

  it('returns null for a name that is nowhere on PATH', async () => {
    expect(await findExecutable('no-such-command-cmcp', '/usr/local/bin:/usr/bin:/bin')).toBeNull();
  });

  it('honours a custom PATH, in order', async () => {
    expect(await findExecutable('mytool', `${second}:${first}`)).toEqual({ found: path.join(first, 'mytool'), real: path.join(first, 'mytool'), links: [] });
    expect((await findExecutable('dup', `${second}:${first}`))?.found).toBe(path.join(second, 'dup'));
    expect((await findExecutable('dup', `${first}:${second}`))?.found).toBe(path.join(first, 'dup'));
    expect(await findExecutable('sh', first)).toBeNull();
  });

  it('follows a symlink on PATH to its target', async () => {
    expect(await findExecutable('linked', second)).toEqual({
      found: path.join(second, 'linked'),
      real: path.join(first, 'mytool'),
      links: [path.join(second, 'linked')],
    });
    expect(await findExecutable('dangling', second)).toBeNull();
  });

  it('names every link on the way, relative ones resolved against their own folder', async () => {
    fs.symlinkSync('linked', path.join(second, 'twice'));
    expect((await findExecutable('twice', second))?.links).toEqual([path.join(second, 'twice'), path.join(second, 'linked')]);
    // A folder link in the middle: via/mytool, where via -> first.
    fs.symlinkSync(first, path.join(dir, 'via'));
    fs.symlinkSync(path.join(dir, 'via', 'mytool'), path.join(second, 'through-folder'));
    expect((await findExecutable('through-folder', second))?.links).toEqual([path.join(second, 'through-folder'), path.join(dir, 'via')]);
  });

  it('sees programs appear, move and lose their execute bit between calls (only the list of places to look is remembered)', async () => {
    const PATH = `${second}:${first}`;
    expect(await findExecutable('late', PATH)).toBeNull();
    writeScript(first, 'late', '#!/bin/sh\n');
    expect((await findExecutable('late', PATH))?.found).toBe(path.join(first, 'late'));
    writeScript(second, 'late', '#!/bin/sh\n');
    expect((await findExecutable('late', PATH))?.found).toBe(path.join(second, 'late'));
    fs.chmodSync(path.join(second, 'late'), 0o644);
    expect((await findExecutable('late', PATH))?.found).toBe(path.join(first, 'late'));
    fs.rmSync(path.join(first, 'late'));
    expect(await findExecutable('late', PATH)).toBeNull();
  });

  it('skips files without execute permission and directories', async () => {
    expect(await findExecutable('notexec', first)).toBeNull();
    expect(await findExecutable('adir', first)).toBeNull();
  });

  it('never searches the current directory: empty, relative or missing PATH finds nothing', async () => {
    expect(await findExecutable('mytool', '', first)).toBeNull();
    expect(await findExecutable('mytool', ':.:first', first)).toBeNull();
    expect(await findExecutable('mytool', undefined, first)).toBeNull();
  });

  it('resolves absolute names and relative names with a separator against cwd', async () => {
    const tool = path.join(first, 'mytool');
    expect(await findExecutable(tool, undefined)).toEqual({ found: tool, real: tool, links: [] });
    expect(await findExecutable('./mytool', undefined, first)).toEqual({ found: tool, real: tool, links: [] });
    expect(await findExecutable('first/../first/mytool', '', dir)).toEqual({ found: tool, real: tool, links: [] });
    expect(await findExecutable('./notexec', undefined, first)).toBeNull();
  });

  it('rejects empty names and NUL bytes', async () => {
    expect(await findExecutable('', '/usr/bin:/bin')).toBeNull();
    expect(await findExecutable('sh\0', '/usr/bin:/bin')).toBeNull();
  });
});

describe('executableCandidates (pure, every platform)', () => {
  it('POSIX: each absolute PATH entry once, no extensions', () => {
    expect(executableCandidates('git', '/usr/bin::relative:/opt/bin/', '/home/u', 'linux')).toEqual(['/usr/bin/git', '/opt/bin/git']);
    expect(executableCandidates('./x', '/usr/bin', '/home/u', 'darwin')).toEqual(['/home/u/x']);
  });

  it('Windows: PATHEXT in order, quoted entries, ; separator, backslash and slash separators', () => {
    const pathext = '.COM;.EXE;.BAT;.CMD';
    expect(executableCandidates('node', 'C:\\Windows\\System32;"C:\\Program Files\\nodejs";relative', 'C:\\work', 'win32', pathext)).toEqual([
      'C:\\Windows\\System32\\node.com',
      'C:\\Windows\\System32\\node.exe',
      'C:\\Windows\\System32\\node.bat',
      'C:\\Windows\\System32\\node.cmd',
      'C:\\Program Files\\nodejs\\node.com',
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\Program Files\\nodejs\\node.bat',
      'C:\\Program Files\\nodejs\\node.cmd',
    ]);
    expect(executableCandidates('tools\\x', 'C:\\bin', 'C:\\work', 'win32', '.EXE')).toEqual(['C:\\work\\tools\\x.exe']);
    expect(executableCandidates('tools/x', 'C:\\bin', 'C:\\work', 'win32', '.EXE')).toEqual(['C:\\work\\tools\\x.exe']);
  });

  it('Windows: a name with a PATHEXT extension is tried as is; other dots get extensions appended', () => {
    expect(executableCandidates('git.EXE', 'C:\\Git\\cmd', 'C:\\', 'win32', '.COM;.EXE')).toEqual(['C:\\Git\\cmd\\git.EXE']);
    expect(executableCandidates('python3.11', 'C:\\Py', 'C:\\', 'win32', '.EXE')).toEqual(['C:\\Py\\python3.11.exe']);
    expect(executableCandidates('C:\\Tools\\app.exe', undefined, 'C:\\', 'win32', '.EXE')).toEqual(['C:\\Tools\\app.exe']);
  });

  it('Windows: an empty PATHEXT falls back to the default list', () => {
    expect(executableCandidates('x', 'C:\\b', 'C:\\', 'win32', '')).toEqual(['C:\\b\\x.com', 'C:\\b\\x.exe', 'C:\\b\\x.bat', 'C:\\b\\x.cmd']);
  });
});
