/**
 * Real thread ids for the process rules: a child Node process running a worker thread, and
 * the thread ids of any process from /proc/<pid>/task (Linux).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** The thread ids of `pid` other than the process id itself (Linux). */
export function otherThreadIds(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .filter((tid) => tid !== pid);
}

export interface ThreadedChild {
  child: ChildProcess;
  pid: number;
  /** Thread ids of the child that are not its pid (its worker thread among them). */
  threads: number[];
  exited: Promise<NodeJS.Signals | number | null>;
  stop(): void;
}

/** A Node child whose worker thread is running, with `marker` in its argv for listings. */
export async function startThreadedChild(marker = 'threaded-child-marker', extraArgs: string[] = []): Promise<ThreadedChild> {
  const script = [
    "const { Worker } = require('node:worker_threads');",
    'const w = new Worker(\'setInterval(() => {}, 1000); require("node:worker_threads").parentPort.postMessage(1)\', { eval: true });',
    "w.once('message', () => console.log('ready'));",
    'setInterval(() => {}, 1000);',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script, marker, ...extraArgs], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the threaded child did not start')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const pid = child.pid!;
  return {
    child,
    pid,
    threads: otherThreadIds(pid),
    exited,
    stop: () => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    },
  };
}

/** A kernel thread visible here (a child of kthreadd), or null inside a PID namespace without them. */
export function someKernelThread(): number | null {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || name === '2') continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === 2) return Number(name);
    } catch {
      // vanished
    }
  }
  return null;
}
