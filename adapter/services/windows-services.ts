/**
 * The Windows service manager through `%SystemRoot%\System32\sc.exe`: `query` (state), `qc`
 * (start type) and `start` / `stop`. sc.exe returns the Win32 error as its exit code, and its
 * field names and numeric codes are the same on every display language, so parsing keys on the
 * numbers. start/stop return while the service is still pending: the state is polled until it
 * settles or the time runs out.
 */
import { adapterError } from '../contract/errors.js';
import { system32 } from '../os/system-root.js';
import type { ServiceAction, ServiceStatus } from '../contract/services.js';
import { firstLine, runOsTool } from './os-tool.js';
import type { ServiceRef } from './service-name.js';

const TIMEOUT_MS = 30_000;
const SETTLE_MS = 30_000;
const POLL_MS = 250;

const ERROR_ACCESS_DENIED = 5;
const ERROR_DEPENDENT_SERVICES_RUNNING = 1051;
const ERROR_SERVICE_ALREADY_RUNNING = 1056;
const ERROR_SERVICE_DISABLED = 1058;
const ERROR_SERVICE_DOES_NOT_EXIST = 1060;
const ERROR_SERVICE_NOT_ACTIVE = 1062;

const STATES: Record<number, string> = {
  1: 'stopped',
  2: 'start-pending',
  3: 'stop-pending',
  4: 'running',
  5: 'continue-pending',
  6: 'pause-pending',
  7: 'paused',
};

const START_TYPES: Record<number, { word: string; enabled: boolean }> = {
  0: { word: 'boot', enabled: true },
  1: { word: 'system', enabled: true },
  2: { word: 'automatic', enabled: true },
  3: { word: 'manual', enabled: false },
  4: { word: 'disabled', enabled: false },
};

function scExe(): string {
  return system32('sc.exe');
}

function requireSystemScope(ref: ServiceRef, operation: string): void {
  if (ref.scope === 'user')
    throw adapterError('INVALID_INPUT', operation, `user: service names are for systemd and launchd; on Windows name the service itself (got ${ref.name})`);
}

export async function windowsServiceStatus(ref: ServiceRef, operation = 'service.status'): Promise<ServiceStatus> {
  requireSystemScope(ref, operation);
  const query = await sc(['query', ref.unit], ref, 'query', operation);
  const state = parseScQuery(query);
  const config = await runOsTool(scExe(), ['qc', ref.unit], { operation, timeoutMs: TIMEOUT_MS });
  const start = config.code === 0 ? parseScStartType(config.stdout) : undefined;
  return {
    manager: 'windows',
    state: state.state,
    ...(start ? { enabled: start.enabled, detail: `start type ${start.word}` } : {}),
  };
}

export async function windowsServiceControl(ref: ServiceRef, action: ServiceAction, operation = 'service.control'): Promise<ServiceStatus> {
  requireSystemScope(ref, operation);
  if (action === 'stop' || action === 'restart') {
    await sc(['stop', ref.unit], ref, 'stop', operation, [ERROR_SERVICE_NOT_ACTIVE]);
    const state = await settle(ref, operation);
    if (action === 'restart' && state !== 'stopped')
      throw adapterError('TIMEOUT', operation, `${ref.unit} did not stop within ${SETTLE_MS} ms (state ${state})`);
  }
  if (action === 'start' || action === 'restart') {
    await sc(['start', ref.unit], ref, 'start', operation, [ERROR_SERVICE_ALREADY_RUNNING]);
    await settle(ref, operation);
  }
  return windowsServiceStatus(ref, operation);
}

/** Polls until the state is no longer *-pending (or the time is up); returns the last state. */
async function settle(ref: ServiceRef, operation: string): Promise<string> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const { state } = parseScQuery(await sc(['query', ref.unit], ref, 'query', operation));
    if (!state.endsWith('-pending') || Date.now() >= deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function sc(args: string[], ref: ServiceRef, verb: string, operation: string, tolerated: number[] = []): Promise<string> {
  const result = await runOsTool(scExe(), args, { operation, timeoutMs: TIMEOUT_MS });
  if (result.code === 0 || tolerated.includes(result.code)) return result.stdout;
  throw scError(ref, verb, result.code, result.stdout + result.stderr, operation);
}

export function scError(ref: ServiceRef, verb: string, code: number, output: string, operation: string): Error {
  switch (code) {
    case ERROR_SERVICE_DOES_NOT_EXIST:
      return adapterError('NOT_FOUND', operation, `Windows has no service named ${ref.unit}`);
    case ERROR_ACCESS_DENIED:
      return adapterError(
        'OS_ERROR',
        operation,
        `access denied to ${verb} ${ref.unit}: controlling services needs the server to run elevated (as administrator)`,
      );
    case ERROR_SERVICE_DISABLED:
      return adapterError('PRECONDITION_FAILED', operation, `${ref.unit} is disabled; enable it in services.msc before starting it`);
    case ERROR_DEPENDENT_SERVICES_RUNNING:
      return adapterError('PRECONDITION_FAILED', operation, `${ref.unit} cannot stop while services that depend on it are running`);
    default: {
      const line = firstLine(
        output
          .split(/\r?\n/)
          .filter((l) => !/^\[SC\]/.test(l.trim()))
          .join('\n'),
      );
      return adapterError('OS_ERROR', operation, `sc.exe ${verb} ${ref.unit} failed with Windows error ${code}${line ? `: ${line}` : ''}`);
    }
  }
}

/** `STATE              : 4  RUNNING` -> running. */
export function parseScQuery(text: string): { state: string; code: number } {
  const match = /^\s*STATE\s*:\s*(\d+)/m.exec(text);
  if (!match) throw adapterError('OS_ERROR', 'service.status', 'sc.exe query printed no STATE line');
  const code = Number(match[1]);
  return { code, state: STATES[code] ?? `state-${code}` };
}

/** `START_TYPE         : 2   AUTO_START  (DELAYED)` -> automatic (delayed), enabled. */
export function parseScStartType(text: string): { word: string; enabled: boolean } | undefined {
  const match = /^\s*START_TYPE\s*:\s*(\d+)([^\r\n]*)/m.exec(text);
  if (!match) return undefined;
  const known = START_TYPES[Number(match[1])];
  if (!known) return undefined;
  return { ...known, word: /DELAYED/i.test(match[2] ?? '') ? `${known.word} (delayed)` : known.word };
}
