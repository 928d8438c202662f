/**
 * Our own CLIPBOARD owner against a real Xvfb, read by a second X client speaking the protocol
 * (as Chromium and GTK do: TARGETS, then UTF8_STRING) and by xsel: the paste waits until an app
 * has fetched the text, however late it asks, and says so when nobody asks or another client
 * takes the clipboard.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { X11Clipboard } from '../../../../adapter/desktop/x11/x11-clipboard.js';
import { nameRequest, wordRequest, X11Connection } from '../../../../adapter/desktop/x11/x11-connection.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { missingDesktopPrereq, skipDesktop, startXvfb, type Xvfb } from '../fixtures/xvfb.js';

const missing = missingDesktopPrereq();
/** The xsel nut-js's clipboard uses (clipboardy's bundled copy). */
const XSEL = fileURLToPath(new URL('../../../../node_modules/clipboardy/fallbacks/linux/xsel', import.meta.url));

const words = (opcode: number, values: number[], detail = 0) => wordRequest(opcode, values, detail);
const internAtom = (name: string) => nameRequest(16, name);
const getInputFocus = () => words(43, []);
const TIMES = { waitMs: 2000, quietMs: 50 };

/** A second client that reads the clipboard the way toolkits do. */
class Requestor {
  private constructor(
    readonly connection: X11Connection,
    readonly window: number,
    private readonly atoms: Map<string, number>,
  ) {}

  static async open(display: string): Promise<Requestor> {
    const connection = await X11Connection.openLocal({ DISPLAY: display }, 5000);
    const names = ['CLIPBOARD', 'TARGETS', 'UTF8_STRING', 'STRING', 'TEXT', 'MULTIPLE', 'OURS'];
    const atoms = new Map<string, number>();
    for (const name of names) atoms.set(name, (await connection.exchange([internAtom(name)], 5000)).readUInt32LE(8));
    const window = connection.newId();
    await connection.exchange([createInputOnly(window, connection.screen.root), getInputFocus()], 5000);
    return new Requestor(connection, window, atoms);
  }

  atom(name: string): number {
    return this.atoms.get(name)!;
  }

  /** ConvertSelection of CLIPBOARD to `target`, then the property it was answered in: undefined when refused. */
  async read(target: string, { destroyFirst = false } = {}): Promise<{ type: number; format: number; data: Buffer } | undefined> {
    const notified = new Promise<Buffer>((resolve) => {
      const stop = this.connection.onEvent((event) => {
        if ((event[0]! & 0x7f) !== 31) return;
        stop();
        resolve(event);
      });
    });
    const window = destroyFirst ? this.connection.newId() : this.window;
    const convert = words(24, [window, this.atom('CLIPBOARD'), this.atom(target), this.atom('OURS'), 0]);
    if (destroyFirst) {
      // a window that is gone before the owner answers: its answer fails with BadWindow
      await this.connection.exchange([createInputOnly(window, this.connection.screen.root), convert, words(4, [window]), getInputFocus()], 5000);
      return undefined;
    }
    await this.connection.exchange([convert, getInputFocus()], 5000);
    const event = await notified;
    if (event.readUInt32LE(20) === 0) return undefined;
    const reply = await this.connection.exchange([words(20, [this.window, this.atom('OURS'), 0, 0, 1_000_000], 1)], 5000);
    const format = reply[1]!;
    return { type: reply.readUInt32LE(8), format, data: Buffer.from(reply.subarray(32, 32 + reply.readUInt32LE(16) * (format / 8))) };
  }

  /** Takes the clipboard, as another program copying would. */
  async takeClipboard(): Promise<void> {
    await this.connection.exchange([words(22, [this.window, this.atom('CLIPBOARD'), 0]), getInputFocus()], 5000);
  }
}

