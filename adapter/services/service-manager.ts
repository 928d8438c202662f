/** Picks the service manager of this OS and runs status/control through it. */
import { adapterError } from '../contract/errors.js';
import type { ServiceAction, ServiceStatus } from '../contract/services.js';
import { launchdControl, launchdStatus } from './launchd.js';
import { parseServiceName } from './service-name.js';
import { systemdControl, systemdStatus } from './systemd.js';
import { windowsServiceControl, windowsServiceStatus } from './windows-services.js';

const ACTIONS: ReadonlySet<string> = new Set(['start', 'stop', 'restart']);

export async function serviceStatus(name: string): Promise<ServiceStatus> {
  const operation = 'service.status';
  const ref = parseServiceName(name, operation);
  switch (process.platform) {
    case 'linux':
      return systemdStatus(ref, operation);
    case 'darwin':
      return launchdStatus(ref, operation);
    case 'win32':
      return windowsServiceStatus(ref, operation);
    default:
      throw unsupported(operation);
  }
}

export async function serviceControl(name: string, action: ServiceAction): Promise<ServiceStatus> {
  const operation = 'service.control';
  if (!ACTIONS.has(action)) throw adapterError('INVALID_INPUT', operation, `action must be start, stop or restart, got ${String(action)}`);
  const ref = parseServiceName(name, operation);
  switch (process.platform) {
    case 'linux':
      return systemdControl(ref, action, operation);
    case 'darwin':
      return launchdControl(ref, action, operation);
    case 'win32':
      return windowsServiceControl(ref, action, operation);
    default:
      throw unsupported(operation);
  }
}

function unsupported(operation: string): Error {
  return adapterError(
    'OS_ERROR',
    operation,
    `services are supported with systemd (Linux), launchd (macOS) and the Windows service manager; this is ${process.platform}`,
  );
}
