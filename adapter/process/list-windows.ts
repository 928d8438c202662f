/**
 * Windows process listing through PowerShell's CIM (WMI) Win32_Process, because it is the one
 * built-in source of parent pids and full command lines (tasklist has neither; wmic is gone from
 * current Windows). The owner is not included: Win32_Process only exposes it through a per-process
 * GetOwner call that costs seconds on a busy machine, so `user` is ''. Startup of PowerShell
 * dominates the cost (a few hundred ms). The answer comes as ASCII JSON (ConvertTo-AsciiJson,
 * runPowerShell's preamble), so a command line in any script reads back whole whatever the
 * console's code page.
 */
import { runPowerShell } from '../os/powershell-session.js';
import type { ProcessInfo } from '../contract/processes.js';

export const PROCESS_SCRIPT =
  'ConvertTo-AsciiJson @(Get-CimInstance -ClassName Win32_Process | Select-Object "ProcessId", "ParentProcessId", "Name", "CommandLine")';
const TIMEOUT_MS = 30_000;

export async function listWindowsProcesses(): Promise<ProcessInfo[]> {
  return parseWindowsProcessJson(await runPowerShell(PROCESS_SCRIPT, { timeoutMs: TIMEOUT_MS }, 'listProcesses', 'Win32_Process through PowerShell'));
}

interface Win32ProcessRow {
  ProcessId?: unknown;
  ParentProcessId?: unknown;
  Name?: unknown;
  CommandLine?: unknown;
}

/** An array of rows (one object, or nothing, read as one row or none too; a byte-order mark is skipped). */
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
