import { describe, expect, test } from 'vitest';
import { parseServiceName } from '../../../adapter/services/service-name.js';
import { parseScQuery, parseScStartType, scError } from '../../../adapter/services/windows-services.js';
import { codeOf } from './helpers.js';

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
