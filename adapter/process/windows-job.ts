/**
 * Windows: what a command starts dies with the server too. libuv already puts each child in a
 * kill-on-close job (start-child.ts starts none detached), but that job lets the child's own
 * children leave it silently, so a grandchild outlived a killed server. One watcher per server,
 * Windows PowerShell (on every Windows since 7, found under SystemRoot, never on PATH), makes a
 * job of its own that lets nothing leave silently (a program that asks, CREATE_BREAKAWAY_FROM_JOB,
 * may, as a daemon calling setsid may on Linux) and kills what is in it when its last handle
 * closes, and adds each child to it by pid as the server reports it, after checking that the pid
 * is still the server's child (a command that ended before its line was read may have left its
 * pid to another program): nested inside libuv's job (Windows 8 and later), it becomes the
 * child's innermost job, which its children are born into. It ignores Ctrl+C. The
 * watcher is a non-detached child itself: when the server dies for any reason, the system ends
 * it with libuv's job, its handle closes, and everything in its job ends too.
 *
 * Not covered: a grandchild started before its parent was added, in the milliseconds after the
 * parent started or before the watcher was ready (PowerShell compiles its few lines of C# in a
 * second or two; the server starts it at start when commands or gateway servers are configured,
 * else with its first child). Such a grandchild outlives a killed server, as all did before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { powershellArgs } from '../os/powershell-session.js';
import { helperEnvironment } from './child-env.js';
import { windowsPowerShell } from '../os/system-root.js';

// PowerShell's script: C# for the job calls (no cmdlet makes jobs), then one pid per line on stdin.
export const WINDOWS_JOB_SCRIPT = String.raw`$ErrorActionPreference = 'Stop'
Add-Type -IgnoreWarnings -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
public static class ChatgptMcpJob {
  [StructLayout(LayoutKind.Sequential)]
  struct BasicLimits { public long PerProcessUserTimeLimit; public long PerJobUserTimeLimit; public uint LimitFlags; public UIntPtr MinimumWorkingSetSize; public UIntPtr MaximumWorkingSetSize; public uint ActiveProcessLimit; public UIntPtr Affinity; public uint PriorityClass; public uint SchedulingClass; }
  [StructLayout(LayoutKind.Sequential)]
  struct IoCounters { public ulong ReadOperations, WriteOperations, OtherOperations, ReadBytes, WriteBytes, OtherBytes; }
  [StructLayout(LayoutKind.Sequential)]
  struct ExtendedLimits { public BasicLimits Basic; public IoCounters Io; public UIntPtr ProcessMemoryLimit, JobMemoryLimit, PeakProcessMemoryUsed, PeakJobMemoryUsed; }
  [DllImport("kernel32.dll", SetLastError = true)] static extern IntPtr CreateJobObjectW(IntPtr attributes, IntPtr name);
  [DllImport("kernel32.dll", SetLastError = true)] static extern bool SetInformationJobObject(IntPtr job, int infoClass, ref ExtendedLimits info, int size);
  [DllImport("kernel32.dll", SetLastError = true)] static extern bool AssignProcessToJobObject(IntPtr job, IntPtr process);
  [DllImport("kernel32.dll", SetLastError = true)] static extern IntPtr OpenProcess(uint access, bool inherit, uint pid);
  [DllImport("kernel32.dll")] static extern bool CloseHandle(IntPtr handle);
  [DllImport("kernel32.dll")] static extern bool SetConsoleCtrlHandler(IntPtr handler, bool add);
  [StructLayout(LayoutKind.Sequential)]
  struct BasicInformation { public IntPtr ExitStatus; public IntPtr PebBaseAddress; public UIntPtr AffinityMask; public IntPtr BasePriority; public UIntPtr UniqueProcessId; public UIntPtr InheritedFromUniqueProcessId; }
  [DllImport("ntdll.dll")] static extern int NtQueryInformationProcess(IntPtr process, int infoClass, ref BasicInformation info, int size, IntPtr returned);
  static IntPtr job;
  public static void Create() {
    SetConsoleCtrlHandler(IntPtr.Zero, true); // a Ctrl+C in the server's console must not end the job under every command
    job = CreateJobObjectW(IntPtr.Zero, IntPtr.Zero);
    if (job == IntPtr.Zero) throw new Exception("CreateJobObject failed: " + Marshal.GetLastWin32Error());
    ExtendedLimits limits = new ExtendedLimits();
    // JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE; BREAKAWAY_OK lets a program that asks (CREATE_BREAKAWAY_FROM_JOB) leave, as
    // installers do; none leaves silently
    limits.Basic.LimitFlags = 0x2000 | 0x800;
    if (!SetInformationJobObject(job, 9, ref limits, Marshal.SizeOf(typeof(ExtendedLimits)))) throw new Exception("SetInformationJobObject failed: " + Marshal.GetLastWin32Error());
  }
  public static string Add(uint pid, uint server) {
    IntPtr process = OpenProcess(0x0501, false, pid); // PROCESS_QUERY_INFORMATION | PROCESS_SET_QUOTA | PROCESS_TERMINATE
    if (process == IntPtr.Zero) return "error " + pid + " OpenProcess " + Marshal.GetLastWin32Error();
    try {
      // A child that ended before its line was read may have left its pid to another program: only the server's children are taken.
      BasicInformation info = new BasicInformation();
      int status = NtQueryInformationProcess(process, 0, ref info, Marshal.SizeOf(typeof(BasicInformation)), IntPtr.Zero);
      if (status != 0) return "error " + pid + " NtQueryInformationProcess " + status;
      if (info.InheritedFromUniqueProcessId.ToUInt64() != server) return "error " + pid + " not the server's child";
      return AssignProcessToJobObject(job, process) ? "ok " + pid : "error " + pid + " AssignProcessToJobObject " + Marshal.GetLastWin32Error();
    }
    finally { CloseHandle(process); }
  }
}
'@
[ChatgptMcpJob]::Create()
[Console]::Out.WriteLine('ready')
[uint32]$id = 0
while ($null -ne ($line = [Console]::In.ReadLine())) {
  if ([uint32]::TryParse($line, [ref]$id)) { [Console]::Out.WriteLine([ChatgptMcpJob]::Add($id, SERVER_PID)) }
}
`;

/** What the watcher said, for tests and diagnostics: `ready`, then `ok <pid>` or `error <pid> <call> <code>` per child. */
export const windowsJobReports: string[] = [];
const MAX_REPORTS = 100;

