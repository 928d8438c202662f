import { describe, expect, test } from 'vitest';
import { interpretLaunchctlPrint, launchdDomain, parseLaunchctlPrint, parsePrintDisabled } from '../../../adapter/services/launchd.js';
import { system, user } from './helpers.js';

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
