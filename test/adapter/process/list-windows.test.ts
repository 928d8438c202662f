import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listWindowsProcesses, parseWindowsProcessJson, PROCESS_SCRIPT, splitWindowsCommandLine } from '../../../adapter/process/list-windows.js';
import { decodedScript, useFakePowerShell } from '../../helpers/fake-powershell.js';
import { powershellSyntaxErrors } from '../../helpers/powershell-syntax.js';

// Captured shape of Windows PowerShell 5.1:
// Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId,Name,CommandLine | ConvertTo-Json -Compress
const ARRAY_OUTPUT =
  '\uFEFF[{"ProcessId":0,"ParentProcessId":0,"Name":"System Idle Process","CommandLine":null},' +
  '{"ProcessId":4,"ParentProcessId":0,"Name":"System","CommandLine":null},' +
  '{"ProcessId":1234,"ParentProcessId":1180,"Name":"chrome.exe","CommandLine":"\\"C:\\\\Program Files\\\\Google\\\\Chrome\\\\Application\\\\chrome.exe\\" --type=renderer --lang=en-US"},' +
  '{"ProcessId":5120,"ParentProcessId":4980,"Name":"node.exe","CommandLine":"\\"C:\\\\Program Files\\\\nodejs\\\\node.exe\\" \\"C:\\\\Users\\\\Jane Doe\\\\My App\\\\server.js\\" --title \\"say \\\\\\"hi\\\\\\"\\""},' +
  '{"ProcessId":6000,"ParentProcessId":5120,"Name":"cmd.exe","CommandLine":"C:\\\\WINDOWS\\\\system32\\\\cmd.exe /d /s /c \\"echo \\u003cok\\u003e\\""}]\r\n';

describe('parseWindowsProcessJson', () => {
  it('parses an array, keeping names, null command lines and paths with spaces', () => {
    expect(parseWindowsProcessJson(ARRAY_OUTPUT)).toEqual([
      { pid: 0, ppid: 0, user: '', command: 'System Idle Process', args: [] },
      { pid: 4, ppid: 0, user: '', command: 'System', args: [] },
      {
        pid: 1234,
        ppid: 1180,
        user: '',
        command: 'chrome.exe',
        args: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', '--type=renderer', '--lang=en-US'],
      },
      {
        pid: 5120,
        ppid: 4980,
        user: '',
        command: 'node.exe',
        args: ['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\Jane Doe\\My App\\server.js', '--title', 'say "hi"'],
      },
      { pid: 6000, ppid: 5120, user: '', command: 'cmd.exe', args: ['C:\\WINDOWS\\system32\\cmd.exe', '/d', '/s', '/c', 'echo <ok>'] },
    ]);
  });

  it('accepts the single object ConvertTo-Json prints for one row', () => {
    const single = '{"ProcessId":77,"ParentProcessId":1,"Name":"notepad.exe","CommandLine":"notepad.exe C:\\\\a.txt"}';
    expect(parseWindowsProcessJson(single)).toEqual([{ pid: 77, ppid: 1, user: '', command: 'notepad.exe', args: ['notepad.exe', 'C:\\a.txt'] }]);
  });

  it('returns nothing for empty output and skips rows without a pid', () => {
    expect(parseWindowsProcessJson('')).toEqual([]);
    expect(parseWindowsProcessJson('  \r\n')).toEqual([]);
    expect(parseWindowsProcessJson('[{"Name":"x"},null,{"ProcessId":9,"Name":"y.exe"}]')).toEqual([{ pid: 9, ppid: 0, user: '', command: 'y.exe', args: [] }]);
  });

  it('throws on output that is not JSON (the lister turns it into OS_ERROR)', () => {
    expect(() => parseWindowsProcessJson('Get-CimInstance : Access denied')).toThrow(SyntaxError);
  });
});

