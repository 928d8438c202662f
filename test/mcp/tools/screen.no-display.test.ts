/**
 * The screen and input tools through a real MCP client over HTTP, without a usable display:
 * gating, annotations, and a server that survives capture and input calls with no display or
 * a display nut-js cannot open (the real worker segfaults). No Xvfb needed.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { DesktopClient } from '../../../adapter/desktop/desktop-client.js';
import type { ConfigInput } from '../../../main/config/schema.js';
import { connectModernHttp, textOf, type TestClient } from '../../helpers/clients.js';
import type { TestHttpServer } from '../../helpers/servers.js';
import { DESKTOP_ON, startDesktopServer } from '../../adapter/desktop/fixtures/desktop-server.js';

const SCREEN_TOOLS = ['screen.displays', 'screen.capture', 'ui.snapshot', 'ui.find'];
const INPUT_ACTIONS = ['input.move', 'input.click', 'input.scroll', 'input.drag', 'input.down', 'input.up', 'input.type', 'input.key'];
const INPUT_TOOLS = [...INPUT_ACTIONS, 'input.wait', 'input.cursor'];
const DESKTOP_TOOL_NAMES = [...SCREEN_TOOLS, ...INPUT_TOOLS];

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function serve(desktop: DesktopClient, config: ConfigInput = DESKTOP_ON): Promise<{ server: TestHttpServer; client: TestClient }> {
  opened.push(desktop);
  const server = await startDesktopServer(desktop, config);
  opened.push(server);
  const client = await connectModernHttp(server.url);
  opened.push(client);
  return { server, client };
}

/** Worker start attempts by noWorkerClient()s; a disabled tool must cause none. */
let spawnAttempts = 0;

/** A client whose worker never starts (a start attempt is counted and fails the call). */
function noWorkerClient(env: NodeJS.ProcessEnv = { DISPLAY: ':0' }): DesktopClient {
  return new DesktopClient({
    env,
    platform: 'linux',
    spawn: () => {
      spawnAttempts++;
      throw new Error('the desktop worker must not start');
    },
  });
}

describe('gating (desktop.hostDisplayAccess plus each family flag)', () => {
  test.each([
    [{}, []],
    [{ desktop: { screen: true, input: true } }, []],
    [{ desktop: { hostDisplayAccess: true } }, []],
    [{ desktop: { hostDisplayAccess: true, screen: true } }, SCREEN_TOOLS],
    [{ desktop: { hostDisplayAccess: true, input: true } }, INPUT_TOOLS],
    [DESKTOP_ON, DESKTOP_TOOL_NAMES],
  ] as Array<[ConfigInput, string[]]>)('%j lists %j', async (config, expected) => {
    const { client } = await serve(noWorkerClient(), config);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => DESKTOP_TOOL_NAMES.includes(n)).sort()).toEqual([...expected].sort());
  });

  test('a disabled tool never executes', async () => {
    const { client } = await serve(noWorkerClient(), { desktop: { hostDisplayAccess: false, screen: true, input: true } });
    spawnAttempts = 0;
    for (const name of DESKTOP_TOOL_NAMES) {
      const outcome = await client
        .callTool({
          name,
          arguments: {
            x: 1,
            y: 1,
            text: 'a',
            keys: 'a',
            ms: 1,
            path: [
              { x: 1, y: 1 },
              { x: 2, y: 2 },
            ],
            role: 'button',
          },
        })
        .then(
          (result) => result,
          (error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }),
        );
      expect(outcome.isError, name).toBe(true);
    }
    expect(spawnAttempts).toBe(0);
    // the same calls with the master grant on do reach the adapter (so the count above means something)
    const { client: enabled } = await serve(noWorkerClient());
    await enabled.callTool({ name: 'input.key', arguments: { keys: 'a' } });
    expect(spawnAttempts).toBe(1);
  });

  test('annotations: screen, ui, wait and cursor are read-only, input actions destructive; every tool has an output schema', async () => {
    const { client } = await serve(noWorkerClient());
    const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const name of [...SCREEN_TOOLS, 'input.wait', 'input.cursor']) {
      expect(tools.get(name)?.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    }
    for (const name of INPUT_ACTIONS) {
      expect(tools.get(name)?.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    }
    for (const name of DESKTOP_TOOL_NAMES) expect(tools.get(name)?.outputSchema, name).toBeTruthy();
  });
});

