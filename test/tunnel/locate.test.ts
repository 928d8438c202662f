/** Finding the tunnel client, and telling OpenAI's client from another program by its --version answer. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSION_SHAPE, describeClient } from '../../main/tunnel/locate.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { installStandIn } from './helpers/stand-in.js';

describe('the tunnel client’s --version answer', () => {
  it('is a release version, with the git sha when the build has one', () => {
    for (const version of ['0.0.15', 'v0.0.10', '0.0.15+5ce4fed0c1cb (git sha: 5ce4fed0c1cb)', '1.2.3-rc.1'])
      expect(CLIENT_VERSION_SHAPE.test(version)).toBe(true);
    for (const other of ['true (GNU coreutils) 9.1', 'Python 3.11.2', '', 'tunnel-client version 1']) expect(CLIENT_VERSION_SHAPE.test(other)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('refuses /bin/true, which answers --version as coreutils, and takes the stand-in', async () => {
    const other = await describeClient({ found: '/bin/true', real: '/bin/true', source: 'configured' }, { PATH: process.env.PATH ?? '' });
    expect(other).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\/bin\/true is not OpenAI's tunnel-client: asked for its version, it answered "true \(GNU/),
    });
    const dir = makeTempDir();
    try {
      const file = installStandIn(path.join(dir, 'bin')).path;
      const standIn = await describeClient({ found: file, real: file, source: 'configured' }, { PATH: process.env.PATH ?? '' });
      expect(standIn).toMatchObject({ ok: true, client: { version: '0.9.4-standin+5ce4fed0c1cb (git sha: 5ce4fed0c1cb)' } });
    } finally {
      removeDir(dir);
    }
  });
});
