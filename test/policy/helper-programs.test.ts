/** Programs the server runs for its own work (ripgrep): found on the server's PATH, never inside a root. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { HelperPrograms } from '../../main/policy/helper-programs.js';
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

function helpers(PATH: string, useRipgrep = true, counter?: { lookups: number }): HelperPrograms {
  const config = makeConfig({ filesystem: { write: true, roots: [root] } });
  const port = localPort({ PATH });
  const files = new FilesystemPolicy(config.filesystem, port);
  const counting: Pick<PolicyPort, 'findExecutable' | 'baseEnvironment'> = {
    baseEnvironment: () => port.baseEnvironment(),
    findExecutable: (name, searchPath) => {
      if (counter) counter.lookups++;
      return port.findExecutable(name, searchPath);
    },
  };
  return new HelperPrograms(counting, files, useRipgrep);
}

describe('HelperPrograms.ripgrep', () => {
  it('finds rg on the server’s PATH, once', async () => {
    const counter = { lookups: 0 };
    const programs = helpers(tools, true, counter);
    expect(await programs.ripgrep()).toBe(path.join(tools, 'rg'));
    expect(await programs.ripgrep()).toBe(path.join(tools, 'rg'));
    expect(counter.lookups).toBe(1);
  });

  it('never uses an rg inside a root, even first on the PATH, nor one that is a link into a root', async () => {
    expect(await helpers(`${path.join(root, 'bin')}:${tools}`).ripgrep()).toBeNull();
    expect(await helpers(path.join(tools, 'linked')).ripgrep()).toBeNull();
  });

  it('is null without rg on the PATH, and when the server was told not to use it', async () => {
    expect(await helpers(path.join(dir, 'nowhere')).ripgrep()).toBeNull();
    const counter = { lookups: 0 };
    expect(await helpers(tools, false, counter).ripgrep()).toBeNull();
    expect(counter.lookups).toBe(0);
  });
});