describe('no usable display: clear errors, and the server stays up', () => {
  test('without DISPLAY every call is OS_ERROR before any worker starts', async () => {
    const { client, server } = await serve(noWorkerClient({ PATH: process.env.PATH }));
    for (const [name, args] of [
      ['screen.capture', {}],
      ['input.move', { x: 1, y: 1 }],
      ['input.type', { text: 'hi' }],
      ['input.key', { keys: 'enter' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toMatch(/^OS_ERROR: no graphical display: set DISPLAY/);
    }
    // input validation still answers precisely
    expect(textOf(await client.callTool({ name: 'input.key', arguments: { keys: 'ctrl+nope' } }))).toMatch(/^INVALID_INPUT: unknown key "nope"/);
    expect((await client.callTool({ name: 'system.info', arguments: {} })).isError).toBeFalsy();
    expect((await fetch(server.url.replace('/mcp', '/healthz'))).status).toBe(200);
  });

  test.skipIf(process.platform !== 'linux')('a display nut-js cannot open crashes only the worker; every call reports it and the server lives on', async () => {
    const desktop = new DesktopClient({ env: { ...process.env, DISPLAY: unusedDisplay() } });
    const { client } = await serve(desktop);
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await client.callTool({ name: 'screen.capture', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^OS_ERROR: the desktop worker stopped unexpectedly \((signal SIGSEGV|exit code \d+)\) during screen\.capture; this call failed and the next call starts a new worker\. nut-js could not open the display/,
      );
    }
    expect((await client.callTool({ name: 'system.info', arguments: {} })).isError).toBeFalsy();
  });
});

describe('arguments checked before any worker starts', () => {
  test('half a point, a point and an element, an unknown snapshot, ui.find without role or name, zoom with a display', async () => {
    const { client } = await serve(noWorkerClient());
    spawnAttempts = 0;
    for (const [name, args, message] of [
      ['input.click', { x: 1 }, /^INVALID_INPUT: give both x and y/],
      ['input.scroll', { y: 1, dy: 1 }, /^INVALID_INPUT: give both x and y/],
      ['input.click', { x: 1, y: 1, element: 'e1', snapshotHandle: 'snap_AAAAAAAAAAAAAAAA' }, /^INVALID_INPUT: give either x and y or element/],
      ['input.type', { text: 'a', element: 'e1' }, /^INVALID_INPUT: give both element and snapshotHandle/],
      ['input.type', { text: 'a', element: 'e1', snapshotHandle: 'snap_AAAAAAAAAAAAAAAA' }, /^NOT_FOUND: snapshot snap_A+ is unknown or expired/],
      ['input.click', { element: 'e1', snapshotHandle: '../../etc' }, /^INVALID_INPUT: snapshotHandle must be/],
      ['ui.find', {}, /^INVALID_INPUT: give role, name or both/],
      ['input.scroll', { dy: 0 }, /^INVALID_INPUT: give dx or dy \(non-zero\) to scroll/],
      ['input.scroll', { dy: 201 }, /^INVALID_INPUT: at most 200 wheel clicks per call on each axis \(asked 201\)/],
      ['screen.capture', { zoom: { x: 0, y: 0, width: 5, height: 5 }, display: 0 }, /^INVALID_INPUT: zoom is a rectangle/],
      ['screen.capture', { saveTo: '/tmp/x.png' }, /^CAPABILITY_DISABLED: saving captures to files is turned off/],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(message);
    }
    expect(spawnAttempts).toBe(0);
  });
});

describe('schemas', () => {
  test('out-of-range arguments are refused by the input schema', async () => {
    const { client } = await serve(noWorkerClient());
    for (const [name, args] of [
      ['screen.capture', { format: 'gif' }],
      ['screen.capture', { maxWidth: 8 }],
      ['screen.capture', { region: { x: -1, y: 0, width: 10, height: 10 } }],
      ['input.click', { x: 1, y: 1, button: 'back' }],
      ['input.move', { x: 1, y: 1, space: { width: 0, height: 10 } }],
      ['input.type', { text: '' }],
      ['input.type', { text: 'x'.repeat(5001) }],
      ['input.click', { x: 1, y: 1, clicks: 4 }],
      ['input.click', { x: 1, y: 1, modifiers: ['hyper'] }],
      ['input.drag', { path: [{ x: 1, y: 1 }] }],
      ['input.key', { keys: 'a', holdMs: 10_001 }],
      ['input.wait', { ms: 30_001 }],
      ['input.scroll', { dy: 1, unit: 'pages' }],
      ['ui.snapshot', { maxNodes: 0 }],
      ['ui.find', { maxResults: 500, role: 'button' }],
    ] as const) {
      const result = await client
        .callTool({ name, arguments: args })
        .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 60)}`).toBe(true);
    }
  });
});

/** A display number with no X server behind it. */
function unusedDisplay(): string {
  for (let n = 917; n < 1017; n++) if (!fs.existsSync(`/tmp/.X11-unix/X${n}`) && !fs.existsSync(`/tmp/.X${n}-lock`)) return `:${n}`;
  throw new Error('no unused X display number');
}
