/**
 * launchd through `launchctl`: `print <domain>/<label>` for status, `print-disabled <domain>` for
 * whether a job is enabled, `kickstart` (start), `kickstart -k` (restart) and `kill SIGTERM`
 * (stop). System jobs live in `system/`, user agents (`user:` names) in `gui/<uid>/`. Stopping a
 * KeepAlive job only lasts until launchd restarts it; disabling it is out of scope.
 */
import { adapterError } from '../contract/errors.js';
import type { ServiceAction, ServiceStatus } from '../contract/services.js';
import { firstLine, runOsTool } from './os-tool.js';
import type { ServiceRef } from './service-name.js';

const LAUNCHCTL = '/bin/launchctl';
const TIMEOUT_MS = 30_000;
/** launchctl's exit status for "Could not find service ... in domain". */
const NOT_FOUND_EXIT = 113;

export function launchdDomain(ref: ServiceRef, uid: number | undefined = process.getuid?.()): string {
  return ref.scope === 'user' ? `gui/${uid ?? 0}` : 'system';
}

export async function launchdStatus(ref: ServiceRef, operation = 'service.status'): Promise<ServiceStatus> {
  const domain = launchdDomain(ref);
  const printed = await runOsTool(LAUNCHCTL, ['print', `${domain}/${ref.unit}`], { operation, timeoutMs: TIMEOUT_MS });
  if (printed.code !== 0) throw launchctlError(ref, 'print', printed, operation);
  const status = interpretLaunchctlPrint(printed.stdout, ref, operation);
  const disabled = await runOsTool(LAUNCHCTL, ['print-disabled', domain], { operation, timeoutMs: TIMEOUT_MS });
  const enabled = disabled.code === 0 ? parsePrintDisabled(disabled.stdout).get(ref.unit) : undefined;
  return enabled === undefined ? status : { ...status, enabled };
}

export async function launchdControl(ref: ServiceRef, action: ServiceAction, operation = 'service.control'): Promise<ServiceStatus> {
  const target = `${launchdDomain(ref)}/${ref.unit}`;
  const args = action === 'start' ? ['kickstart', target] : action === 'restart' ? ['kickstart', '-k', target] : ['kill', 'SIGTERM', target];
  const result = await runOsTool(LAUNCHCTL, args, { operation, timeoutMs: TIMEOUT_MS });
  if (result.code !== 0) throw launchctlError(ref, action, result, operation);
  return launchdStatus(ref, operation);
}

/** The `key = value` lines directly inside the service's block (nested `{ ... }` blocks skipped). */
export function parseLaunchctlPrint(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let depth = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '}' || line === '};') {
      depth--;
      continue;
    }
    const match = /^([^=]+?) = (.*)$/.exec(line);
    if (line.endsWith('{')) {
      depth++;
      continue;
    }
    if (depth === 1 && match) out[match[1]!] = match[2]!;
  }
  return out;
}

export function interpretLaunchctlPrint(text: string, ref: ServiceRef, operation: string): ServiceStatus {
  const fields = parseLaunchctlPrint(text);
  if (!fields.state) throw adapterError('OS_ERROR', operation, `launchctl print did not report a state for ${ref.unit}`);
  const detail = [fields.pid ? `pid ${fields.pid}` : '', fields['last exit code'] ? `last exit code ${fields['last exit code']}` : '']
    .filter(Boolean)
    .join(', ');
  return { manager: 'launchd', state: fields.state, ...(detail ? { detail } : {}) };
}

/**
 * `launchctl print-disabled <domain>` lines: `"label" => disabled|enabled` (macOS 11+) or
 * `"label" => true|false` (older, where true means disabled). Returns label -> enabled.
 */
export function parsePrintDisabled(text: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*"([^"]+)"\s*=>\s*(disabled|enabled|true|false)\s*$/.exec(line);
    if (match) out.set(match[1]!, match[2] === 'enabled' || match[2] === 'false');
  }
  return out;
}

function launchctlError(ref: ServiceRef, verb: string, result: { code: number; stdout: string; stderr: string }, operation: string): Error {
  const message = firstLine(result.stderr || result.stdout);
  if (result.code === NOT_FOUND_EXIT || /Could not find service/i.test(message)) {
    return adapterError('NOT_FOUND', operation, `launchd has no ${ref.scope === 'user' ? 'user agent' : 'system job'} labelled ${ref.unit}`);
  }
  if (/Operation not permitted|Not privileged|permission/i.test(message)) {
    return adapterError('OS_ERROR', operation, `not permitted to ${verb} ${ref.unit}: system jobs need the server to run as root`);
  }
  return adapterError('OS_ERROR', operation, `launchctl ${verb} ${ref.unit} failed (exit ${result.code})${message ? `: ${message}` : ''}`);
}
