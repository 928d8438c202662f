/**
 * Windows process listing through PowerShell's CIM (WMI) Win32_Process, because it is the one
 * built-in source of parent pids and full command lines (tasklist has neither; wmic is gone from
 * current Windows). The owner is not included: Win32_Process only exposes it through a per-process
 * GetOwner call that costs seconds on a busy machine, so `user` is ''. Startup of PowerShell
 * dominates the cost (a few hundred ms).
 */
import { execFile } from 'node:child_process';
import { windowsPowerShell } from '../os/system-root.js';
import { helperEnvironment } from './child-env.js';
import type { ProcessInfo } from '../contract/processes.js';

export const POWERSHELL_SCRIPT =
  '[Console]::OutputEncoding = [System.Text.Encoding]::UTF8; ' +
  'Get-CimInstance -ClassName Win32_Process | Select-Object ProcessId,ParentProcessId,Name,CommandLine | ConvertTo-Json -Compress';
const TIMEOUT_MS = 30_000;
const MAX_BUFFER = 64 * 1024 * 1024;

export async function listWindowsProcesses(): Promise<ProcessInfo[]> {
  // By absolute path from the system directory: never whatever `powershell.exe` PATH finds first.
  const powershell = windowsPowerShell();
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      powershell,
      ['-NoProfile', '-NonInteractive', '-Command', POWERSHELL_SCRIPT],
      { shell: false, windowsHide: true, timeout: TIMEOUT_MS, maxBuffer: MAX_BUFFER, encoding: 'utf8', env: helperEnvironment() },
      (error, out) => (error ? reject(error) : resolve(out)),
    );
  });
  return parseWindowsProcessJson(stdout);
}

interface Win32ProcessRow {
  ProcessId?: unknown;
  ParentProcessId?: unknown;
  Name?: unknown;
  CommandLine?: unknown;
}

/** ConvertTo-Json prints one object (not an array) when there is a single row, and nothing for none. */
export function parseWindowsProcessJson(text: string): ProcessInfo[] {
  const json = text.replace(/^\uFEFF/, '').trim();
  if (json === '') return [];
  const parsed: unknown = JSON.parse(json);
  const rows = (Array.isArray(parsed) ? parsed : [parsed]) as Win32ProcessRow[];
  const processes: ProcessInfo[] = [];
  for (const row of rows) {
    if (typeof row !== 'object' || row === null || !Number.isInteger(row.ProcessId)) continue;
    processes.push({
      pid: row.ProcessId as number,
      ppid: Number.isInteger(row.ParentProcessId) ? (row.ParentProcessId as number) : 0,
      user: '',
      command: typeof row.Name === 'string' ? row.Name : '',
      // CommandLine is null for protected and system processes.
      args: typeof row.CommandLine === 'string' ? splitWindowsCommandLine(row.CommandLine) : [],
    });
  }
  return processes.sort((a, b) => a.pid - b.pid);
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * Splits a Windows command line the way the Microsoft C runtime builds argv (2008+ rules):
 * the program name ends at unquoted whitespace with no backslash escapes; in later arguments
 * 2n backslashes + `"` give n backslashes and a quote toggle, 2n+1 give n backslashes and a
 * literal `"`, and `""` inside quotes is a literal `"`.
 */
export function splitWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (isBlank(line[i])) i++;
  if (i >= line.length) return args;

  let program = '';
  let quoted = false;
  for (; i < line.length && (quoted || !isBlank(line[i])); i++) {
    if (line[i] === '"') quoted = !quoted;
    else program += line[i];
  }
  args.push(program);

  for (;;) {
    while (isBlank(line[i])) i++;
    if (i >= line.length) return args;
    let arg = '';
    quoted = false;
    while (i < line.length && (quoted || !isBlank(line[i]))) {
      const c = line[i] as string;
      if (c === '\\') {
        let count = 0;
        while (line[i] === '\\') {
          count++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(count >> 1);
          if (count % 2 === 1) {
            arg += '"';
            i++;
          }
        } else {
          arg += '\\'.repeat(count);
        }
      } else if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
        } else {
          quoted = !quoted;
          i++;
        }
      } else {
        arg += c;
        i++;
      }
    }
    args.push(arg);
  }
}
