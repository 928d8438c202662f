import { describe, expect, it } from 'vitest';
import { redactTarget, summarizeTarget } from '../../main/audit/redacted-target.js';

describe('summarizeTarget', () => {
  it.each([
    [{ path: '/a' }, 'path=/a'],
    [{ pid: 42, signal: 'SIGTERM' }, 'pid=42 signal=SIGTERM'],
    [{ recursive: true }, 'recursive=true'],
    [{ nested: { path: '/x' } }, ''],
    [{ args: ['a', { b: 1 }] }, ''],
    [{ text: 'typed text' }, ''],
    [{ data: 'base64' }, ''],
    [{ path: 'line1\nline2' }, 'path=line1 line2'],
  ])('%j -> %s', (target, expected) => {
    expect(summarizeTarget(target)).toBe(expected);
  });

  it('cuts long values and long summaries', () => {
    expect(summarizeTarget({ path: 'x'.repeat(300) })).toBe(`path=${'x'.repeat(39)}…${'x'.repeat(39)}`);
    // The end of a long path stays visible, so `./` padding cannot hide where it leads.
    expect(summarizeTarget({ path: `notes/${'./'.repeat(40)}../../home/alex/taxes.txt` })).toMatch(/home\/alex\/taxes\.txt$/);
    expect(summarizeTarget({ path: 'a\u202Etxt.exe' })).toBe('path=a?txt.exe');
    expect(summarizeTarget({ a: 'x'.repeat(70), b: 'y'.repeat(70), c: 'z'.repeat(70) }).length).toBe(160);
  });
});

describe('redactTarget', () => {
  it('keeps primitive values as they are and scrubs secrets before cutting', () => {
    const secret = 's3cr3t-'.repeat(20);
    expect(redactTarget({ pid: 7, force: false, path: `/a/${secret}/b`, command: 'ls', env: { A: '1' } }, [secret])).toEqual({
      pid: 7,
      force: false,
      path: '/a/<redacted>/b',
      command: 'ls',
    });
  });
});
