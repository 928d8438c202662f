/**
 * Runs synchronous work with a time limit. A caller's regular expression can backtrack for
 * ages (`(a|a)*b` on a line of thirty a's) on the server's only thread, freezing every other
 * call; V8 interrupts a script that runs past a vm timeout, regex matching included.
 */
import vm from 'node:vm';

const context = vm.createContext({ job: null as (() => unknown) | null });
const script = new vm.Script('job()');

export class TimeLimitExceeded extends Error {
  override name = 'TimeLimitExceeded';
}

export function withTimeLimit<T>(ms: number, job: () => T): T {
  context.job = job;
  try {
    return script.runInContext(context, { timeout: ms }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new TimeLimitExceeded(`over ${ms} ms`);
    throw error;
  } finally {
    context.job = null;
  }
}
