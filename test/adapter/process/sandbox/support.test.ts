/** The probe of this computer's sandbox: real bwrap here, and what a machine without it is told. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxGuard } from '../../../../adapter/process/sandbox/launch.js';
import { sandboxSupport } from '../../../../adapter/process/sandbox/support.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

const linux = process.platform === 'linux';
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe.skipIf(!linux)('on Linux', () => {
  it('finds bwrap on the PATH and checks it can create every namespace the sandbox uses', () => {
    const support = sandboxSupport('linux', { PATH: process.env.PATH });
    expect(support).toMatchObject({ mechanism: 'bubblewrap', usable: true, program: fs.realpathSync('/usr/bin/bwrap') });
    if (support.usable) expect(support.version).toMatch(/^bubblewrap \d+\.\d+/);
    // The guard is whatever the native build made (CI builds it: build/native.mjs with REQUIRE_NATIVE_SPAWN=1).
    expect(support).toMatchObject({ guarded: sandboxGuard() !== null });
  });

  it('without bwrap on the PATH: not usable, with the install command', () => {
    const empty = makeTempDir();
    dirs.push(empty);
    expect(sandboxSupport('linux', { PATH: empty })).toEqual({
      mechanism: 'bubblewrap',
      usable: false,
      problem: 'bubblewrap is not installed (no bwrap on the PATH)',
      fix: expect.stringContaining('sudo apt-get install bubblewrap'),
    });
  });

  it('a bwrap that cannot create the namespaces is not usable, and says why', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    // A stand-in that answers --version like bwrap but fails to set anything up, as bwrap does where user namespaces are off.
    const fake = path.join(dir, 'bwrap');
    fs.writeFileSync(
      fake,
      '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const support = sandboxSupport('linux', { PATH: dir });
    expect(support).toMatchObject({ mechanism: 'bubblewrap', usable: false, problem: expect.stringContaining('No permissions to create new namespace') });
    expect(support.usable ? '' : support.fix).toMatch(/unprivileged user namespaces/);
  });
});

describe('elsewhere', () => {
  it('Windows has no sandbox for commands, and says so', () => {
    expect(sandboxSupport('win32', {})).toEqual({ mechanism: null, usable: false, problem: 'Windows has no sandbox for commands in this version', fix: null });
  });
});
