/**
 * macOS process listing with ps(1). BSD ps has no field separator and pads or truncates every
 * column but the last, so one call printing both `comm` and `args` (both may hold spaces, e.g.
 * `/Applications/Google Chrome.app/...`) cannot be split reliably. Two calls each end in the
 * one free-text column and are joined by pid; a process present in only one of them started
 * or ended in between and is skipped.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { helperEnvironment } from './child-env.js';
import type { ProcessInfo } from '../contract/processes.js';

export const PS_PATH = '/bin/ps';
export const PS_ARGS_QUERY = ['-axww', '-o', 'pid=,ppid=,user=,args='];
export const PS_COMM_QUERY = ['-axww', '-o', 'pid=,comm='];
const PS_TIMEOUT_MS = 15_000;
const PS_MAX_BUFFER = 64 * 1024 * 1024;

export async function listDarwinProcesses(): Promise<ProcessInfo[]> {
  const [withArgs, withComm] = await Promise.all([runPs(PS_ARGS_QUERY), runPs(PS_COMM_QUERY)]);
  const own = new Set([withArgs.pid, withComm.pid]);
  return parseDarwinPs(withArgs.stdout, withComm.stdout).filter((p) => !own.has(p.pid));
}

/**
 * Joins `ps -o pid=,ppid=,user=,args=` and `ps -o pid=,comm=` output. comm is the executable's
 * full path on macOS; args is argv joined by spaces, so argument boundaries are lost: when args
 * starts with comm that prefix is kept whole as argv[0], the rest is split on whitespace.
 */
export function parseDarwinPs(argsOutput: string, commOutput: string): ProcessInfo[] {
  const comms = new Map<number, string>();
  for (const line of commOutput.split('\n')) {
    const match = /^\s*(\d+) (.*)$/.exec(line);
    if (match) comms.set(Number(match[1]), (match[2] as string).trim());
  }
  const processes: ProcessInfo[] = [];
  for (const line of argsOutput.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    const comm = comms.get(pid);
    if (comm === undefined) continue;
    const args = (match[4] as string).trim();
    processes.push({
      pid,
      ppid: Number(match[2]),
      user: match[3] as string,
      command: path.posix.basename(comm),
      args: splitPsArgs(args, comm),
    });
  }
  return processes.sort((a, b) => a.pid - b.pid);
}

function splitPsArgs(args: string, comm: string): string[] {
  if (args === '') return [];
  if (comm !== '' && (args === comm || args.startsWith(`${comm} `))) {
    return [comm, ...args.slice(comm.length).split(/\s+/).filter(Boolean)];
  }
  return args.split(/\s+/).filter(Boolean);
}

function runPs(args: string[]): Promise<{ stdout: string; pid: number | undefined }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      PS_PATH,
      args,
      { shell: false, windowsHide: true, timeout: PS_TIMEOUT_MS, maxBuffer: PS_MAX_BUFFER, encoding: 'utf8', env: helperEnvironment() },
      (error, stdout) => (error ? reject(error) : resolve({ stdout, pid: child.pid })),
    );
  });
}
