/** Runtime versions from real install layouts made in a temp dir: files, links and folders, nothing run. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeVersion, versionInFolders, versionInName } from '../../../adapter/inventory/runtime-version.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir('runtime-version-');
});
afterAll(() => removeDir(dir));

/** An executable file at `relative` under the temp dir (never run: a script that would fail if it were). */
function program(relative: string): string {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 99\n', { mode: 0o755 });
  return file;
}

function put(relative: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
  fs.writeFileSync(path.join(dir, relative), text);
}

describe('runtimeVersion', () => {
  it("reads the install prefix's version file: Node's header, Go's VERSION, a JDK's release", async () => {
    const node = program('node-prefix/bin/node');
    put('node-prefix/include/node/node_version.h', '#define NODE_MAJOR_VERSION 22\n#define NODE_MINOR_VERSION 4\n#define NODE_PATCH_VERSION 1\n');
    expect(await runtimeVersion('node', node)).toBe('22.4.1');
    const go = program('goroot/bin/go');
    put('goroot/VERSION', 'go1.23.2\ntime 2024-10-01T16:00:00Z\n');
    expect(await runtimeVersion('go', go)).toBe('1.23.2');
    const java = program('jdk/bin/java');
    put('jdk/release', 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="21.0.5"\n');
    expect(await runtimeVersion('java', java)).toBe('21.0.5');
  });

  it('follows links from the name on PATH to a versioned name (python3 → python3.12)', async () => {
    const real = program('usr/bin/python3.12');
    const link = path.join(dir, 'bin', 'python3');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(real, link);
    expect(await runtimeVersion('python3', link)).toBe('3.12');
    expect(await runtimeVersion('python3', program('plain/bin/python3'))).toBeUndefined();
  });

  it("reads a version manager's folders and a shim's global version", async () => {
    expect(await runtimeVersion('node', program('.nvm/versions/node/v20.11.1/bin/node'))).toBe('20.11.1');
    const shim = program('.pyenv/shims/python');
    put('.pyenv/version', '3.11.7\n');
    expect(await runtimeVersion('python', shim)).toBe('3.11.7');
    put('.pyenv/version', 'system\n');
    expect(await runtimeVersion('python', shim)).toBeUndefined();
  });

  it('is not held by a FIFO where a version file belongs', async () => {
    const node = program('fifo-prefix/bin/node');
    fs.mkdirSync(path.join(dir, 'fifo-prefix/include/node'), { recursive: true });
    execFileSync('mkfifo', [path.join(dir, 'fifo-prefix/include/node/node_version.h')]);
    expect(await runtimeVersion('node', node)).toBeUndefined();
  });
});

describe('versions in names and folders', () => {
  it('takes the digits after the name, not the ones that are the name', () => {
    expect(versionInName('gcc', 'x86_64-linux-gnu-gcc-12')).toBe('12');
    expect(versionInName('perl', 'perl5.36.0')).toBe('5.36.0');
    expect(versionInName('python3', 'python3')).toBeUndefined();
    expect(versionInName('clang', 'clang-17')).toBe('17');
    expect(versionInName('node', 'nodejs')).toBeUndefined();
  });

  it('takes the nearest versioned folder', () => {
    expect(versionInFolders('/home/me/.rustup/toolchains/1.82.0-x86_64-unknown-linux-gnu/bin/rustc')).toBe('1.82.0');
    expect(versionInFolders('/home/me/.asdf/installs/nodejs/18.20.4/bin/node')).toBe('18.20.4');
    expect(versionInFolders('/usr/local/bin/node')).toBeUndefined();
  });
});