let watcher: ChildProcess | undefined;
/** The environment the server started the watcher with, for the ones after it. */
let watcherEnv: NodeJS.ProcessEnv = process.env;
let ready: Promise<boolean> | undefined;
/** A watcher that never got ready is not tried again (PowerShell blocked or missing): each try costs a second of CPU. */
let failedToStart = false;

/** Starts the watcher (once); resolves true once its job exists, false when it cannot be had. */
export function prepareWindowsJob(env: NodeJS.ProcessEnv = watcherEnv): Promise<boolean> {
  watcherEnv = env;
  if (ready) return ready;
  if (failedToStart) return Promise.resolve(false);
  let current: ChildProcess;
  try {
    current = spawn(windowsPowerShell(env), powershellArgs(WINDOWS_JOB_SCRIPT.replace('SERVER_PID', String(process.pid))), {
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
      // the short helper environment: the server's own may hold its token or the tunnel key
      env: helperEnvironment(env),
      // not detached: libuv's job must end it with the server
    });
  } catch {
    failedToStart = true;
    return Promise.resolve(false);
  }
  watcher = current;
  let started = false;
  ready = new Promise<boolean>((resolve) => {
    let partial = '';
    current.stdout?.setEncoding('utf8');
    current.stdout?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines.filter(Boolean)) {
        windowsJobReports.push(line.slice(0, 200));
        if (line === 'ready') resolve((started = true));
      }
      windowsJobReports.splice(0, Math.max(0, windowsJobReports.length - MAX_REPORTS));
    });
    // Gone, its job with it (what was in it ended then), or never started: the next child starts a new one, unless it never got ready.
    const gone = () => {
      resolve(false);
      if (watcher !== current) return;
      watcher = undefined;
      ready = undefined;
      failedToStart ||= !started;
    };
    current.on('error', gone);
    // 'close', not 'exit': by then its last line (ready, perhaps) was read
    current.once('close', gone);
  });
  current.stdin?.on('error', () => undefined);
  // Neither keeps the server running.
  current.unref();
  (current.stdin as { unref?: () => void } | null)?.unref?.();
  (current.stdout as { unref?: () => void } | null)?.unref?.();
  return ready;
}

/** Adds a child to the watcher's job (starting the watcher with the first child). */
export function holdInWindowsJob(pid: number): void {
  void prepareWindowsJob();
  if (watcher?.stdin?.writable) watcher.stdin.write(`${pid}\n`);
}

/** The watcher's pid, for tests. */
export function windowsJobWatcherPid(): number | undefined {
  return watcher?.pid;
}
