/** The program runner: helpers found on the server's PATH, never inside a root, with an environment from nothing; commands through the shell policy. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { ProgramRunner, RIPGREP, type HelperSpec } from '../../main/policy/program-runner.js';
import { ShellPolicy } from '../../main/policy/shell.js';
import { SandboxPolicy } from '../../main/policy/sandbox.js';
import { GIT, GIT_NETWORK } from '../../main/policy/git-helper.js';
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

describe('git as a helper', () => {
  it('runs inside the command sandbox whenever git is granted, commands or not; the network only for push, pull and clone', async () => {
    const config = makeConfig({ filesystem: { write: true, roots: [root] }, git: { read: true } });
    const port = localPort({ ...process.env, SSH_AUTH_SOCK: '/tmp/agent.sock', GIT_DIR: '/elsewhere', CHATGPT_MCP_TOKEN: 'secret' });
    const files = new FilesystemPolicy(config.filesystem, port);
    const sandbox = new SandboxPolicy(config, files, port);
    const runner = new ProgramRunner(new ShellPolicy(config, files, port), files, port, sandbox);
    const plan = await runner.helper(GIT, root);
    expect(plan?.sandbox).toMatchObject({ mechanism: 'bubblewrap', mode: 'workspace', network: 'off' });
    expect(plan?.env).toMatchObject({ GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', GIT_ALLOW_PROTOCOL: 'https:ssh:git:file', GIT_LITERAL_PATHSPECS: '1' });
    expect(Object.keys(plan!.env).sort()).toEqual(
      expect.not.arrayContaining(['SSH_AUTH_SOCK', 'GIT_DIR', 'CHATGPT_MCP_TOKEN', 'GIT_CONFIG_PARAMETERS', 'GIT_EXTERNAL_DIFF']),
    );
    expect((await runner.helper(GIT_NETWORK, root))?.sandbox?.network).toBe('on');
  });
});
