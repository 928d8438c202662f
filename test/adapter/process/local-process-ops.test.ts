import { describe, expect, it } from 'vitest';
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';
import { listProcesses } from '../../../adapter/process/list.js';
import { createProcessOps } from '../../../adapter/process/local-process-ops.js';
import { BASE_ENV, isLinux } from './helpers.js';

describe('createProcessOps', () => {
  it.runIf(isLinux)('composes the real Linux operations', async () => {
    const ops = createProcessOps('linux');
    const sh = await ops.findExecutable('sh', BASE_ENV.PATH);
    expect(sh).not.toBeNull();
    const result = await ops.runCommand({ file: sh?.real as string, args: ['-c', 'echo $0'], env: BASE_ENV, timeoutMs: 5000, maxOutputBytes: 1024 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect((await ops.listProcesses()).some((p) => p.pid === process.pid)).toBe(true);
    await expect(ops.killProcess(process.pid, 'SIGNOPE')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('validates signal names for the platform it was created for', async () => {
    const windows = createProcessOps('win32');
    await expect(windows.killProcess(123, 'SIGHUP')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('defaults to the running platform', () => {
    expect(Object.keys(createProcessOps()).sort()).toEqual([
      'closeProcesses',
      'findExecutable',
      'killProcess',
      'listProcesses',
      'processStatus',
      'readProcessOutput',
      'runCommand',
      'startPeer',
      'startProcess',
      'stopProcess',
      'writeProcessInput',
    ]);
  });
});

describe('listProcesses platform selection', () => {
  it('an unsupported platform is OS_ERROR naming the supported ones', async () => {
    const error = await listProcesses('aix').catch((e: unknown) => e);
    expect(isComputerAdapterError(error) && error.code).toBe('OS_ERROR');
    expect((error as Error).message).toContain('linux, darwin, win32');
  });

  it('the lister for the running OS includes this process with its parent', async () => {
    const self = (await listProcesses()).find((p) => p.pid === process.pid);
    expect(self?.ppid).toBe(process.ppid);
  });
});
