import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemdRunning } from '../../../adapter/services/systemd.js';
import { startTestServer, type TestServer } from '../../helpers/tool-server.js';

// A unit that exists nowhere: with systemd it is NOT_FOUND, without it the call must say so.
const UNIT = 'chatgpt-mcp-test-nonexistent.service';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ services: { allowed: [UNIT, 'user:other.service'], control: true } });
});

afterAll(async () => {
  await server?.close();
});

function expectedError(): RegExp {
  if (process.platform !== 'linux') return /^(NOT_FOUND|OS_ERROR): /;
  return systemdRunning()
    ? new RegExp(`^NOT_FOUND: systemd has no system unit named ${UNIT}`)
    : /^OS_ERROR: systemd is not running on this machine( \(PID 1 is [^)]+\))?, so services cannot be queried or controlled here$/;
}

describe('service tools through MCP', () => {
  test('both are listed when names are allowed and control is on', async () => {
    expect(await server.toolNames()).toEqual(expect.arrayContaining(['service.status', 'service.control']));
  });

  test('service.status of an allowed name gives a clear error here, and the server keeps serving', async () => {
    const result = await server.call('service.status', { name: UNIT });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(expectedError());
    const again = await server.call('system.info');
    expect(again.isError).toBe(false);
  });

  test('service.control of an allowed name gives the same clear error', async () => {
    const result = await server.call('service.control', { name: UNIT, action: 'restart' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(expectedError());
  });

  test('a name outside services.allowed is refused with the allowed list, before the OS is asked', async () => {
    for (const [tool, args] of [
      ['service.status', { name: 'sshd' }],
      ['service.control', { name: 'sshd', action: 'stop' }],
    ] as const) {
      const result = await server.call(tool, args);
      expect(result.text).toBe(`INVALID_INPUT: service "sshd" is not in services.allowed; allowed services: ${UNIT}, user:other.service`);
    }
  });

  test('an unknown action is a schema error', async () => {
    const result = await server.call('service.control', { name: UNIT, action: 'disable' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/action/);
  });
});

describe('gating', () => {
  test('nothing allowed: both tools are absent and never run', async () => {
    const off = await startTestServer({ services: { allowed: [], control: true } });
    try {
      const names = await off.toolNames();
      expect(names).not.toContain('service.status');
      expect(names).not.toContain('service.control');
      // Not granted: answered as such (naming the setting), and nothing runs.
      const refused = await off.call('service.status', { name: UNIT });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^CAPABILITY_DISABLED: service\.status exists but is not granted .*services\.allowed/);
    } finally {
      await off.close();
    }
  });

  test('control off: status only', async () => {
    const readOnly = await startTestServer({ services: { allowed: [UNIT], control: false } });
    try {
      const names = await readOnly.toolNames();
      expect(names).toContain('service.status');
      expect(names).not.toContain('service.control');
      // Not granted: answered as such (naming the setting), and nothing runs.
      const refused = await readOnly.call('service.control', { name: UNIT, action: 'stop' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^CAPABILITY_DISABLED: service\.control exists but is not granted .*services\.control/);
    } finally {
      await readOnly.close();
    }
  });

  test('annotations say what the tools do', async () => {
    const tools = (await server.client.listTools()).tools;
    const status = tools.find((t) => t.name === 'service.status')!;
    const control = tools.find((t) => t.name === 'service.control')!;
    expect(status.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(control.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });
});
