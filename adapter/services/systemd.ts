/**
 * systemd through `systemctl` (system units, or the user manager for `user:` names). Status is
 * `systemctl show --property=...` (stable key=value output meant for programs); control is
 * `systemctl start|stop|restart`, which waits for the job, with --no-ask-password so a missing
 * polkit grant fails instead of hanging on a prompt.
 */
import { existsSync, readFileSync } from 'node:fs';
import { adapterError } from '../contract/errors.js';
import type { ServiceAction, ServiceStatus } from '../contract/services.js';
import { firstLine, runOsTool } from './os-tool.js';
import type { ServiceRef } from './service-name.js';

const PROPERTIES = ['LoadState', 'ActiveState', 'SubState', 'UnitFileState'];
const STATUS_TIMEOUT_MS = 15_000;
const CONTROL_TIMEOUT_MS = 120_000;

/** sd_booted(): systemd is PID 1 exactly when this directory exists. */
export function systemdRunning(): boolean {
  return existsSync('/run/systemd/system');
}

function requireSystemd(operation: string): void {
  if (systemdRunning()) return;
  let init = '';
  try {
    init = readFileSync('/proc/1/comm', 'utf8').trim();
  } catch {
    // unreadable: leave it out of the message
  }
  throw adapterError(
    'OS_ERROR',
    operation,
    `systemd is not running on this machine${init ? ` (PID 1 is ${init})` : ''}, so services cannot be queried or controlled here`,
  );
}

function scopeArgs(ref: ServiceRef): string[] {
  return ref.scope === 'user' ? ['--user'] : ['--system'];
}

export async function systemdStatus(ref: ServiceRef, operation = 'service.status'): Promise<ServiceStatus> {
  requireSystemd(operation);
  const result = await runOsTool('systemctl', [...scopeArgs(ref), 'show', `--property=${PROPERTIES.join(',')}`, '--', ref.unit], {
    operation,
    timeoutMs: STATUS_TIMEOUT_MS,
  });
  if (result.code !== 0) throw systemctlError(ref, 'show', result.stderr, operation);
  return interpretSystemdShow(parseKeyValues(result.stdout), ref, operation);
}

export async function systemdControl(ref: ServiceRef, action: ServiceAction, operation = 'service.control'): Promise<ServiceStatus> {
  requireSystemd(operation);
  const result = await runOsTool('systemctl', [...scopeArgs(ref), '--no-ask-password', action, '--', ref.unit], { operation, timeoutMs: CONTROL_TIMEOUT_MS });
  if (result.code !== 0) throw systemctlError(ref, action, result.stderr, operation);
  return systemdStatus(ref, operation);
}

/** Parses `Key=Value` lines (values may contain `=`). */
export function parseKeyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

const ENABLED = new Set(['enabled', 'enabled-runtime', 'alias', 'linked', 'linked-runtime']);
const DISABLED = new Set(['disabled', 'masked', 'masked-runtime']);

export function interpretSystemdShow(props: Record<string, string>, ref: ServiceRef, operation: string): ServiceStatus {
  const load = props.LoadState ?? '';
  if (load === 'not-found') throw adapterError('NOT_FOUND', operation, `systemd has no ${ref.scope} unit named ${ref.unit}`);
  if (!props.ActiveState) throw adapterError('OS_ERROR', operation, `systemctl show returned no ActiveState for ${ref.unit}`);
  const fileState = props.UnitFileState ?? '';
  const enabled = ENABLED.has(fileState) ? true : DISABLED.has(fileState) ? false : undefined;
  const detail = [props.SubState, load !== 'loaded' && load ? `load state ${load}` : '', fileState ? `unit file ${fileState}` : ''].filter(Boolean).join(', ');
  return { manager: 'systemd', state: props.ActiveState, ...(enabled === undefined ? {} : { enabled }), ...(detail ? { detail } : {}) };
}

export function systemctlError(ref: ServiceRef, verb: string, stderr: string, operation: string): Error {
  const message = firstLine(stderr);
  if (/not (be )?found|not loaded|No such file/i.test(message))
    return adapterError('NOT_FOUND', operation, `systemd has no ${ref.scope} unit named ${ref.unit}`);
  if (/Access denied|Interactive authentication required|permission/i.test(message)) {
    return adapterError('OS_ERROR', operation, `not permitted to ${verb} ${ref.unit}: the server's user needs root or a polkit rule for it`);
  }
  if (/Failed to connect to bus|No medium found|\$DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR/i.test(message)) {
    return adapterError(
      'OS_ERROR',
      operation,
      ref.scope === 'user'
        ? 'the systemd user manager is not reachable (the server runs outside a user session with a session bus)'
        : 'systemd is not reachable over D-Bus on this machine',
    );
  }
  return adapterError('OS_ERROR', operation, `systemctl ${verb} ${ref.unit} failed${message ? `: ${message}` : ''}`);
}
