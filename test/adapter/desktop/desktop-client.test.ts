/**
 * The desktop client's process handling with real worker processes: a scripted stand-in worker
 * (fixtures/fake-worker.mjs) for crashes, hangs and protocol errors, so these run everywhere.
 * The real nut-js worker is exercised under Xvfb in test/e2e/desktop-on-xvfb.test.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { DesktopClient, MAX_WAIT_MS, type DesktopClientOptions } from '../../../adapter/desktop/desktop-client.js';
import { defaultWorkerPath } from '../../../adapter/desktop/worker-channel.js';
import { forkWorker, type WorkerSpawner } from '../../../adapter/desktop/worker-process.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';
import { alive } from '../../helpers/proc.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FAKE_WORKER = path.join(here, 'fixtures/fake-worker.mjs');
const REPO = path.resolve(here, '../../..');

const clients: DesktopClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function fake(mode: string, options: DesktopClientOptions = {}, extraEnv: Record<string, string> = {}): DesktopClient {
  const client = new DesktopClient({
    workerPath: FAKE_WORKER,
    platform: 'linux',
    env: { ...process.env, DISPLAY: ':0', FAKE_WORKER_MODE: mode, ...extraEnv },
    inProcessPointer: false, // the stand-in worker answers every call, pointer calls included
    ...options,
  });
  clients.push(client);
  return client;
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; operation: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; operation: string };
  }
  throw new Error('expected the call to fail');
}

const neverSpawn: WorkerSpawner = () => {
  throw new Error('must not start a worker');
};

describe('before any worker starts', () => {
  test('no display on Linux is a clear OS_ERROR and no process', async () => {
    const client = new DesktopClient({ env: { PATH: process.env.PATH }, platform: 'linux', spawn: neverSpawn });
    const error = await failure(client.captureScreen({ format: 'png', maxWidth: 1280, maxHeight: 1280, maxPixels: 2_000_000 }));
    expect(error).toMatchObject({ code: 'OS_ERROR', operation: 'screen.capture' });
    expect(error.message).toMatch(/^no graphical display: set DISPLAY/);
    expect(client.workerPid).toBeUndefined();
  });

  test('bad keys, text and click arguments are refused without a worker', async () => {
    const client = new DesktopClient({ env: {}, platform: 'linux', spawn: neverSpawn });
    expect(await failure(client.pressKeys('ctrl+nope'))).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('unknown key "nope"') });
    expect(await failure(client.typeText('a\u0007'))).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('U+0007') });
    const click = (target: { element: string; snapshotHandle: string }) => client.click({ target, button: 'left', clicks: 1, modifiers: [] });
    expect(await failure(click({ element: 'e1', snapshotHandle: 'made-up' }))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('snapshotHandle must be the snapshotHandle returned by ui.snapshot'),
    });
    expect(await failure(click({ element: 'e1', snapshotHandle: 'snap_AAAAAAAAAAAAAAAA' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('is unknown or expired'),
    });
    expect(await failure(client.drag({ path: [{ x: 1, y: 1 }], button: 'left', stepDelayMs: 0 }))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await failure(client.wait(MAX_WAIT_MS + 1))).toMatchObject({ code: 'INVALID_INPUT', operation: 'input.wait' });
  });

  test('a missing worker module says how to build it', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const client = new DesktopClient({ workerPath: path.join(dir, 'nope.js'), env: { DISPLAY: ':0' }, platform: 'linux' });
    expect(await failure(client.screenSize())).toMatchObject({ code: 'OS_ERROR', message: expect.stringContaining('npm run build') });
  });

  test('the default worker is the compiled one under out/ (npm run build)', () => {
    expect(defaultWorkerPath()).toBe(path.join(REPO, 'out/adapter/desktop/desktop-worker.js'));
    expect(fs.existsSync(defaultWorkerPath())).toBe(true);
  });
});

describe('a warm worker', () => {
  test('serves many calls from one process and passes the canonical key combination', async () => {
    const client = fake('echo');
    const first = (await client.pressKeys('Shift+Ctrl+T')) as unknown as { op: string; args: unknown[]; pid: number };
    expect(first).toMatchObject({ op: 'pressKeys', args: ['ctrl+shift+t', { holdMs: 0 }] });
    const second = (await client.moveMouse({ x: 1, y: 2 })) as unknown as { pid: number };
    expect(second.pid).toBe(first.pid);
    expect(client.workerPid).toBe(first.pid);
  });

  test('capture bytes arrive as a Buffer', async () => {
    const capture = await fake('echo').captureScreen({ format: 'png', maxWidth: 10, maxHeight: 10, maxPixels: 100 });
    expect(Buffer.isBuffer(capture.data)).toBe(true);
    expect([...capture.data]).toEqual([1, 2, 3]);
  });

  test('structural errors from the worker keep their code and message', async () => {
    expect(await failure(fake('adapter-error').moveMouse({ x: 5000, y: 0 }))).toMatchObject({
      code: 'INVALID_INPUT',
      operation: 'input.move',
      message: 'x=5000 is outside the 1280x800 screen',
    });
  });

  test('a malformed error is a generic OS_ERROR that echoes nothing', async () => {
    const error = await failure(fake('malformed-error').screenSize());
    expect(error.code).toBe('OS_ERROR');
    expect(error.message).not.toContain('/secret/path');
  });

  test('an idle worker does not keep the server process alive', async () => {
    const run = spawnSync(
      process.execPath,
      [path.join(here, 'fixtures/idle-client.mjs'), path.join(REPO, 'out/adapter/desktop/desktop-client.js'), FAKE_WORKER],
      {
        encoding: 'utf8',
        timeout: 10_000,
      },
    );
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    const { workerPid } = JSON.parse(run.stdout) as { workerPid: number };
    // the worker follows its parent out (IPC disconnect)
    expect(await waitUntilGone(workerPid)).toBe(true);
  });
});

describe('crashes and hangs fail one call, never the server', () => {
  test('a worker that dies mid-call: OS_ERROR, then the next call starts a new worker', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const client = fake('exit-once', {}, { FAKE_WORKER_MARKER: path.join(dir, 'died') });
    const error = await failure(client.screenSize());
    expect(error).toMatchObject({ code: 'OS_ERROR', operation: 'screen.size' });
    expect(error.message).toContain(
      'the desktop worker stopped unexpectedly (exit code 3) during screen.size; this call failed and the next call starts a new worker',
    );
    const deadPid = Number(fs.readFileSync(path.join(dir, 'died'), 'utf8'));
    const next = (await client.screenSize()) as unknown as { pid: number };
    expect(next.pid).not.toBe(deadPid);
  });

  test('a native crash that could not open the display says so', async () => {
    const error = await failure(fake('segv').captureScreen({ format: 'png', maxWidth: 10, maxHeight: 10, maxPixels: 100 }));
    expect(error.code).toBe('OS_ERROR');
    expect(error.message).toContain('(signal SIGSEGV)');
    expect(error.message).toContain('nut-js could not open the display: check that DISPLAY names a running X server');
  });

  test('an X protocol error (a key with no keycode) kills only the worker, and the message says why', async () => {
    const error = await failure(fake('x-error').pressKeys('f13'));
    expect(error.code).toBe('OS_ERROR');
    expect(error.message).toContain('(exit code 1) during input.key');
    expect(error.message).toContain('the key has no keycode in this keyboard map');
  });

  test('a worker killed from outside fails every call in flight', async () => {
    const client = fake('hang');
    const calls = [client.screenSize(), client.moveMouse({ x: 1, y: 1 })];
    await waitFor(() => client.workerPid !== undefined);
    process.kill(client.workerPid!, 'SIGKILL');
    const errors = await Promise.all(calls.map(failure));
    expect(errors.map((e) => e.code)).toEqual(['OS_ERROR', 'OS_ERROR']);
    expect(errors[0]!.message).toContain('(signal SIGKILL) during screen.size');
    expect(errors[1]!.message).toContain('during input.move');
  });

  test('a hung call times out, the worker is replaced, and other calls in flight are told why', async () => {
    const client = fake('hang', { timeoutMs: 300 });
    const first = failure(client.screenSize());
    await waitFor(() => client.workerPid !== undefined);
    const hungPid = client.workerPid;
    const error = await first;
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      message: 'screen.size did not finish within 300 ms; the desktop worker was stopped and the next call starts a new one',
    });
    expect(await waitUntilGone(hungPid!)).toBe(true);
    // A fresh worker is started for the next call (it hangs too, so this times out as well).
    const again = failure(client.moveMouse({ x: 0, y: 0 }));
    await waitFor(() => client.workerPid !== undefined);
    expect(client.workerPid).not.toBe(hungPid);
    expect((await again).code).toBe('TIMEOUT');
  });

  test('a call whose worker says the owner is being asked waits for the answer past its timeout', async () => {
    // the answer comes 2.5 s after the call, past its 1.5 s timeout (which also covers the worker's start)
    const client = fake('asks-owner', { timeoutMs: 1500 });
    const call = client.screenSize();
    await waitFor(() => client.workerPid !== undefined);
    const pid = client.workerPid;
    await expect(call).resolves.toMatchObject({ op: 'screenSize' });
    expect(client.workerPid).toBe(pid); // not stopped as timed out
  });

  test('calls queued behind a timed-out call are interrupted with the reason', async () => {
    const client = fake('hang', { timeoutMs: 400 });
    const first = failure(client.screenSize());
    await new Promise((r) => setTimeout(r, 200));
    const second = failure(client.moveMouse({ x: 0, y: 0 }));
    expect((await first).code).toBe('TIMEOUT');
    expect(await second).toMatchObject({
      code: 'OS_ERROR',
      message: 'input.move was interrupted: the desktop worker was stopped because an earlier screen.size call timed out; try again',
    });
  });

  test('close() stops the worker and fails what was in flight', async () => {
    const client = fake('slow');
    await client.screenSize();
    const pid = client.workerPid!;
    const inflight = failure(client.screenSize());
    await client.close();
    expect(await inflight).toMatchObject({ code: 'OS_ERROR', message: expect.stringContaining('was closed') });
    expect(await waitUntilGone(pid)).toBe(true);
    expect(client.workerPid).toBeUndefined();
  });
});

describe('forkWorker', () => {
  test('a worker that cannot start reports one exit', async () => {
    const handle = forkWorker(path.join(REPO, 'does-not-exist.mjs'), process.env);
    const exit = await new Promise((resolve) => handle.onExit(resolve));
    expect(exit).toMatchObject({ code: 1 });
    expect(handle.stderrTail?.()).toContain('Cannot find module');
    // late listeners still hear about it
    expect(await new Promise((resolve) => handle.onExit(resolve))).toEqual(exit);
  });
});

/** Async on purpose: our own children are only reaped (no zombie) while the event loop runs. */
async function waitUntilGone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
