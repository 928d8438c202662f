/**
 * Computer use through the built CLI over stdio, as hosts spawn it: the compiled server finds its
 * compiled desktop worker, and the new tools answer on a real Xvfb display through both clients.
 * The accessibility tree without a session bus, and with one that has no application on it,
 * fails or answers clearly. (The full behaviour is in test/adapter/desktop/*-xvfb.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectLegacyStdio, connectModernStdio, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { missingDesktopPrereq, skipDesktop, startSessionBus, startXvfb, type SessionBus, type Xvfb } from '../adapter/desktop/fixtures/xvfb.js';

const missing = missingDesktopPrereq({ accessibility: true, xrandr: true });

describe.skipIf(skipDesktop(missing, 'computer use over stdio'))('computer use over stdio (built CLI, Xvfb)', () => {
  let xvfb: Xvfb;
  let bus: SessionBus;
  let home: string;
  let config: string;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(1600, 1000);
    bus = await startSessionBus();
    home = makeTempDir('computer-use-stdio-');
    config = path.join(home, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ desktop: { hostDisplayAccess: true, screen: true, input: true }, server: { logLevel: 'silent' } }));
  }, 30_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await bus?.stop();
    await xvfb?.stop();
    if (home) removeDir(home);
  });

  const env = (extra: Record<string, string> = {}) => {
    const base = childEnv(home, { DISPLAY: xvfb.display, ...extra }) as Record<string, string>;
    delete base.DBUS_SESSION_BUS_ADDRESS;
    delete base.AT_SPI_BUS_ADDRESS;
    return { ...base, ...extra };
  };

  test.each(['modern', 'legacy'] as const)('%s client: displays, capture defaults, move, cursor, wait', async (kind) => {
    const client = await (kind === 'modern' ? connectModernStdio : connectLegacyStdio)(['--config', config], env());
    clients.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['screen.displays', 'screen.capture', 'ui.snapshot', 'ui.find', 'input.scroll', 'input.drag', 'input.wait', 'input.cursor']),
    );
    const displays = await client.callTool({ name: 'screen.displays', arguments: {} });
    expect(displays.structuredContent).toMatchObject({
      desktop: { width: 1600, height: 1000 },
      displays: [{ index: 0, x: 0, y: 0, width: 1600, height: 1000, primary: true }],
    });
    // 1600x1000 is 1.6 MP: the default capture fits 1.15 MP
    const capture = await client.callTool({ name: 'screen.capture', arguments: { format: 'jpeg' } });
    expect(capture.structuredContent).toMatchObject({
      width: 1356,
      height: 848,
      space: { width: 1356, height: 848, area: { x: 0, y: 0, width: 1600, height: 1000 } },
    });
    const moved = await client.callTool({ name: 'input.move', arguments: { x: 678, y: 424, space: (capture.structuredContent as { space: object }).space } });
    expect(moved.structuredContent).toEqual({ x: 800, y: 500, display: 0 });
    expect((await client.callTool({ name: 'input.cursor', arguments: {} })).structuredContent).toEqual({ x: 800, y: 500, display: 0 });
    expect((await client.callTool({ name: 'input.wait', arguments: { ms: 20 } })).structuredContent).toMatchObject({ waitedMs: expect.any(Number) });
  });

  test('ui.snapshot: no session bus is a precondition naming what is missing; an empty bus says why it is empty', async () => {
    const without = await connectModernStdio(['--config', config], env());
    clients.push(without);
    expect(textOf(await without.callTool({ name: 'ui.snapshot', arguments: {} }))).toMatch(
      /^PRECONDITION_FAILED: the accessibility tree needs the desktop session bus: DBUS_SESSION_BUS_ADDRESS \(or AT_SPI_BUS_ADDRESS\) is not set/,
    );
    const withBus = await connectModernStdio(['--config', config], env({ DBUS_SESSION_BUS_ADDRESS: bus.address }));
    clients.push(withBus);
    const empty = await withBus.callTool({ name: 'ui.snapshot', arguments: {} });
    expect(empty.isError, textOf(empty)).toBeFalsy();
    expect(empty.structuredContent).toMatchObject({
      elements: [],
      windows: [],
      nodeCount: 0,
      hint: expect.stringContaining('no application is on the accessibility bus'),
    });
    expect((empty.structuredContent as { snapshotHandle: string }).snapshotHandle).toMatch(/^snap_/);
  });
});
