/** Which services service.status and service.control may touch. */
import { describe, expect, it } from 'vitest';
import { ServicePolicy } from '../../main/policy/services.js';
import { makeConfig } from '../helpers/servers.js';

describe('ServicePolicy', () => {
  it('allows exactly the listed names, and control only with services.control', () => {
    const readOnly = new ServicePolicy(makeConfig({ services: { allowed: ['nginx', 'user:syncthing'] } }));
    expect(readOnly.status('nginx')).toBe('nginx');
    expect(() => readOnly.status('nginx.service')).toThrow(/service "nginx.service" is not in services.allowed; allowed services: nginx, user:syncthing/);
    expect(() => readOnly.control('nginx')).toThrow(/services\.control is false/);
    const control = new ServicePolicy(makeConfig({ services: { allowed: ['nginx'], control: true } }));
    expect(control.control('nginx')).toBe('nginx');
    expect(() => control.control('sshd')).toThrow(/allowed services: nginx/);
  });
});
