/**
 * The Windows job watcher (windows-job.ts). On Windows (the workflow's windows runner): a child
 * added to the watcher's job takes its own child with it when the watcher ends, as it ends with
 * a killed server. Everywhere: a watcher that cannot start is not tried again for every child.
 * On Linux: its C# compiles as Add-Type compiles it, the structures it hands Windows have the
 * sizes Windows expects (measured by Mono's marshaller, same 64-bit layout rules), and it runs
 * against a stand-in for kernel32 and ntdll written in C (fixtures/fake-kernel32.c).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as StartChild from '../../../adapter/process/start-child.js';
import type * as WindowsJob from '../../../adapter/process/windows-job.js';
import { WINDOWS_JOB_SCRIPT } from '../../../adapter/process/windows-job.js';
import { addTypeSources, compileCSharp, mapDlls, runMono } from '../../helpers/csharp.js';
import { powershellSyntaxErrors } from '../../helpers/powershell-syntax.js';
import { fakePowerShell } from '../../helpers/fake-powershell.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';
import { alive } from '../../helpers/proc.js';

/** Fresh copies of the modules per test: the watcher is once per process. */
let job: typeof WindowsJob;
let startChild: typeof StartChild.startChild;
beforeEach(async () => {
  vi.resetModules();
  job = await import('../../../adapter/process/windows-job.js');
  ({ startChild } = await import('../../../adapter/process/start-child.js'));
});

/** A stand-in for PowerShell at SystemRoot's place in `dir`: a shell script speaking the watcher's lines. */
function fakePowershell(dir: string, script: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, SystemRoot: fakePowerShell(dir, script) };
}

const windows = process.platform === 'win32';

