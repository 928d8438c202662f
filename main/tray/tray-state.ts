/**
 * What the tray shows for a server status: which icon and which tooltip, plus the activity
 * pulse that lights the icon while a tool call runs and keeps it lit briefly after, so even a
 * one-millisecond call is visible.
 */
import { tunnelStatusLine, type TunnelState, type TunnelStatus } from '../tunnel/status.js';
import type { ServerStatus } from './bridge-api.js';

export const TRAY_ICONS = ['running', 'busy', 'paused', 'stopped', 'error', 'chatgpt-starting', 'chatgpt-ready', 'chatgpt-degraded', 'chatgpt-error'] as const;
export type TrayIconName = (typeof TRAY_ICONS)[number];

/**
 * With ChatGPT connected (or connecting), the icon shows the tunnel's state while the server
 * runs: indigo starting, green ready, amber degraded, red error. A failed server stays red.
 */
export function trayIconWithTunnel(status: ServerStatus, busy: boolean, tunnel: TunnelState | null): TrayIconName {
  if (!tunnel || tunnel === 'stopped' || status.state !== 'running') return trayIconFor(status, busy);
  if (busy && tunnel === 'ready') return 'busy';
  return `chatgpt-${tunnel}`;
}

export const APP_TITLE = 'ChatGPT Computer MCP';

export function trayIconFor(status: ServerStatus, busy: boolean): TrayIconName {
  switch (status.state) {
    case 'running':
      return busy ? 'busy' : 'running';
    case 'paused':
      return 'paused';
    case 'error':
      return 'error';
    case 'starting':
    case 'stopped':
      return 'stopped';
  }
}

export function statusLine(status: ServerStatus): string {
  switch (status.state) {
    case 'running':
      return `Running at ${status.url}`;
    case 'paused':
      return 'Paused: not listening';
    case 'starting':
      return 'Starting…';
    case 'stopped':
      return 'Stopped';
    case 'error':
      return `Not running: ${firstLine(status.message)}`;
  }
}

export function trayTooltip(status: ServerStatus, tunnel?: Pick<TunnelStatus, 'state' | 'reason'> | null): string {
  const lines = [APP_TITLE, statusLine(status)];
  if (tunnel) lines.push(`ChatGPT: ${tunnelStatusLine(tunnel)}`);
  return lines.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? text;
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

export interface PulseTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: PulseTimers = {
  setTimeout: (run, ms) => {
    const handle = setTimeout(run, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Busy while at least one call runs, and for `holdMs` after the last one ends. `onChange`
 * fires only on transitions, so the tray image is not replaced on every call.
 */
export class ActivityPulse {
  private active = 0;
  private holding: unknown = null;
  private shown = false;

  constructor(
    private readonly onChange: (busy: boolean) => void,
    private readonly holdMs = 600,
    private readonly timers: PulseTimers = realTimers,
  ) {}

  get busy(): boolean {
    return this.shown;
  }

  started(): void {
    this.active += 1;
    this.cancelHold();
    this.show(true);
  }

  ended(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active > 0) return;
    this.cancelHold();
    this.holding = this.timers.setTimeout(() => {
      this.holding = null;
      if (this.active === 0) this.show(false);
    }, this.holdMs);
  }

  reset(): void {
    this.active = 0;
    this.cancelHold();
    this.show(false);
  }

  private cancelHold(): void {
    if (this.holding !== null) this.timers.clearTimeout(this.holding);
    this.holding = null;
  }

  private show(busy: boolean): void {
    if (this.shown === busy) return;
    this.shown = busy;
    this.onChange(busy);
  }
}
