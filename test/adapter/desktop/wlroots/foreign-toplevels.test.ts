/**
 * The foreign-toplevel window backend against a compositor played by the test on the wire's
 * terms (events as bytes, requests recorded): what sway cannot show (maximize, fullscreen,
 * minimize states, a window closing on its own) and the requests each action sends. The real
 * compositor path is test/e2e/wayland-sway.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { foreignToplevels, FOREIGN_TOPLEVEL_MANAGER } from '../../../../adapter/desktop/wlroots/foreign-toplevels.js';
import type { WaylandArg, WaylandConnection } from '../../../../adapter/desktop/wlroots/wayland-connection.js';

const MANAGER_ID = 10;
const SEAT = 3;

function str(value: string): Buffer {
  const bytes = Buffer.from(`${value}\0`, 'utf8');
  const out = Buffer.alloc(4 + bytes.length + ((4 - (bytes.length % 4)) % 4));
  out.writeUInt32LE(bytes.length, 0);
  bytes.copy(out, 4);
  return out;
}

function words(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeUInt32LE(v, i * 4));
  return out;
}

/** A compositor on the other end: it announces windows when asked, and hears requests. */
function compositor(version = 3) {
  const listeners = new Map<number, (opcode: number, body: Buffer) => void>();
  const requests: Array<{ id: number; opcode: number; args: WaylandArg[] }> = [];
  const onRoundtrip: Array<() => void> = [];
  const connection = {
    closed: false,
    globals: [{ name: 7, interface: FOREIGN_TOPLEVEL_MANAGER, version }],
    bind: (iface: string) => (iface === FOREIGN_TOPLEVEL_MANAGER ? MANAGER_ID : undefined),
    listen: (id: number, listener: (opcode: number, body: Buffer) => void) => void listeners.set(id, listener),
    forget: (id: number) => void listeners.delete(id),
    request: (id: number, opcode: number, args: WaylandArg[] = []) => void requests.push({ id, opcode, args }),
    roundtrip: async () => {
      for (const step of onRoundtrip.splice(0)) step();
    },
  };
  const send = (id: number, opcode: number, body: Buffer = Buffer.alloc(0)) => listeners.get(id)?.(opcode, body);
  const announce = (handle: number, title: string, app: string, states: number[], output = 20) => {
    send(MANAGER_ID, 0, words(handle));
    send(handle, 0, str(title));
    send(handle, 1, str(app));
    send(handle, 2, words(output));
    send(handle, 4, Buffer.concat([words(states.length * 4), words(...states)]));
    send(handle, 5);
  };
  return { connection: connection as unknown as WaylandConnection, requests, send, announce, onRoundtrip, listeners };
}

describe('foreign-toplevel windows', () => {
  it('is absent when the compositor has no foreign-toplevel manager', async () => {
    const fake = compositor();
    (fake.connection as unknown as { globals: unknown[] }).globals = [];
    (fake.connection as unknown as { bind: () => undefined }).bind = () => undefined;
    expect(await foreignToplevels(fake.connection, SEAT, () => undefined)).toBeUndefined();
  });

  it('lists announced windows with their state and output, never a half-announced one', async () => {
    const fake = compositor();
    fake.onRoundtrip.push(() => {
      fake.announce(100, 'notes.txt - Editor', 'editor', [0, 2]); // maximized, activated
      fake.announce(101, 'a film', 'player', [3]); // fullscreen
      fake.announce(102, 'mail', 'mail', [1], 99); // minimized, on an output we do not know
      fake.send(MANAGER_ID, 0, words(103)); // announced, no done yet
      fake.send(103, 0, str('half'));
    });
    const windows = (await foreignToplevels(fake.connection, SEAT, (id) => (id === 20 ? 'HDMI-A-1' : undefined)))!;
    const listed = await windows.list('window.list');
    expect(listed).toEqual([
      {
        id: 'w1',
        title: 'notes.txt - Editor',
        app: 'editor',
        pid: null,
        bounds: null,
        focused: true,
        minimized: false,
        maximized: true,
        displayName: 'HDMI-A-1',
      },
      { id: 'w2', title: 'a film', app: 'player', pid: null, bounds: null, focused: false, minimized: false, maximized: true, displayName: 'HDMI-A-1' },
      { id: 'w3', title: 'mail', app: 'mail', pid: null, bounds: null, focused: false, minimized: true, maximized: false },
    ]);
  });

  it('restore asks to leave each state the window is in, then activates it on our seat', async () => {
    const fake = compositor();
    fake.onRoundtrip.push(() => fake.announce(100, 'film', 'player', [0, 1, 3]));
    const windows = (await foreignToplevels(fake.connection, SEAT, () => undefined))!;
    // The compositor does what it is asked once the requests are in.
    fake.onRoundtrip.push(() => undefined);
    const acting = windows.act('w1', 'restore', 'window.restore');
    await new Promise((resolve) => setTimeout(resolve, 10));
    fake.send(100, 4, Buffer.concat([words(4), words(2)]));
    fake.send(100, 5);
    await acting;
    expect(fake.requests.filter((r) => r.id === 100)).toEqual([
      { id: 100, opcode: 3, args: [] }, // unset_minimized
      { id: 100, opcode: 1, args: [] }, // unset_maximized
      { id: 100, opcode: 9, args: [] }, // unset_fullscreen
      { id: 100, opcode: 4, args: [{ u: SEAT }] }, // activate
    ]);
  });

  it('a closed window leaves the list, its handle is destroyed, and its id is not reused', async () => {
    const fake = compositor();
    fake.onRoundtrip.push(() => fake.announce(100, 'one', 'app', []));
    const windows = (await foreignToplevels(fake.connection, SEAT, () => undefined))!;
    fake.send(100, 6); // closed
    expect(fake.requests).toContainEqual({ id: 100, opcode: 7, args: [] }); // destroy
    expect(fake.listeners.has(100)).toBe(false);
    fake.announce(100, 'two', 'app', []); // the compositor reuses the object id
    expect((await windows.list('window.list')).map((w) => [w.id, w.title])).toEqual([['w2', 'two']]);
    await expect(windows.act('w1', 'focus', 'window.focus')).rejects.toThrow(/no window w1/);
  });

  it('refuses to move or resize, saying what the protocol lacks', async () => {
    const fake = compositor();
    const windows = (await foreignToplevels(fake.connection, SEAT, () => undefined))!;
    await expect(windows.moveResize('w1', { x: 1 }, 'window.move_resize')).rejects.toThrow(/cannot move or resize windows/);
  });

  it('a compositor at version 1 is never sent unset_fullscreen (version 2)', async () => {
    const fake = compositor(1);
    fake.onRoundtrip.push(() => fake.announce(100, 'one', 'app', [0, 3]));
    const windows = (await foreignToplevels(fake.connection, SEAT, () => undefined))!;
    const acting = windows.act('w1', 'restore', 'window.restore');
    await new Promise((resolve) => setTimeout(resolve, 10));
    fake.send(100, 4, words(0));
    await acting;
    expect(fake.requests.filter((r) => r.id === 100).map((r) => r.opcode)).toEqual([1, 4]); // unset_maximized, activate
  });
});