describe('the Windows job watcher', () => {
  it.skipIf(windows)('a watcher that cannot start answers false, and is not started again', async () => {
    const dir = makeTempDir('no-powershell-');
    try {
      const env = { PATH: process.env.PATH, SystemRoot: path.join(dir, 'Windows') };
      expect(await job.prepareWindowsJob(env)).toBe(false);
      expect(job.windowsJobWatcherPid()).toBeUndefined();
      // Even with a program there now (one that says when it runs), the server does not try again.
      fakePowershell(dir, `touch '${dir}/ran'`);
      expect(await job.prepareWindowsJob(env)).toBe(false);
      job.holdInWindowsJob(4242);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });

  it.skipIf(windows)('children go to the watcher by pid once it is ready; a watcher that was ready and ended is started again', async () => {
    const dir = makeTempDir('fake-powershell-');
    try {
      // What the real watcher says: ready once its job exists, then a line per child.
      const env = fakePowershell(dir, `env > '${dir}/env'; echo ready; while read -r pid; do echo "ok $pid"; done`);
      expect(await job.prepareWindowsJob({ ...env, CHATGPT_MCP_TOKEN: 'planted-token' })).toBe(true);
      // the short helper environment: the server's own may hold its token or the tunnel key
      expect(fs.readFileSync(path.join(dir, 'env'), 'utf8')).not.toContain('planted-token');
      const first = job.windowsJobWatcherPid()!;
      job.holdInWindowsJob(1111);
      job.holdInWindowsJob(2222);
      await expect.poll(() => job.windowsJobReports.slice()).toEqual(['ready', 'ok 1111', 'ok 2222']);
      process.kill(first, 'SIGKILL');
      await expect.poll(() => job.windowsJobWatcherPid()).toBeUndefined();
      job.holdInWindowsJob(3333); // starts a new watcher, which takes the child once ready
      await expect.poll(() => job.windowsJobReports.slice(3)).toEqual(['ready', 'ok 3333']);
      expect(job.windowsJobWatcherPid()).not.toBe(first);
    } finally {
      removeDir(dir);
    }
  });

  it.runIf(windows)(
    "a child's own child ends when the watcher (and so its job) ends",
    async () => {
      const dir = makeTempDir('windows-job-');
      try {
        expect(await job.prepareWindowsJob()).toBe(true);
        const pidFile = path.join(dir, 'grandchild.pid');
        // The child waits until it is in the job, then starts a grandchild that would run for ten minutes.
        const script = `setTimeout(() => { const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore', detached: true }); c.unref(); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); }, 2000); setTimeout(() => {}, 600000);`;
        const child = startChild(process.execPath, ['-e', script], {
          argv0: undefined,
          cwd: dir,
          env: { ...process.env } as Record<string, string>,
          stdin: 'ignore',
          platform: 'win32',
        });
        await expect.poll(() => job.windowsJobReports.includes(`ok ${child.pid}`), { timeout: 10_000 }).toBe(true);
        await expect.poll(() => fs.existsSync(pidFile), { timeout: 10_000 }).toBe(true);
        const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
        expect(alive(grandchild)).toBe(true);

        process.kill(job.windowsJobWatcherPid()!);
        await expect.poll(() => alive(grandchild), { timeout: 10_000 }).toBe(false);
        await expect.poll(() => alive(child.pid!), { timeout: 10_000 }).toBe(false);
      } finally {
        removeDir(dir);
      }
    },
    40_000,
  );
});

it("the watcher's script parses as PowerShell, with the server's pid in it", async () => {
  expect(await powershellSyntaxErrors(WINDOWS_JOB_SCRIPT.replace('SERVER_PID', '4242'))).toEqual([]);
});

describe.runIf(process.platform === 'linux')("the watcher's C#, under Mono", () => {
  it('compiles as C# 5, and hands Windows structures of the sizes its headers give on 64-bit', () => {
    const dir = makeTempDir('windows-job-cs-');
    try {
      const sources = addTypeSources(WINDOWS_JOB_SCRIPT);
      expect(sources).toHaveLength(1);
      const library = compileCSharp(dir, 'job', sources);
      const driver = `using System; using System.Reflection; using System.Runtime.InteropServices;
        public static class Driver { public static void Main() {
          foreach (string name in new[] { "BasicLimits", "IoCounters", "ExtendedLimits", "BasicInformation" })
            Console.WriteLine(name + " " + Marshal.SizeOf(typeof(ChatgptMcpJob).GetNestedType(name, BindingFlags.NonPublic)));
        } }`;
      const sizes = runMono(compileCSharp(dir, 'driver', [driver], [library]))
        .trim()
        .split('\n');
      // JOBOBJECT_BASIC_LIMIT_INFORMATION, IO_COUNTERS, JOBOBJECT_EXTENDED_LIMIT_INFORMATION, PROCESS_BASIC_INFORMATION
      expect(sizes).toEqual(['BasicLimits 64', 'IoCounters 48', 'ExtendedLimits 144', 'BasicInformation 48']);
    } finally {
      removeDir(dir);
    }
  }, 60_000);

  it("makes a kill-on-close job and takes only the server's children into it, closing every handle it opened", () => {
    const dir = makeTempDir('windows-job-world-');
    try {
      const driver = `using System;
        public static class Driver { public static void Main(string[] args) {
          ChatgptMcpJob.Create();
          for (int i = 1; i < args.Length; i++) Console.WriteLine(ChatgptMcpJob.Add(uint.Parse(args[i]), uint.Parse(args[0])));
        } }`;
      const exe = compileCSharp(dir, 'watcher', [...addTypeSources(WINDOWS_JOB_SCRIPT), driver]);
      mapDlls(exe, ['kernel32.dll', 'ntdll.dll'], path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/fake-kernel32.c'));
      const log = path.join(dir, 'calls');
      const answers = runMono(exe, ['777', '4242', '5555', '6666'], { ...process.env, FAKE_KERNEL32_LOG: log })
        .trim()
        .split('\n');
      expect(answers).toEqual(['ok 4242', "error 5555 not the server's child", 'error 6666 OpenProcess 87']);
      expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual([
        'SetConsoleCtrlHandler 0 1', // Ctrl+C ignored
        'CreateJobObjectW 0 0',
        'SetInformationJobObject 9 144 flags=10240', // extended limits: KILL_ON_JOB_CLOSE | BREAKAWAY_OK
        'OpenProcess 1281 0 4242', // PROCESS_QUERY_INFORMATION | PROCESS_SET_QUOTA | PROCESS_TERMINATE
        'AssignProcessToJobObject 1 4242',
        'CloseHandle 4242',
        'OpenProcess 1281 0 5555',
        'CloseHandle 5555',
        'OpenProcess 1281 0 6666',
      ]);
    } finally {
      removeDir(dir);
    }
  }, 60_000);
});
