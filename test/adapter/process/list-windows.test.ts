import { describe, expect, it } from 'vitest';
import { parseWindowsProcessJson, splitWindowsCommandLine } from '../../../adapter/process/list-windows.js';

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
