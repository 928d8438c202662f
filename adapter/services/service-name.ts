/**
 * Service names as the owner writes them in `services.allowed`:
 *
 * - `nginx`, `nginx.service`, `getty@tty1.service`: a system unit (systemd), a system-domain
 *   job label (launchd, `system/<label>`), or a service name (Windows).
 * - `user:<name>`: the current user's systemd user unit (`systemctl --user`) or launchd agent
 *   (`gui/<uid>/<label>`). Windows has no equivalent: refused there.
 *
 * The name is always passed as its own argv element, after `--` where the tool supports it;
 * still, a name that could be read as an option or a path is refused here.
 */
import { adapterError } from '../contract/errors.js';

export interface ServiceRef {
  /** As given (for messages). */
  name: string;
  scope: 'system' | 'user';
  /** The unit, label or service name passed to the manager. */
  unit: string;
}

const UNIT = /^[A-Za-z0-9_@][A-Za-z0-9@._:-]{0,127}$/;

export function parseServiceName(name: string, operation: string): ServiceRef {
  const user = name.startsWith('user:');
  const unit = user ? name.slice('user:'.length) : name;
  if (!UNIT.test(unit) || unit.includes('..')) {
    throw adapterError(
      'INVALID_INPUT',
      operation,
      `"${name}" is not a valid service name: use letters, digits and @ . _ : - (optionally prefixed with user:), not starting with - or .`,
    );
  }
  return { name, scope: user ? 'user' : 'system', unit };
}
