/** What process an id names: thread ids resolve to their process, kernel threads are recognised. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linuxProcessIdentity, ownProcess, parseStatusIds, processIdentity } from '../../../adapter/process/identity.js';
import { otherThreadIds, someKernelThread, startThreadedChild, type ThreadedChild } from '../../helpers/threads.js';
import { makeTempDir } from './helpers.js';

const linux = process.platform === 'linux';

describe('parsers', () => {
  it('reads Tgid, PPid and the effective uid from status', () => {
    const status = 'Name:\tnode\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nNgid:\t0\nPid:\t4250\nPPid:\t17\nUid:\t1000\t0\t1000\t1000\n';
    expect(parseStatusIds(status)).toEqual({ tgid: 4242, ppid: 17, uid: 0 });
    expect(parseStatusIds('Name:\tx\nPid:\t1\n')).toBeNull();
  });
});

describe.skipIf(!linux)('linuxProcessIdentity on a fixture /proc', () => {
  let root: string;
  beforeAll(() => {
    root = makeTempDir('identity');
    const proc = (id: number, status: string, stat?: string) => {
      fs.mkdirSync(path.join(root, String(id)), { recursive: true });
      fs.writeFileSync(path.join(root, String(id), 'status'), status);
      if (stat) fs.writeFileSync(path.join(root, String(id), 'stat'), stat);
    };
    const status = (tgid: number, pid: number, ppid: number, uid = 1000) =>
      `Tgid:\t${tgid}\nPid:\t${pid}\nPPid:\t${ppid}\nUid:\t${uid}\t${uid}\t${uid}\t${uid}\n`;
    proc(500, status(500, 500, 1), '500 (app) S 1 500 500 0 -1 4194560 0');
    proc(507, status(500, 507, 1)); // a thread of 500: no stat needed, the leader's is read
    proc(90, status(90, 90, 2, 0), '90 (kworker/0:1) I 2 0 0 0 -1 69238880 0'); // PF_KTHREAD set
    proc(91, status(91, 91, 0, 0), '91 (odd) S 0 0 0 0 -1 2097216 0'); // PF_KTHREAD without kthreadd as parent
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('resolves a thread id to its thread-group leader', async () => {
    expect(await linuxProcessIdentity(507, root)).toEqual({ pid: 500, ppid: 1, kernel: false, uid: 1000, user: null });
    expect(await linuxProcessIdentity(500, root)).toEqual({ pid: 500, ppid: 1, kernel: false, uid: 1000, user: null });
  });

  it('marks kernel threads by flag and by parent', async () => {
    expect((await linuxProcessIdentity(90, root))?.kernel).toBe(true);
    expect((await linuxProcessIdentity(91, root))?.kernel).toBe(true);
  });

  it('answers null for an id with no entry', async () => {
    expect(await linuxProcessIdentity(12345, root)).toBeNull();
  });
});

describe.skipIf(!linux)('processIdentity on the real /proc', () => {
  let threaded: ThreadedChild;
  beforeAll(async () => {
    threaded = await startThreadedChild('identity-test-marker');
  });
  afterAll(() => threaded.stop());

  it('names the process of every thread id of a real child with a worker thread', async () => {
    expect(threaded.threads.length).toBeGreaterThan(0);
    for (const tid of [threaded.pid, ...threaded.threads]) {
      expect(await processIdentity(tid, 'linux')).toEqual({ pid: threaded.pid, ppid: process.pid, kernel: false, uid: process.geteuid!(), user: null });
    }
  });

  it("names this process for each of this process's own thread ids", async () => {
    const tids = otherThreadIds(process.pid);
    expect(tids.length).toBeGreaterThan(0);
    for (const tid of tids) expect((await processIdentity(tid, 'linux'))?.pid).toBe(process.pid);
  });

  it('knows init and the kernel threads', async () => {
    expect(await processIdentity(1, 'linux')).toMatchObject({ pid: 1, kernel: false });
    const kthread = someKernelThread();
    if (fs.existsSync('/proc/2/status')) expect((await processIdentity(2, 'linux'))?.kernel).toBe(true);
    if (kthread !== null) expect(await processIdentity(kthread, 'linux')).toMatchObject({ pid: kthread, kernel: true });
  });

  it('answers null for ids that name nothing', async () => {
    expect(await processIdentity(0, 'linux')).toBeNull();
    expect(await processIdentity(-5, 'linux')).toBeNull();
    expect(await processIdentity(2 ** 22 + 12345, 'linux')).toBeNull();
  });

  it("the listing path (macOS's; procps ps accepts the same flags) names processes, not threads, with the owner's name", async () => {
    const found = await processIdentity(threaded.pid, 'darwin');
    expect(found).toEqual({ pid: threaded.pid, ppid: process.pid, kernel: false, uid: null, user: os.userInfo().username });
    expect(await processIdentity(threaded.threads[0]!, 'darwin')).toBeNull();
  });

  it('ownProcess is this process and its parent', () => {
    expect(ownProcess()).toMatchObject({ pid: process.pid, ppid: process.ppid, uid: process.geteuid!() });
  });
});
