import { describe, expect, test } from 'vitest';
import { parseServiceName } from '../../../adapter/services/service-name.js';
import { codeOf } from './helpers.js';

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