describe('splitWindowsCommandLine (Microsoft C runtime rules)', () => {
  const cases: Array<[string, string[]]> = [
    ['', []],
    ['   ', []],
    ['app.exe', ['app.exe']],
    ['  app.exe   a  b ', ['app.exe', 'a', 'b']],
    ['"C:\\Program Files\\x.exe" a', ['C:\\Program Files\\x.exe', 'a']],
    // argv[0] never treats backslashes as escapes.
    ['C:\\dir\\x.exe "a b" c', ['C:\\dir\\x.exe', 'a b', 'c']],
    ['x "a\\"b"', ['x', 'a"b']],
    ['x a\\\\"b c"', ['x', 'a\\b c']],
    ['x a\\\\\\"b', ['x', 'a\\"b']],
    ['x a\\b\\\\c', ['x', 'a\\b\\\\c']],
    ['x "C:\\dir\\\\"', ['x', 'C:\\dir\\']],
    ['x ""', ['x', '']],
    ['x "a""b"', ['x', 'a"b']],
    ['x a"b c"d', ['x', 'ab cd']],
    ['x\ta\tb', ['x', 'a', 'b']],
    ['"unterminated arg0', ['unterminated arg0']],
    ['x "unterminated arg', ['x', 'unterminated arg']],
  ];
  it.each(cases)('%j', (line, expected) => {
    expect(splitWindowsCommandLine(line)).toEqual(expected);
  });
});

it('its script parses as PowerShell', async () => {
  expect(await powershellSyntaxErrors(PROCESS_SCRIPT)).toEqual([]);
});

describe.skipIf(process.platform === 'win32')('listWindowsProcesses, against a stand-in for PowerShell', () => {
  // Records its arguments and environment; answers ASCII JSON as ConvertTo-AsciiJson does, or fails as PowerShell does.
  const folder = useFakePowerShell(
    'list-windows-',
    (dir) => `printf '%s\\n' "$@" > '${dir}/args'
env > '${dir}/env'
[ -e '${dir}/fail' ] && { echo 'Get-CimInstance : Access denied' >&2; exit 1; }
printf '%s' '[{"ProcessId":4,"ParentProcessId":0,"Name":"System","CommandLine":null},{"ProcessId":77,"ParentProcessId":4,"Name":"gr\\u00fc\\u00dfe.exe","CommandLine":"gr\\u00fc\\u00dfe.exe \\"\\u65e5\\u672c \\ud83d\\ude00\\""}]'`,
  );

  it('runs the encoded script in the short environment and reads names outside ASCII back whole', async () => {
    expect(await listWindowsProcesses()).toEqual([
      { pid: 4, ppid: 0, user: '', command: 'System', args: [] },
      { pid: 77, ppid: 4, user: '', command: 'grüße.exe', args: ['grüße.exe', '日本 😀'] },
    ]);
    const args = fs.readFileSync(path.join(folder(), 'args'), 'utf8').trim().split('\n');
    expect(args.slice(0, 3)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive']);
    expect(decodedScript(args)).toContain(PROCESS_SCRIPT);
    expect(decodedScript(args)).toContain('function ConvertTo-AsciiJson');
    expect(fs.readFileSync(path.join(folder(), 'env'), 'utf8')).not.toContain('planted');
  });

  it('fails with what PowerShell said', async () => {
    fs.writeFileSync(path.join(folder(), 'fail'), '');
    await expect(listWindowsProcesses()).rejects.toMatchObject({ code: 'OS_ERROR', message: expect.stringContaining('Get-CimInstance : Access denied') });
  });
});

describe.runIf(process.platform === 'win32')('listWindowsProcesses on Windows', () => {
  it('lists a running process with a command line outside ASCII, whole', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'Grüße 日本 😀'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const listed = (await listWindowsProcesses()).find((p) => p.pid === child.pid);
      expect(listed?.ppid).toBe(process.pid);
      expect(listed?.args.at(-1)).toBe('Grüße 日本 😀');
    } finally {
      child.kill();
    }
  });
});
