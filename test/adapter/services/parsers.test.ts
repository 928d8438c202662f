import { describe, expect, test } from 'vitest';
import { interpretLaunchctlPrint, parseLaunchctlPrint, parsePrintDisabled, launchdDomain } from '../../../adapter/services/launchd.js';
import { parseServiceName } from '../../../adapter/services/service-name.js';
import { interpretSystemdShow, parseKeyValues, systemctlError } from '../../../adapter/services/systemd.js';
import { parseScQuery, parseScStartType, scError } from '../../../adapter/services/windows-services.js';
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';

const system = parseServiceName('nginx.service', 'test');
const user = parseServiceName('user:syncthing.service', 'test');

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return isComputerAdapterError(error) ? `${error.code}: ${error.message}` : 'not an adapter error';
  }
  return 'no error';
}

describe('service names', () => {
  test.each([
    ['nginx', 'system', 'nginx'],
    ['nginx.service', 'system', 'nginx.service'],
    ['getty@tty1.service', 'system', 'getty@tty1.service'],
    ['user:syncthing.service', 'user', 'syncthing.service'],
    ['com.openssh.sshd', 'system', 'com.openssh.sshd'],
    ['Spooler', 'system', 'Spooler'],
  ])('%s -> %s %s', (name, scope, unit) => {
    expect(parseServiceName(name, 'test')).toEqual({ name, scope, unit });
  });

  test.each(['-H', '--help', 'user:-x', '.hidden', 'a b', 'a/b', '..', 'a..b', '', 'user:', 'x'.repeat(129), 'a;b', '$(id)'])('%j is refused', (name) => {
    expect(codeOf(() => parseServiceName(name, 'service.status'))).toMatch(/^INVALID_INPUT: .*is not a valid service name/);
  });
});

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

describe('launchd', () => {
  const sshd = [
    'system/com.openssh.sshd = {',
    '\tactive count = 1',
    '\tpath = /System/Library/LaunchDaemons/ssh.plist',
    '\ttype = LaunchDaemon',
    '\tstate = running',
    '',
    '\tprogram = /usr/libexec/sshd-keygen-wrapper',
    '\targuments = {',
    '\t\t/usr/libexec/sshd-keygen-wrapper',
    '\t}',
    '',
    '\tinherited environment = {',
    '\t\tSSH_AUTH_SOCK => /private/tmp/com.apple.launchd.x/Listeners',
    '\t}',
    '',
    '\tdefault environment = {',
    '\t\tPATH => /usr/bin:/bin:/usr/sbin:/sbin',
    '\t}',
    '',
    '\tdomain = system',
    '\tminimum runtime = 10',
    '\texit timeout = 5',
    '\truns = 3',
    '\tpid = 4321',
    '\timmediate reason = inetd',
    '\tforks = 0',
    '\texecs = 1',
    '\tinitialized = 1',
    '\ttrampolined = 1',
    '\tstarted suspended = 0',
    '\tproxy started suspended = 0',
    '\tlast exit code = (never exited)',
    '',
    '\tendpoints = {',
    '\t\t"Listeners" = {',
    '\t\t\tport = 22',
    '\t\t\tstate = active',
    '\t\t}',
    '\t}',
    '}',
  ].join('\n');
  const idle =
    'gui/501/com.example.agent = {\n    active count = 0\n    path = /Users/me/Library/LaunchAgents/com.example.agent.plist\n    state = not running\n    last exit code = 0\n}\n';

  test('print output gives the state of the service block, not of nested blocks', () => {
    expect(parseLaunchctlPrint(sshd)).toMatchObject({ state: 'running', pid: '4321', domain: 'system', 'last exit code': '(never exited)' });
    expect(interpretLaunchctlPrint(sshd, system, 'test')).toEqual({ manager: 'launchd', state: 'running', detail: 'pid 4321, last exit code (never exited)' });
    expect(interpretLaunchctlPrint(idle, user, 'test')).toEqual({ manager: 'launchd', state: 'not running', detail: 'last exit code 0' });
  });

  test('print-disabled in both formats', () => {
    const modern = 'disabled services = {\n\t"com.apple.ftpd" => disabled\n\t"com.openssh.sshd" => enabled\n}\n';
    const legacy = 'disabled services = {\n\t"com.apple.ftpd" => true\n\t"com.openssh.sshd" => false\n}\n';
    for (const text of [modern, legacy]) {
      const map = parsePrintDisabled(text);
      expect(map.get('com.apple.ftpd')).toBe(false);
      expect(map.get('com.openssh.sshd')).toBe(true);
      expect(map.get('com.other')).toBeUndefined();
    }
  });

  test('domains', () => {
    expect(launchdDomain(system, 501)).toBe('system');
    expect(launchdDomain(user, 501)).toBe('gui/501');
  });
});

