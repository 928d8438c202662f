/**
 * The pure path rules, for every platform on any machine: normalization (including Windows
 * drive, UNC and \\?\ forms and the forms that must be refused) and segment-boundary
 * containment under each platform's case rules.
 */
import { describe, expect, it } from 'vitest';
import { inputProblem, isInside, isRelativeInput, normalizeAbsolute, relativeSegments, samePath, type Platform } from '../../main/policy/path-compare.js';

const INVALID = Symbol('invalid');

describe('normalizeAbsolute', () => {
  const cases: Array<[Platform, string, string | typeof INVALID]> = [
    // POSIX (Linux and macOS share the syntax)
    ['linux', '/a/b/../c', '/a/c'],
    ['linux', '/a//b/./', '/a/b'],
    ['linux', '/', '/'],
    ['linux', '/../../..', '/'],
    ['linux', '//etc/passwd', '/etc/passwd'],
    ['linux', '/r/..\\..\\etc', '/r/..\\..\\etc'], // a backslash is an ordinary name character
    ['linux', '/r/%2e%2e/%2e%2e/etc', '/r/%2e%2e/%2e%2e/etc'], // no URL decoding
    ['linux', '/r/C:\\x', '/r/C:\\x'],
    ['darwin', '/Users/me/../you', '/Users/you'],
    ['linux', 'relative/path', INVALID],
    ['linux', '', INVALID],
    ['linux', '   ', INVALID],
    ['linux', '/r/a\0b', INVALID],
    // Windows drive paths
    ['win32', 'C:\\a\\..\\b', 'C:\\b'],
    ['win32', 'c:/a/b/', 'C:\\a\\b'],
    ['win32', 'C:\\a/..\\../..\\x', 'C:\\x'],
    ['win32', 'C:\\', 'C:\\'],
    ['win32', 'C:\\root\\%2e%2e\\x', 'C:\\root\\%2e%2e\\x'],
    // Windows long-path prefixes are unwrapped to the same form
    ['win32', '\\\\?\\C:\\a\\b', 'C:\\a\\b'],
    ['win32', '\\\\?\\c:\\a\\..\\b', 'C:\\b'],
    ['win32', '\\\\?\\UNC\\srv\\share\\a', '\\\\srv\\share\\a'],
    ['win32', '//?/C:/a', 'C:\\a'],
    // UNC: `..` cannot climb above the share
    ['win32', '\\\\srv\\share\\a\\..\\b', '\\\\srv\\share\\b'],
    ['win32', '//srv/share/../../x', '\\\\srv\\share\\x'],
    ['win32', '\\\\srv\\share', '\\\\srv\\share\\'],
    // Windows forms that are not plain files, or are ambiguous
    ['win32', '\\\\.\\C:\\a', INVALID],
    ['win32', '\\\\.\\PhysicalDrive0', INVALID],
    ['win32', '//./pipe/x', INVALID],
    ['win32', '\\\\?\\GLOBALROOT\\Device\\HarddiskVolume1\\x', INVALID],
    ['win32', '\\\\?\\Volume{0b1c2d3e-0000-0000-0000-000000000000}\\x', INVALID],
    ['win32', '\\??\\C:\\x', INVALID],
    ['win32', 'C:relative', INVALID],
    ['win32', 'C:', INVALID],
    ['win32', '\\root-relative', INVALID],
    ['win32', '/root-relative', INVALID],
    ['win32', '\\\\srv', INVALID],
    ['win32', '\\\\\\srv\\share\\x', INVALID],
    ['win32', 'C:\\r\\file.txt::$DATA', INVALID],
    ['win32', 'C:\\r\\.env:secret', INVALID],
    ['win32', 'C:\\r\\.env.', INVALID],
    ['win32', 'C:\\r\\.env ', INVALID],
    ['win32', 'C:\\r\\...', INVALID],
    ['win32', 'C:\\r\\CON', INVALID],
    ['win32', 'C:\\r\\nul.txt', INVALID],
    ['win32', 'C:\\r\\com1', INVALID],
    ['win32', 'C:\\r\\LPT9.log', INVALID],
    ['win32', 'C:\\r\\CONIN$', INVALID],
    ['win32', 'C:\\r\\a<b', INVALID],
    ['win32', 'C:\\r\\a?', INVALID],
    ['win32', 'C:\\r\\a*', INVALID],
    ['win32', 'C:\\r\\a\u0001b', INVALID],
    ['win32', 'C:\\r\\a\0', INVALID],
    ['win32', 'a\\b', INVALID],
  ];

  it.each(cases)('%s %j -> %s', (platform, input, expected) => {
    const result = normalizeAbsolute(input, platform);
    if (expected === INVALID) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
    } else {
      expect(result).toEqual({ ok: true, path: expected });
    }
  });

  it('keeps names that only look like devices or streams', () => {
    expect(normalizeAbsolute('C:\\r\\console.txt', 'win32')).toEqual({ ok: true, path: 'C:\\r\\console.txt' });
    expect(normalizeAbsolute('C:\\r\\com10', 'win32')).toEqual({ ok: true, path: 'C:\\r\\com10' });
    expect(normalizeAbsolute('C:\\r\\.env.local', 'win32')).toEqual({ ok: true, path: 'C:\\r\\.env.local' });
  });
});

