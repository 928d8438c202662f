/**
 * The built tray app running in a child process under the stand-in electron
 * (fixtures/fake-electron), seen through the reports the stand-in sends over the child-process
 * channel (tray images, tooltips, menus, windows, IPC results); the test clicks menu items and
 * sends IPC as the settings window would.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

export const REGISTER = path.join(import.meta.dirname, '..', 'fixtures', 'fake-electron', 'register.mjs');

export interface Report {
  type: string;
  [key: string]: unknown;
}

export class AppProcess {
  readonly reports: Report[] = [];
  private waiters: { test: (r: Report) => boolean; resolve: (r: Report) => void }[] = [];
  private nextInvoke = 1;
  readonly exited: Promise<number | null>;
  stderr = '';

  constructor(readonly child: ChildProcess) {
    child.on('message', (message: Report) => {
      this.reports.push(message);
      this.waiters = this.waiters.filter((w) => (w.test(message) ? (w.resolve(message), false) : true));
    });
    child.stderr?.on('data', (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Resolves with the first report (already seen from `since`, or future) that matches. */
  next(test: (r: Report) => boolean, since = 0, timeoutMs = 20_000): Promise<Report> {
    const seen = this.reports.slice(since).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for a report; last reports: ${JSON.stringify(this.reports.slice(-4))}\nstderr:\n${this.stderr}`)),
        timeoutMs,
      );
      this.waiters.push({ test, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  /** Clicks a tray menu item; returns the report count before it, for `next(..., since)`. */
  click(label: string): number {
    const mark = this.reports.length;
    this.child.send({ type: 'click', label });
    return mark;
  }

  /** An IPC call as the window sends it (optionally from another sender or URL); the raw result report. */
  async invoke(channel: string, args: unknown[] = [], as: { senderId?: number; url?: string } = {}): Promise<Report> {
    const id = this.nextInvoke++;
    this.child.send({ type: 'invoke', id, channel, args, ...as });
    return this.next((r) => r.type === 'invoke-result' && r.id === id);
  }
}