describe('Windows service manager (sc.exe)', () => {
  const query = [
    '',
    'SERVICE_NAME: Spooler ',
    '        TYPE               : 110  WIN32_OWN_PROCESS  (interactive)',
    '        STATE              : 4  RUNNING ',
    '                                (STOPPABLE, NOT_PAUSABLE, ACCEPTS_SHUTDOWN)',
    '        WIN32_EXIT_CODE    : 0  (0x0)',
    '        SERVICE_EXIT_CODE  : 0  (0x0)',
    '        CHECKPOINT         : 0x0',
    '        WAIT_HINT          : 0x0',
    '',
  ].join('\r\n');
  const pending = query.replace('4  RUNNING', '2  START_PENDING');
  const qc = [
    '[SC] QueryServiceConfig SUCCESS',
    '',
    'SERVICE_NAME: Spooler',
    '        TYPE               : 110  WIN32_OWN_PROCESS (interactive)',
    '        START_TYPE         : 2   AUTO_START  (DELAYED)',
    '        ERROR_CONTROL      : 1   NORMAL',
    '        BINARY_PATH_NAME   : C:\\Windows\\System32\\spoolsv.exe',
    '        DISPLAY_NAME       : Print Spooler',
    '        DEPENDENCIES       : RPCSS',
    '        SERVICE_START_NAME : LocalSystem',
  ].join('\r\n');

  test('query and qc output', () => {
    expect(parseScQuery(query)).toEqual({ code: 4, state: 'running' });
    expect(parseScQuery(pending)).toEqual({ code: 2, state: 'start-pending' });
    expect(parseScStartType(qc)).toEqual({ word: 'automatic (delayed)', enabled: true });
    expect(parseScStartType(qc.replace('2   AUTO_START  (DELAYED)', '3   DEMAND_START'))).toEqual({ word: 'manual', enabled: false });
    expect(parseScStartType(qc.replace('2   AUTO_START  (DELAYED)', '4   DISABLED'))).toEqual({ word: 'disabled', enabled: false });
    expect(codeOf(() => parseScQuery('garbage'))).toBe('OS_ERROR: sc.exe query printed no STATE line');
  });

  test('sc.exe exit codes are classified', () => {
    const spooler = parseServiceName('Spooler', 'test');
    const describeError = (code: number, output: string) => {
      const e = scError(spooler, 'start', code, output, 'service.control');
      return `${(e as unknown as { code: string }).code}: ${e.message}`;
    };
    expect(
      describeError(1060, '[SC] EnumQueryServicesStatus:OpenService FAILED 1060:\r\n\r\nThe specified service does not exist as an installed service.\r\n'),
    ).toBe('NOT_FOUND: Windows has no service named Spooler');
    expect(describeError(5, '[SC] StartService: OpenService FAILED 5:\r\n\r\nAccess is denied.\r\n')).toMatch(
      /^OS_ERROR: access denied to start Spooler: .*elevated/,
    );
    expect(describeError(1058, '')).toMatch(/^PRECONDITION_FAILED: Spooler is disabled/);
    expect(
      describeError(1053, '[SC] StartService FAILED 1053:\r\n\r\nThe service did not respond to the start or control request in a timely fashion.\r\n'),
    ).toBe('OS_ERROR: sc.exe start Spooler failed with Windows error 1053: The service did not respond to the start or control request in a timely fashion.');
  });
});
