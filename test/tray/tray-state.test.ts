import { describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../main/tray/bridge-api.js';
import { ActivityPulse, statusLine, trayIconFor, trayIconWithTunnel, trayTooltip, type PulseTimers } from '../../main/tray/tray-state.js';

const running: ServerStatus = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 3, auth: true };

describe('tray icon and text', () => {
  it.each([
    [running, false, 'running'],
    [running, true, 'busy'],
    [{ state: 'paused', url: 'http://127.0.0.1:3210/mcp' }, true, 'paused'],
    [{ state: 'stopped' }, true, 'stopped'],
    [{ state: 'starting' }, false, 'stopped'],
    [{ state: 'error', message: 'bad', field: null }, true, 'error'],
  ] as [ServerStatus, boolean, string][])('%j busy=%s -> %s', (status, busy, icon) => {
    expect(trayIconFor(status, busy)).toBe(icon);
  });

  it('says where it runs, or why it does not, in one line', () => {
    expect(statusLine(running)).toBe('Running at http://127.0.0.1:3210/mcp');
    expect(statusLine({ state: 'error', message: '\nInvalid configuration in /c.json:\n  server.port: too big', field: ['server', 'port'] })).toBe(
      'Not running: Invalid configuration in /c.json:',
    );
    expect(statusLine({ state: 'error', message: 'x'.repeat(300), field: null })).toHaveLength('Not running: '.length + 100);
    expect(trayTooltip({ state: 'paused', url: 'u' })).toBe('ChatGPT Computer MCP\nPaused: not listening');
  });
});

/** Timers driven by the test: run() fires whatever is due. */
function manualTimers() {
  let now = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  const timers: PulseTimers = {
    setTimeout: (run, ms) => {
      pending.set(next, { at: now + ms, run });
      return next++;
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...pending])
      if (timer.at <= now) {
        pending.delete(id);
        timer.run();
      }
  };
  return { timers, advance, pending };
}

describe('ActivityPulse', () => {
  it('lights while calls run and for the hold time after the last one', () => {
    const { timers, advance } = manualTimers();
    const changes: boolean[] = [];
    const pulse = new ActivityPulse((busy) => changes.push(busy), 500, timers);
    pulse.started();
    pulse.started();
    pulse.ended();
    expect(pulse.busy).toBe(true);
    pulse.ended();
    advance(499);
    expect(pulse.busy).toBe(true);
    advance(1);
    expect(pulse.busy).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('a call starting during the hold keeps it lit without flicker', () => {
    const { timers, advance, pending } = manualTimers();
    const changes: boolean[] = [];
    const pulse = new ActivityPulse((busy) => changes.push(busy), 500, timers);
    pulse.started();
    pulse.ended();
    advance(300);
    pulse.started();
    expect(pending.size).toBe(0);
    advance(1000);
    expect(pulse.busy).toBe(true);
    pulse.ended();
    advance(500);
    expect(changes).toEqual([true, false]);
  });

  it('reset turns it off at once, and stray ends do not go negative', () => {
    const { timers } = manualTimers();
    const pulse = new ActivityPulse(() => {}, 500, timers);
    pulse.ended();
    pulse.started();
    pulse.reset();
    expect(pulse.busy).toBe(false);
    pulse.started();
    expect(pulse.busy).toBe(true);
  });
});

describe('tray icon and tooltip with the ChatGPT connection', () => {
  const up: ServerStatus = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 3, auth: true };
  it('takes the tunnel’s colour while the server runs, and the server’s otherwise', () => {
    expect(trayIconWithTunnel(up, false, 'starting')).toBe('chatgpt-starting');
    expect(trayIconWithTunnel(up, false, 'ready')).toBe('chatgpt-ready');
    expect(trayIconWithTunnel(up, true, 'ready')).toBe('busy');
    expect(trayIconWithTunnel(up, true, 'degraded')).toBe('chatgpt-degraded');
    expect(trayIconWithTunnel(up, false, 'error')).toBe('chatgpt-error');
    expect(trayIconWithTunnel(up, false, 'stopped')).toBe('running');
    expect(trayIconWithTunnel(up, false, null)).toBe('running');
    expect(trayIconWithTunnel({ state: 'error', message: 'x', field: null }, false, 'ready')).toBe('error');
    expect(trayIconWithTunnel({ state: 'paused', url: 'u' }, false, 'degraded')).toBe('paused');
  });

  it('puts the reason in the tooltip', () => {
    expect(trayTooltip(up, { state: 'error', reason: 'The server refused the token the tunnel sends (HTTP 401).' })).toBe(
      'ChatGPT Computer MCP\nRunning at http://127.0.0.1:3210/mcp\nChatGPT: Error: The server refused the token the tunnel sends (HTTP 401).',
    );
    expect(trayTooltip(up, { state: 'ready', reason: null })).toMatch(/ChatGPT: Ready$/);
    expect(trayTooltip(up)).toBe('ChatGPT Computer MCP\nRunning at http://127.0.0.1:3210/mcp');
  });
});