function createInputOnly(window: number, parent: number): Buffer {
  const out = Buffer.alloc(32);
  out.writeUInt8(1, 0);
  out.writeUInt16LE(8, 2);
  out.writeUInt32LE(window, 4);
  out.writeUInt32LE(parent, 8);
  out.writeUInt16LE(1, 16);
  out.writeUInt16LE(1, 18);
  out.writeUInt16LE(2, 22); // InputOnly
  return out;
}

describe.skipIf(skipDesktop(missing, 'X11 clipboard tests'))('X11Clipboard on a real display', () => {
  let xvfb: Xvfb;
  let clipboard: X11Clipboard;
  let requestor: Requestor;
  let home: string;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(320, 240);
    home = makeTempDir('x11-clipboard-home-');
    clipboard = await X11Clipboard.connect({ DISPLAY: xvfb.display }, 5000);
    requestor = await Requestor.open(xvfb.display);
  });
  afterAll(async () => {
    clipboard?.close();
    requestor?.connection.close();
    await xvfb?.stop();
    if (home) removeDir(home);
  });

  test('an app reading after ctrl+v gets the text as UTF8_STRING, and the paste waits for exactly that', async () => {
    const text = 'Grüße 日本 ✓';
    let read: Awaited<ReturnType<Requestor['read']>>;
    let targets: number[] = [];
    const outcome = await clipboard.paste(
      text,
      async () => {
        const offered = await requestor.read('TARGETS');
        targets = Array.from({ length: offered!.data.length / 4 }, (_, i) => offered!.data.readUInt32LE(i * 4));
        read = await requestor.read('UTF8_STRING');
      },
      TIMES,
    );
    expect(outcome).toBe('fetched');
    expect(read!).toEqual({ type: requestor.atom('UTF8_STRING'), format: 8, data: Buffer.from(text, 'utf8') });
    expect(targets).toEqual(expect.arrayContaining([requestor.atom('TARGETS'), requestor.atom('UTF8_STRING'), requestor.atom('TEXT')]));
    expect(targets).not.toContain(requestor.atom('STRING')); // not Latin-1
    expect(await requestor.read('STRING')).toBeUndefined();
    expect(await requestor.read('MULTIPLE')).toBeUndefined(); // refused, not served as text
  });

  test('Latin-1 text is also offered as STRING, in Latin-1', async () => {
    expect(await clipboard.paste('café', () => requestor.read('STRING').then(() => undefined), TIMES)).toBe('fetched');
    expect(await requestor.read('STRING')).toEqual({ type: 31, format: 8, data: Buffer.from('café', 'latin1') });
  });

  test('an app that asks late is waited for, and nothing but a text request counts as the paste', async () => {
    const started = performance.now();
    let late: Promise<unknown> | undefined;
    const outcome = await clipboard.paste(
      'ünïcode',
      async () => {
        await requestor.read('TARGETS');
        late = new Promise((resolve) => setTimeout(resolve, 400)).then(() => requestor.read('UTF8_STRING'));
      },
      { waitMs: 3000, quietMs: 50 },
    );
    expect(outcome).toBe('fetched');
    expect(performance.now() - started).toBeGreaterThanOrEqual(440); // the read at 400 ms, then 50 ms of quiet
    expect(await late).toMatchObject({ data: Buffer.from('ünïcode') });
  });

  test('after the text was read, the paste waits until the app stops asking (as Chromium reads again)', async () => {
    const started = performance.now();
    const reads: Promise<unknown>[] = [];
    const outcome = await clipboard.paste(
      'zweimal',
      async () => {
        reads.push(requestor.read('UTF8_STRING'));
        for (let at = 40; at <= 240; at += 40) {
          reads.push(new Promise((resolve) => setTimeout(resolve, at)).then(() => requestor.read(at === 240 ? 'UTF8_STRING' : 'TARGETS')));
        }
      },
      { waitMs: 3000, quietMs: 100 },
    );
    const elapsed = performance.now() - started;
    expect(outcome).toBe('fetched');
    expect(elapsed).toBeGreaterThanOrEqual(330); // the last read at 240 ms, then 100 ms of quiet
    expect(await Promise.all(reads)).toHaveLength(7);
  });

  test('a paste right after another waits until nothing asked for the one before for 400 ms: a late read still gets its text', async () => {
    const started = performance.now();
    let late: Promise<unknown> | undefined;
    const first = clipboard.paste(
      'eins',
      async () => {
        await requestor.read('UTF8_STRING');
        late = new Promise((resolve) => setTimeout(resolve, 150)).then(() => requestor.read('UTF8_STRING'));
      },
      TIMES,
    );
    expect(await first).toBe('fetched'); // after 50 ms of quiet, before the late read
    let pressedAt = 0;
    const second = await clipboard.paste('zwei', () => requestor.read('UTF8_STRING').then(() => void (pressedAt = performance.now() - started)), TIMES);
    expect(second).toBe('fetched');
    expect(await late).toMatchObject({ data: Buffer.from('eins') });
    expect(pressedAt).toBeGreaterThanOrEqual(540); // the late read at 150 ms, then 400 ms unasked
  });

  test('an app that never stops asking ends the wait after waitMs', async () => {
    let asking = true;
    const poll = async () => {
      while (asking) await requestor.read('TARGETS');
    };
    let polling: Promise<void> | undefined;
    const started = performance.now();
    const outcome = await clipboard.paste(
      'immer',
      async () => {
        await requestor.read('UTF8_STRING');
        polling = poll();
      },
      { waitMs: 300, quietMs: 100 },
    );
    asking = false;
    await polling;
    expect(outcome).toBe('fetched');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('nothing reading it is "unread" after the wait, and the text stays on the clipboard', async () => {
    const started = performance.now();
    expect(await clipboard.paste('ünread', async () => undefined, { waitMs: 300, quietMs: 50 })).toBe('unread');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(await requestor.read('UTF8_STRING')).toMatchObject({ data: Buffer.from('ünread') });
  });

  test('another program taking the clipboard before the app read it is "lost"; then ours is refused', async () => {
    expect(await clipboard.paste('lößt', () => requestor.takeClipboard(), TIMES)).toBe('lost');
    // we no longer own it: the next paste takes it back and serves again
    expect(await clipboard.paste('zurück', () => requestor.read('UTF8_STRING').then(() => undefined), TIMES)).toBe('fetched');
  });

  test('taken right after it was read (a clipboard manager keeping it) is no loss: the paste is done once quiet', async () => {
    const outcome = await clipboard.paste(
      'behalten',
      async () => {
        await requestor.read('UTF8_STRING');
        await requestor.takeClipboard();
      },
      TIMES,
    );
    expect(outcome).toBe('fetched');
  });

  test('a requestor whose window is gone does not break the owner', async () => {
    await clipboard.paste('weg', async () => void (await requestor.read('UTF8_STRING', { destroyFirst: true })), { waitMs: 200, quietMs: 50 });
    expect(clipboard.closed).toBe(false);
    expect(await clipboard.paste('noch da', () => requestor.read('UTF8_STRING').then(() => undefined), TIMES)).toBe('fetched');
  });

  test('xsel, a real clipboard client, reads what we pasted', async () => {
    const text = 'xsel liest: Grüße ✓';
    let output = '';
    const outcome = await clipboard.paste(
      text,
      async () => {
        output = (await promisify(execFile)(XSEL, ['--clipboard', '--output'], { env: { DISPLAY: xvfb.display, HOME: home }, timeout: 5000 })).stdout;
      },
      TIMES,
    );
    expect([outcome, output]).toEqual(['fetched', text]);
  });

  test('a text larger than one X request is refused before the clipboard changes', async () => {
    await expect(clipboard.paste('ü'.repeat(200_000), async () => undefined, TIMES)).rejects.toThrow(/takes at most \d+ in one request/);
    expect(await requestor.read('UTF8_STRING')).toMatchObject({ data: Buffer.from('xsel liest: Grüße ✓') });
  });
});
