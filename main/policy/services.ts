/**
 * Which system services service.status and service.control may touch: exactly the names the
 * owner listed in `services.allowed`, and control only with `services.control`. Built once per
 * config.
 */
import { adapterError } from '../../adapter/contract/errors.js';
import type { Config } from '../config/schema.js';

export class ServicePolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(private readonly config: Readonly<Pick<Config, 'services'>>) {
    this.allowed = new Set(config.services.allowed);
  }

  /** The service name to query, or INVALID_INPUT listing the allowed ones. */
  status(name: string): string {
    return this.check(name, 'service.status');
  }

  /** The service name to start, stop or restart. */
  control(name: string): string {
    if (!this.config.services.control) {
      throw adapterError('CAPABILITY_DISABLED', 'service.control', 'controlling services is disabled (services.control is false)');
    }
    return this.check(name, 'service.control');
  }

  private check(name: string, operation: string): string {
    if (!this.allowed.has(name)) {
      const list = this.config.services.allowed;
      throw adapterError(
        'INVALID_INPUT',
        operation,
        `service "${name}" is not in services.allowed; allowed services: ${list.length ? list.join(', ') : 'none'}`,
      );
    }
    return name;
  }
}
