/** What the service parser tests share: a system and a user service, and a failure as "CODE: message". */
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';
import { parseServiceName } from '../../../adapter/services/service-name.js';

export const system = parseServiceName('nginx.service', 'test');
export const user = parseServiceName('user:syncthing.service', 'test');

export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return isComputerAdapterError(error) ? `${error.code}: ${error.message}` : 'not an adapter error';
  }
  return 'no error';
}
