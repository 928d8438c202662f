/**
 * Finds the processes running one executable, by the executable the OS reports for each
 * process, never by name: Linux /proc/<pid>/exe (plus, for a script, the interpreter's script
 * argument), macOS `ps` (the executable path of each process), Windows CIM
 * Win32_Process.ExecutablePath.
 */
import { open, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { windowsPowerShell } from '../os/system-root.js';
import { runOsTool } from '../services/os-tool.js';

const OP = 'app.close';

export interface ExecutableTarget {
  /** The configured path, and the same path with symlinks resolved. */
  configured: string;
  real: string;
  /** The file starts with `#!`: its processes run an interpreter with the script as an arg. */
  script: boolean;
  /**
   * The app's fixed args. Where the OS shows a process's argv (Linux), a process only counts as
   * the app when its arguments start with these: an app that is `python3 tool.py` must not
   * close every other python3.
   */
  args: readonly string[];
}

export async function describeTarget(configured: string, args: readonly string[] = []): Promise<ExecutableTarget | null> {
  const real = await realpath(configured).catch(() => null);
  if (!real) return null;
  const head = await readHead(real);
  return { configured, real, script: head.startsWith('#!'), args };
}

export async function findProcesses(target: ExecutableTarget): Promise<number[]> {
  let pids: number[];
  if (process.platform === 'linux') pids = await linuxProcesses(target);
  else if (process.platform === 'win32') pids = await windowsProcesses(target);
  else pids = await psProcesses(target);
  return pids.filter((pid) => pid !== process.pid && pid > 1).sort((a, b) => a - b);
}

/** Whether `pid` still runs this executable (checked again right before a signal). */
export async function runsTarget(pid: number, target: ExecutableTarget): Promise<boolean> {
  if (process.platform === 'linux') return linuxMatches(pid, target);
  return (await findProcesses(target)).includes(pid);
}

// Linux --------------------------------------------------------------------------------------

async function linuxProcesses(target: ExecutableTarget): Promise<number[]> {
  const entries = await readdir('/proc');
  const pids = entries.filter((e) => /^\d+$/.test(e)).map(Number);
  const checks = await Promise.all(pids.map(async (pid) => ((await linuxMatches(pid, target)) ? pid : 0)));
  return checks.filter(Boolean);
}

async function linuxMatches(pid: number, target: ExecutableTarget): Promise<boolean> {
  // Other users' processes and zombies have no readable exe link: they are never candidates.
  const exe = await readlink(`/proc/${pid}/exe`).catch(() => null);
  if (exe === null) return false;
  const binary = stripDeleted(exe) === target.real;
  if (!binary && !target.script) return false;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  const argv = cmdline.split('\0');
  // A `#!` script runs as `interpreter [one optional arg] /path/to/script ...`.
  const scriptAt = binary ? 0 : [1, 2].find((i) => argv[i] === target.configured || argv[i] === target.real);
  if (scriptAt === undefined) return false;
  return target.args.every((arg, i) => argv[scriptAt + 1 + i] === arg);
}

/** The kernel appends " (deleted)" when the binary was replaced while running (an upgrade). */
function stripDeleted(exe: string): string {
  return exe.endsWith(' (deleted)') ? exe.slice(0, -' (deleted)'.length) : exe;
}

// macOS and other Unix ------------------------------------------------------------------------

async function psProcesses(target: ExecutableTarget): Promise<number[]> {
  const { stdout } = await runOsTool('ps', ['-axww', '-o', 'pid=,comm='], { operation: OP, timeoutMs: 10_000 });
  const found: number[] = [];
  for (const { pid, executable } of parsePsComm(stdout)) {
    if (path.basename(executable) !== path.basename(target.real) && path.basename(executable) !== path.basename(target.configured)) continue;
    if (executable === target.configured || executable === target.real || (await realpath(executable).catch(() => '')) === target.real) found.push(pid);
  }
  return found;
}

/** Parses `ps -o pid=,comm=` lines: a pid, spaces, the executable path (may contain spaces). */
export function parsePsComm(text: string): Array<{ pid: number; executable: string }> {
  const rows: Array<{ pid: number; executable: string }> = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(.+?)\s*$/.exec(line);
    if (match) rows.push({ pid: Number(match[1]), executable: match[2]! });
  }
  return rows;
}

// Windows ----------------------------------------------------------------------------------------

/** Constant script (nothing interpolated): every process's id and executable path, tab-separated. */
const CIM_SCRIPT = 'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId)`t$($_.ExecutablePath)" }';

async function windowsProcesses(target: ExecutableTarget): Promise<number[]> {
  const shell = windowsPowerShell();
  const { stdout } = await runOsTool(shell, ['-NoProfile', '-NonInteractive', '-Command', CIM_SCRIPT], { operation: OP, timeoutMs: 30_000 });
  const wanted = new Set([target.configured, target.real].map(windowsKey));
  return parseCimProcesses(stdout)
    .filter((p) => wanted.has(windowsKey(p.executable)))
    .map((p) => p.pid);
}

/** Parses `<pid>\t<ExecutablePath>` lines; processes without a path (system, other users) are skipped. */
export function parseCimProcesses(text: string): Array<{ pid: number; executable: string }> {
  const rows: Array<{ pid: number; executable: string }> = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^(\d+)\t(.+)$/.exec(line.trim());
    if (match) rows.push({ pid: Number(match[1]), executable: match[2]! });
  }
  return rows;
}

function windowsKey(file: string): string {
  return path.win32.normalize(file).toLowerCase();
}

async function readHead(file: string): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(2);
      await handle.read(buffer, 0, 2, 0);
      return buffer.toString('latin1');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
