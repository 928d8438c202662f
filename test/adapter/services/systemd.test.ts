import { describe, expect, test } from 'vitest';
import { interpretSystemdShow, parseKeyValues, systemctlError } from '../../../adapter/services/systemd.js';
import { codeOf, system, user } from './helpers.js';

describe('systemd', () => {
  const running = 'LoadState=loaded\nActiveState=active\nSubState=running\nUnitFileState=enabled\n';
  const missing = 'LoadState=not-found\nActiveState=inactive\nSubState=dead\nUnitFileState=\n';
  const staticUnit = 'LoadState=loaded\nActiveState=inactive\nSubState=dead\nUnitFileState=static\n';
  const failed = 'LoadState=loaded\nActiveState=failed\nSubState=failed\nUnitFileState=disabled\n';
  const masked = 'LoadState=masked\nActiveState=inactive\nSubState=dead\nUnitFileState=masked\n';

  test('show output is parsed into the status', () => {
    expect(parseKeyValues('A=1\nB=x=y\n\nC=\n')).toEqual({ A: '1', B: 'x=y', C: '' });
    expect(interpretSystemdShow(parseKeyValues(running), system, 'test')).toEqual({
      manager: 'systemd',
      state: 'active',
      enabled: true,
      detail: 'running, unit file enabled',
    });
    expect(interpretSystemdShow(parseKeyValues(staticUnit), system, 'test')).toEqual({
      manager: 'systemd',
      state: 'inactive',
      detail: 'dead, unit file static',
    });
    expect(interpretSystemdShow(parseKeyValues(failed), system, 'test')).toMatchObject({ state: 'failed', enabled: false });
    expect(interpretSystemdShow(parseKeyValues(masked), system, 'test')).toMatchObject({
      state: 'inactive',
      enabled: false,
      detail: 'dead, load state masked, unit file masked',
    });
  });

  test('an unknown unit is NOT_FOUND', () => {
    expect(codeOf(() => interpretSystemdShow(parseKeyValues(missing), user, 'service.status'))).toBe(
      'NOT_FOUND: systemd has no user unit named syncthing.service',
    );
  });

  test('systemctl failures are classified', () => {
    const message = (stderr: string) => {
      const e = systemctlError(system, 'start', stderr, 'service.control');
      return `${(e as unknown as { code: string }).code}: ${e.message}`;
    };
    expect(message('Failed to start nginx.service: Unit nginx.service not found.\n')).toBe('NOT_FOUND: systemd has no system unit named nginx.service');
    expect(message("Failed to start nginx.service: Access denied\nSee system logs and 'systemctl status nginx.service' for details.\n")).toMatch(
      /^OS_ERROR: not permitted to start nginx.service: .*root or a polkit rule/,
    );
    expect(message('Failed to start nginx.service: Interactive authentication required.\n')).toMatch(/not permitted/);
    expect(
      message(
        'Job for nginx.service failed because the control process exited with error code.\nSee "systemctl status nginx.service" and "journalctl -xeu nginx.service" for details.\n',
      ),
    ).toBe('OS_ERROR: systemctl start nginx.service failed: Job for nginx.service failed because the control process exited with error code.');
    const bus = systemctlError(user, 'show', 'Failed to connect to bus: No medium found\n', 'service.status');
    expect(bus.message).toMatch(/user manager is not reachable/);
  });
});
