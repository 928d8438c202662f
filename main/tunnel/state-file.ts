/**
 * `<app config dir>/tunnel-state.json`: what a running `chatgpt-mcp tunnel start` last knew, so
 * `chatgpt-mcp tunnel status` in another shell can report it. No secrets: the status is
 * already redacted, and the file holds no key, token or header value.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import type { TunnelStatus } from './status.js';

export const STATE_FILE_NAME = 'tunnel-state.json';

export interface TunnelStateRecord {
  /** The supervising process (`chatgpt-mcp tunnel start`). */
  supervisorPid: number;
  serverUrl: string;
  status: Omit<TunnelStatus, 'log'>;
  updatedAt: string;
}

export function stateFilePath(appDir: string): string {
  return path.join(appDir, STATE_FILE_NAME);
}

export async function writeTunnelState(appDir: string, record: TunnelStateRecord): Promise<void> {
  await writeFileAtomic(stateFilePath(appDir), JSON.stringify(record, null, 2) + '\n');
}

/** The record, or null when there is none or its supervisor is gone (a stale file is removed). */
export function readTunnelState(appDir: string): TunnelStateRecord | null {
  let record: TunnelStateRecord;
  try {
    record = JSON.parse(fs.readFileSync(stateFilePath(appDir), 'utf8')) as TunnelStateRecord;
  } catch {
    return null;
  }
  if (!Number.isInteger(record.supervisorPid) || !processAlive(record.supervisorPid)) {
    fs.rmSync(stateFilePath(appDir), { force: true });
    return null;
  }
  return record;
}

export function removeTunnelState(appDir: string): void {
  fs.rmSync(stateFilePath(appDir), { force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