describe('isRelativeInput', () => {
  const cases: Array<[Platform, string, boolean]> = [
    ['linux', 'a/b', true],
    ['linux', './a', true],
    ['linux', '../a', true],
    ['linux', '~/a', true], // no tilde expansion: a literal name under the first root
    ['linux', '/a', false],
    ['linux', 'C:\\a', true],
    ['darwin', 'a', true],
    ['win32', 'a\\b', true],
    ['win32', 'a/b', true],
    ['win32', '..\\a', true],
    ['win32', 'C:\\a', false],
    ['win32', 'C:a', false], // drive-relative: refused by normalizeAbsolute, never joined
    ['win32', '\\a', false],
    ['win32', '/a', false],
    ['win32', '\\\\srv\\share', false],
  ];
  it.each(cases)('%s %j -> %s', (platform, input, expected) => {
    expect(isRelativeInput(input, platform)).toBe(expected);
  });
});

describe('isInside (segment boundary, platform case rules)', () => {
  const cases: Array<[Platform, string, string, boolean]> = [
    ['linux', '/data/root', '/data/root', true],
    ['linux', '/data/root/x/y', '/data/root', true],
    ['linux', '/data/root-evil', '/data/root', false],
    ['linux', '/data/root-evil/x', '/data/root', false],
    ['linux', '/data/rootx', '/data/root', false],
    ['linux', '/data', '/data/root', false],
    ['linux', '/', '/data/root', false],
    ['linux', '/anything/at/all', '/', true],
    ['linux', '/data/Root/x', '/data/root', false], // Linux is case-sensitive
    ['linux', '/data/caf\u00e9', '/data/cafe\u0301', false],
    ['linux', '/data/root/../etc', '/data/root', false], // normalized first
    ['darwin', '/DATA/ROOT/x', '/data/root', true],
    ['darwin', '/data/ROOT-EVIL', '/data/root', false],
    ['darwin', '/data/caf\u00e9/x', '/data/cafe\u0301', true], // APFS ignores normalization
    ['win32', 'C:\\root\\x', 'c:\\ROOT', true],
    ['win32', 'c:/Root/X', 'C:\\root', true],
    ['win32', 'D:\\root\\x', 'C:\\root', false],
    ['win32', 'C:\\root-evil', 'C:\\root', false],
    ['win32', 'C:\\rootx\\y', 'C:\\root', false],
    ['win32', 'C:\\root\\..\\Windows', 'C:\\root', false],
    ['win32', 'C:\\root/..\\Windows\\System32', 'C:\\root', false],
    ['win32', 'C:\\x', 'C:\\', true],
    ['win32', '\\\\?\\C:\\root\\x', 'C:\\root', true],
    ['win32', '\\\\?\\C:\\root-evil', 'C:\\root', false],
    ['win32', '\\\\srv\\share\\root\\x', '\\\\SRV\\Share\\root', true],
    ['win32', '\\\\?\\UNC\\srv\\share\\root\\x', '\\\\srv\\share\\root', true],
    ['win32', '\\\\srv\\share2\\root', '\\\\srv\\share\\root', false],
    ['win32', '\\\\srv\\share\\root-evil', '\\\\srv\\share\\root', false],
    ['win32', '\\\\srv\\share\\..\\other\\root', '\\\\srv\\share\\root', false],
    ['win32', '\\\\srv\\share\\x', 'C:\\', false],
    ['win32', 'C:\\srv\\share\\root', '\\\\srv\\share\\root', false],
  ];
  it.each(cases)('%s %j in %j -> %s', (platform, child, parent, expected) => {
    const c = normalizeAbsolute(child, platform);
    const p = normalizeAbsolute(parent, platform);
    if (!c.ok || !p.ok) throw new Error(`fixture did not normalize: ${child} / ${parent}`);
    expect(isInside(c.path, p.path, platform)).toBe(expected);
  });
});

describe('relativeSegments and samePath', () => {
  it('returns the original spelling of the segments below the parent', () => {
    expect(relativeSegments('/DATA/Root/Sub/File.TXT', '/data/root', 'darwin')).toEqual(['Sub', 'File.TXT']);
    expect(relativeSegments('C:\\Root\\A\\b', 'C:\\root', 'win32')).toEqual(['A', 'b']);
    expect(relativeSegments('/data/root', '/data/root', 'linux')).toEqual([]);
    expect(relativeSegments('/data/root-evil', '/data/root', 'linux')).toBeUndefined();
  });

  it('compares whole paths under the platform rules', () => {
    expect(samePath('C:\\ROOT', 'c:\\root', 'win32')).toBe(true);
    expect(samePath('/ROOT', '/root', 'linux')).toBe(false);
    expect(samePath('/root/x', '/root', 'linux')).toBe(false);
  });
});

describe('inputProblem', () => {
  it.each([
    ['', 'empty'],
    [' \t', 'empty'],
    ['/a\0', 'NUL'],
    ['x'.repeat(40_000), 'longer'],
    [42, 'string'],
  ] as Array<[unknown, string]>)('%#: refuses with a reason mentioning %s', (input, word) => {
    expect(inputProblem(input)).toContain(word);
  });
  it('accepts an ordinary path', () => {
    expect(inputProblem('/a/b')).toBeUndefined();
  });
});
