/** The program runner: helpers found on the server's PATH, never inside a root, with an environment from nothing; commands through the shell policy. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { ProgramRunner, RIPGREP, type HelperSpec } from '../../main/policy/program-runner.js';
import { ShellPolicy } from '../../main/policy/shell.js';
import { localPort } from '../helpers/adapter.js';
import { makeConfig } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
let root: string;
let tools: string;
beforeAll(() => {
  dir = makeTempDir();
  root = path.join(dir, 'root');
  tools = path.join(dir, 'tools');
  fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
  fs.mkdirSync(tools);
  // An rg a tool or a command could have written into a root, and one the owner installed.
  fs.writeFileSync(path.join(root, 'bin', 'rg'), '#!/bin/sh\necho planted\n', { mode: 0o755 });
  fs.writeFileSync(path.join(tools, 'rg'), '#!/bin/sh\necho real\n', { mode: 0o755 });
  fs.mkdirSync(path.join(tools, 'linked'));
  fs.symlinkSync(path.join(root, 'bin', 'rg'), path.join(tools, 'linked', 'rg'));
});
afterAll(() => removeDir(dir));

function helpers(PATH: string, useRipgrep = true, counter?: { lookups: number }, env: Record<string, string> = {}): ProgramRunner {
  const config = makeConfig({ filesystem: { write: true, roots: [root] }, shell: { enabled: true, allowedCommands: ['rg'], sandbox: 'off' } });
  const port = localPort({ PATH, ...env });
  const files = new FilesystemPolicy(config.filesystem, port);
  const counting: Pick<PolicyPort, 'findExecutable' | 'baseEnvironment'> = {
    baseEnvironment: () => port.baseEnvironment(),
    findExecutable: (name, searchPath) => {
      if (counter) counter.lookups++;
      return port.findExecutable(name, searchPath);
    },
  };
  const shell = new ShellPolicy(config, files, port);
  return new ProgramRunner(shell, files, counting, undefined, (spec) => spec !== RIPGREP || useRipgrep);
}

const ripgrep = (runner: ProgramRunner) => runner.helper(RIPGREP).then((plan) => plan?.file ?? null);

describe('ProgramRunner.helper', () => {
  it('finds rg on the server’s PATH, once', async () => {
    const counter = { lookups: 0 };
    const programs = helpers(tools, true, counter);
    expect(await ripgrep(programs)).toBe(path.join(tools, 'rg'));
    expect(await ripgrep(programs)).toBe(path.join(tools, 'rg'));
    expect(counter.lookups).toBe(1);
  });

  it('never uses an rg inside a root, even first on the PATH, nor one that is a link into a root', async () => {
    expect(await ripgrep(helpers(`${path.join(root, 'bin')}:${tools}`))).toBeNull();
    expect(await ripgrep(helpers(path.join(tools, 'linked')))).toBeNull();
  });

  it('is null without rg on the PATH, and when the server was told not to use it', async () => {
    expect(await ripgrep(helpers(path.join(dir, 'nowhere')))).toBeNull();
    const counter = { lookups: 0 };
    expect(await ripgrep(helpers(tools, false, counter))).toBeNull();
    expect(counter.lookups).toBe(0);
  });

  it('builds the environment from nothing: only the names the helper declares, then its fixed values', async () => {
    const spec: HelperSpec = { name: 'rg', runsFileCode: false, fromBase: ['HOME'], env: { LC_ALL: 'C' } };
    const plan = await helpers(tools, true, undefined, { HOME: '/home/alex', LANG: 'de_DE.UTF-8' }).helper(spec);
    expect(plan).toEqual({ file: path.join(tools, 'rg'), env: { HOME: '/home/alex', LC_ALL: 'C' } });
    expect((await helpers(tools).helper(RIPGREP))?.env).toEqual({});
  });
});

describe('ProgramRunner.command', () => {
  it('plans through the allow-list: a program the model names must be listed', async () => {
    const runner = helpers(tools);
    expect((await runner.command({ command: 'rg', args: ['-V'] })).file).toBe(path.join(tools, 'rg'));
    await expect(runner.command({ command: 'sh', args: [] })).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });
});
