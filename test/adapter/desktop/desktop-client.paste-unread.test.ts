/**
 * input.type's paste where nothing reads the clipboard: a bare Xvfb, no app, so ctrl+v goes to
 * the root window. The real worker fails the call after its wait and says what was typed; the
 * text stays on the clipboard (read back with xsel), so nothing is lost.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DesktopClient } from '../../../adapter/desktop/desktop-client.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';
import { missingDesktopPrereq, skipDesktop, startXvfb, type Xvfb } from './fixtures/xvfb.js';

const XSEL = fileURLToPath(new URL('../../../node_modules/clipboardy/fallbacks/linux/xsel', import.meta.url));
const missing = missingDesktopPrereq();

describe.skipIf(skipDesktop(missing, 'paste Xvfb tests'))('a paste that nothing reads (Xvfb, no app)', () => {
  let xvfb: Xvfb;
  let home: string;
  let desktop: DesktopClient;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(320, 240);
    home = makeTempDir('paste-unread-home-');
    desktop = new DesktopClient({ env: { ...process.env, DISPLAY: xvfb.display, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') } });
  });
  afterAll(async () => {
    await desktop?.close();
    await xvfb?.stop();
    if (home) removeDir(home);
  });

  test('fails with OS_ERROR after the wait, saying how much was typed, and leaves the text on the clipboard', async () => {
    const started = performance.now();
    const error = await desktop.typeText('ab ü c ö d').then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(2900);
    expect(error).toMatchObject({ code: 'OS_ERROR' });
    expect(error!.message).toContain(
      "the 5 character(s) to paste from character 4 on (a line's non-ASCII part) did not arrive: the focused window did not read the clipboard within 3 s of ctrl+v (ctrl+v must paste there). The 3 character(s) before them were typed, the 2 after them were not.",
    );
    const { stdout } = await promisify(execFile)(XSEL, ['--clipboard', '--output'], { env: { DISPLAY: xvfb.display, HOME: home }, timeout: 5000 });
    expect(stdout).toBe('ü c ö'); // the line's span from its first non-ASCII character to its last
  });
});
