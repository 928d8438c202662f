import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exeName, listLinuxProcesses, parsePasswd, parseProcStat, parseStatusUid, splitCmdline } from '../../../adapter/process/list-linux.js';
import { isLinux, killQuietly, makeTempDir } from './helpers.js';

describe.runIf(isLinux)('listLinuxProcesses on the real /proc', () => {
  it('includes this process with its ppid, user, command and argv', async () => {
    const started = performance.now();
    const processes = await listLinuxProcesses();
    console.log(`[measure] listLinuxProcesses: ${processes.length} processes in ${(performance.now() - started).toFixed(1)} ms`);
    const self = processes.find((p) => p.pid === process.pid);
    expect(self).toBeDefined();
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.user).toBe(os.userInfo().username);
    expect(self?.command).toBe(path.basename(fs.realpathSync(process.execPath)));
    // /proc cmdline is node's real argv: the binary, node options, then script and arguments.
    expect(self?.args.slice(-(process.argv.length - 1))).toEqual(process.argv.slice(1));
  });

  it('reports a child with odd arguments exactly (spaces, empty, unicode)', async () => {
    const args = ['-e', 'setInterval(() => {}, 1000)', 'arg with space', '', 'ünïcødé'];
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      // Right after fork the child may still show the parent's argv until exec completes.
      let found;
      for (let i = 0; i < 50 && found?.args[1] !== '-e'; i++) {
        found = (await listLinuxProcesses()).find((p) => p.pid === child.pid);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(found).toEqual({
        pid: child.pid,
        ppid: process.pid,
        user: os.userInfo().username,
        uid: process.geteuid!(),
        command: path.basename(fs.realpathSync(process.execPath)),
        args: [process.execPath, ...args],
      });
    } finally {
      killQuietly(child.pid as number);
    }
  });

  it('lists kernel threads with comm as command and no args', async (context) => {
    const kthreadd = (await listLinuxProcesses()).find((p) => p.pid === 2);
    // A PID namespace (container) has no kernel threads; the fixture /proc below covers the parsing.
    if (kthreadd === undefined) return context.skip();
    expect(kthreadd).toMatchObject({ command: 'kthreadd', args: [], ppid: 0 });
  });
});

describe('listLinuxProcesses on a fixture /proc', () => {
  const root = makeTempDir('proc');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  function proc(pid: number, files: Record<string, string>, exe?: string): void {
    const dir = path.join(root, 'proc', String(pid));
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
    if (exe !== undefined) fs.symlinkSync(exe, path.join(dir, 'exe'));
  }
  const status = (uid: number) => `Name:\tx\nUmask:\t0022\nState:\tS (sleeping)\nPPid:\t1\nUid:\t${uid}\t${uid}\t${uid}\t${uid}\n`;

  it('parses names, skips vanished and unreadable entries, falls back to uid and comm', async () => {
    fs.writeFileSync(path.join(root, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\n');
    proc(1, { stat: '1 (systemd) S 0 1 1 0 -1', status: status(0), cmdline: '/sbin/init\0splash\0' }, '/usr/lib/systemd/systemd');
    proc(2, { stat: '2 (kthreadd) S 0 0 0 0 -1', status: status(0), cmdline: '' });
    proc(300, { stat: '300 (weird) (name) S 1 300 300 0 -1', status: status(1000), cmdline: 'a b\0\0' }, '/opt/app/bin/tool (deleted)');
    proc(301, { stat: '301 (orphan-uid) S 300 300 300 0 -1', status: status(4242), cmdline: 'x\0' });
    proc(302, {}); // vanished between readdir and read
    fs.mkdirSync(path.join(root, 'proc', 'self'));
    fs.writeFileSync(path.join(root, 'proc', 'uptime'), '1 1');

    const list = await listLinuxProcesses({ procRoot: path.join(root, 'proc'), passwdPath: path.join(root, 'passwd') });
    expect(list).toEqual([
      { pid: 1, ppid: 0, user: 'root', uid: 0, command: 'systemd', args: ['/sbin/init', 'splash'] },
      { pid: 2, ppid: 0, user: 'root', uid: 0, command: 'kthreadd', args: [], kernel: true },
      { pid: 300, ppid: 1, user: 'alice', uid: 1000, command: 'tool', args: ['a b', ''] },
      { pid: 301, ppid: 300, user: '4242', uid: 4242, command: 'orphan-uid', args: ['x'] },
    ]);
  });

  it('without a readable passwd file users are numeric', async () => {
    const list = await listLinuxProcesses({ procRoot: path.join(root, 'proc'), passwdPath: path.join(root, 'missing') });
    expect(list.find((p) => p.pid === 300)?.user).toBe('1000');
  });
});

describe('Linux /proc parsers', () => {
  it('parseProcStat takes comm up to the last parenthesis', () => {
    expect(parseProcStat('42 (a) (b) c) R 7 42 42 0 -1 4194560')).toEqual({ pid: 42, comm: 'a) (b) c', state: 'R', ppid: 7, pgrp: 42 });
    expect(parseProcStat('17 (tmux: server) S 1 17 17 0')).toMatchObject({ comm: 'tmux: server', ppid: 1, pgrp: 17 });
    expect(parseProcStat('garbage')).toBeNull();
    expect(parseProcStat(`9 (sh) S 1 9 9 0 -1 4194560 ${'0 '.repeat(12)}4242 0`)).toMatchObject({ ppid: 1, start: '4242' });
  });

  it('parseStatusUid reads the effective uid', () => {
    expect(parseStatusUid('Name:\tsudo\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\n')).toBe(0);
    expect(parseStatusUid('Name:\tx\n')).toBeNull();
  });

  it('parsePasswd maps uid to the first name and ignores junk', () => {
    const users = parsePasswd('root:x:0:0::/root:/bin/sh\ntoor:x:0:0::/root:/bin/sh\n# comment\n\n+::::::\nnobody:x:65534:65534::/:/usr/sbin/nologin\n');
    expect([...users]).toEqual([
      [0, 'root'],
      [65534, 'nobody'],
    ]);
  });

  it('splitCmdline keeps empty arguments and drops only the final terminator', () => {
    expect(splitCmdline(Buffer.from('node\0-e\0\0x y\0'))).toEqual(['node', '-e', '', 'x y']);
    expect(splitCmdline(Buffer.from('nginx: master process /usr/sbin/nginx'))).toEqual(['nginx: master process /usr/sbin/nginx']);
    expect(splitCmdline(Buffer.alloc(0))).toEqual([]);
  });

  it('exeName strips the (deleted) marker', () => {
    expect(exeName('/usr/bin/python3.11')).toBe('python3.11');
    expect(exeName('/opt/My App/bin/app (deleted)')).toBe('app');
  });
});
