/**
 * The tray remembers the contract fingerprint of the last server it started (in the app folder,
 * owner-only), so the owner hears when an upgrade or a grant change altered the tools a model
 * sees. Electron-free.
 */
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { readOwnedFile } from '../config/owned-state.js';
import { contractChanges, type ContractFingerprint } from '../mcp/contract-fingerprint.js';
import type { Logger } from '../log.js';

export const CONTRACT_FILE = 'contract.json';

export interface ContractChange {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Compares with the last start's fingerprint and records this one; null when nothing changed or there was none before. */
export async function recordContract(appDir: string, current: ContractFingerprint): Promise<ContractChange | null> {
  const file = path.join(appDir, CONTRACT_FILE);
  let before: ContractFingerprint | null = null;
  try {
    const text = readOwnedFile(file, 'the contract record', false);
    before = text ? (JSON.parse(text) as ContractFingerprint) : null;
  } catch {
    // a damaged or foreign record is replaced below
  }
  if (before?.sha256 !== current.sha256) await writeFileAtomic(file, JSON.stringify(current) + '\n');
  if (!before || typeof before.tools !== 'object' || before.sha256 === current.sha256) return null;
  return contractChanges(before, current);
}

/** The change in a sentence, for the log and the window. */
export function describeContractChange(change: ContractChange): string {
  const parts = [
    change.added.length ? `added ${change.added.join(', ')}` : '',
    change.removed.length ? `removed ${change.removed.join(', ')}` : '',
    change.changed.length ? `changed ${change.changed.join(', ')}` : '',
  ].filter(Boolean);
  return `The tools a model sees changed since the last start: ${parts.join('; ') || 'their order or details'}.`;
}

/** Records this start's fingerprint; what the status shows of it (the change said once in the log too). */
export async function noteContract(appDir: string, current: ContractFingerprint, log: Logger): Promise<{ sha256: string; change: string | null }> {
  const change = await recordContract(appDir, current).catch(() => null);
  const said = change ? describeContractChange(change) : null;
  if (said) log.info(said);
  return { sha256: current.sha256, change: said };
}
