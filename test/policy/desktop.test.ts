import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { configSchema, type ConfigInput } from '../../main/config/schema.js';
import { DesktopPolicy, desktopAllows } from '../../main/policy/desktop.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { localPort } from '../helpers/adapter.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const root = makeTempDir('desktop-policy-');
const readOnly = makeTempDir('desktop-policy-ro-');
afterAll(() => {
  removeDir(root);
  removeDir(readOnly);
});

function policy(input: ConfigInput): DesktopPolicy {
  const config = configSchema.parse(input);
  return new DesktopPolicy(config, new FilesystemPolicy(config.filesystem, localPort()));
}

async function refusal(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('desktopAllows', () => {
  test.each([
    [{}, false, false],
    [{ desktop: { screen: true, input: true } }, false, false],
    [{ desktop: { hostDisplayAccess: true } }, false, false],
    [{ desktop: { hostDisplayAccess: true, screen: true } }, true, false],
    [{ desktop: { hostDisplayAccess: true, input: true } }, false, true],
  ] as Array<[ConfigInput, boolean, boolean]>)('%j: screen %s, input %s', (input, screen, input_) => {
    const config = configSchema.parse(input);
    expect(desktopAllows(config, 'screen')).toBe(screen);
    expect(desktopAllows(config, 'input')).toBe(input_);
  });
});

describe('captureFile', () => {
  const saving: ConfigInput = {
    desktop: { hostDisplayAccess: true, screen: true, saveCaptures: true },
    filesystem: { write: true, roots: [root, { path: readOnly, readOnly: true }] },
  };

  test('a new file with the right extension inside a writable root resolves to its real path', async () => {
    expect(await policy(saving).captureFile(path.join(root, 'a.png'), 'png', 'screen.capture')).toMatchObject({
      path: path.join(fs.realpathSync(root), 'a.png'),
      exists: false,
    });
    expect(await policy(saving).captureFile('b.JPEG', 'jpeg', 'screen.capture')).toMatchObject({ path: path.join(fs.realpathSync(root), 'b.JPEG') });
  });

  test('off by default, and says so', async () => {
    expect(await refusal(policy({ filesystem: { write: true, roots: [root] } }).captureFile(path.join(root, 'a.png'), 'png', 'screen.capture'))).toMatchObject({
      code: 'CAPABILITY_DISABLED',
      message: expect.stringContaining('desktop.saveCaptures is false'),
    });
  });

  test('the filesystem policy decides where: outside roots, read-only roots, secrets, existing files', async () => {
    const p = policy(saving);
    expect((await refusal(p.captureFile('/etc/x.png', 'png', 'screen.capture'))).code).toBe('PATH_NOT_ALLOWED');
    expect((await refusal(p.captureFile(path.join(readOnly, 'x.png'), 'png', 'screen.capture'))).code).toBe('PATH_NOT_ALLOWED');
    expect((await refusal(p.captureFile(path.join(root, '.ssh', 'x.png'), 'png', 'screen.capture'))).code).toBe('PATH_NOT_ALLOWED');
    fs.writeFileSync(path.join(root, 'taken.png'), 'x');
    expect(await refusal(p.captureFile(path.join(root, 'taken.png'), 'png', 'screen.capture'))).toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(await refusal(p.captureFile(path.join(root, 'x.txt'), 'png', 'screen.capture'))).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'a PNG capture is saved to a file ending in .png',
    });
    expect((await refusal(p.captureFile(path.join(root, 'x.png'), 'jpeg', 'screen.capture'))).message).toBe(
      'a JPEG capture is saved to a file ending in .jpg or .jpeg',
    );
  });

  test('writing must be granted too', async () => {
    const p = policy({ desktop: { saveCaptures: true }, filesystem: { write: false, roots: [root] } });
    expect((await refusal(p.captureFile(path.join(root, 'x.png'), 'png', 'screen.capture'))).code).toBe('CAPABILITY_DISABLED');
  });
});
