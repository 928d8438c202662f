/**
 * "Undo what the model changed", for the owner: the change groups the journal holds, what each
 * changed (files and diffs), and putting them back. Undo goes through the owner's policies as
 * they are now: a path the filesystem rules refuse today is skipped, a repository the git policy
 * refuses (a setting that names a program, active hooks) keeps its refs. The tray's activity view
 * and `chatgpt-mcp undo` both use this.
 */
import path from 'node:path';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { ChangeJournal, DroppedGroup, GroupDetail, GroupSummary, UndoOutcome } from '../../adapter/contract/journal.js';
import { LocalJournal } from '../../adapter/fs/journal/local-journal.js';
import type { Config } from '../config/schema.js';
import type { Policies } from '../mcp/tool.js';

export function journalDir(appDir: string): string {
  return path.join(appDir, 'journal');
}

/** `onError`: told of what the journal failed to record in the background (the server's log). */
export function openJournal(appDir: string, config: Readonly<Pick<Config, 'undo'>>, onError?: (error: Error) => void): ChangeJournal {
  return new LocalJournal({ dir: journalDir(appDir), maxBytes: config.undo.maxBytes, ...(onError ? { onError } : {}) });
}

export class UndoService {
  constructor(
    private readonly journal: ChangeJournal,
    /** The policies undo answers to (the running server's, or built from the saved config). */
    private readonly policies: () => Promise<Pick<Policies, 'filesystem' | 'git'>>,
    private readonly adapter: Pick<ComputerAdapter, 'git'>,
  ) {}

  list(): Promise<{ groups: GroupSummary[]; dropped: DroppedGroup[] }> {
    return this.journal.list();
  }

  show(id: string): Promise<GroupDetail> {
    return this.journal.show(id);
  }

  async apply(id: string): Promise<UndoOutcome> {
    const policies = await this.policies();
    return this.journal.apply(id, {
      resolve: (target) => policies.filesystem.resolveEntry(target, 'write', 'undo'),
      repository: async (topLevel, before, after) => {
        const repo = await policies.git.open({ path: topLevel, use: 'write', operation: 'undo' });
        return this.adapter.git.restoreState(repo.run, before, after);
      },
    });
  }
}

/** An undo's outcome in lines, for the CLI. `show`: how a path or a reason (which may hold anything a file name can) is written. */
export function describeOutcome(outcome: UndoOutcome, show: (text: string) => string = (text) => text): string[] {
  const lines = outcome.restored.map((p) => {
    const notes = (outcome.notes ?? []).filter((n) => n.path === p).map((n) => show(n.why));
    return notes.length ? `restored ${show(p)}, but ${notes.join('; ')}` : `restored ${show(p)}`;
  });
  for (const c of outcome.conflicts) lines.push(`left ${show(c.path)}: ${show(c.why)}`);
  for (const s of outcome.skipped) lines.push(`not restored ${show(s.path)}: ${show(s.why)}${s.retry ? ' (left as it was: undo it again to retry)' : ''}`);
  for (const r of outcome.repositories)
    lines.push(r.left.length ? `repository ${show(r.path)}: left ${show(r.left.join(', '))}` : `repository ${show(r.path)}: refs and index restored`);
  return lines;
}
