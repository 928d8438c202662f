/**
 * `chatgpt-mcp undo list | show ID | apply ID`: the owner's undo without the tray. It reads the
 * same journal a running server records into (the app's data folder) and puts changes back
 * through the policies the saved config makes, as the tray does.
 */
import { isComputerAdapterError } from '../../adapter/contract/errors.js';
import { undonePartly, type GroupDetail, type GroupSummary } from '../../adapter/contract/journal.js';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { CliOverrides } from '../config/load.js';
import { protectedPaths, stateDir } from '../host/places.js';
import { silentLogger } from '../log.js';
import { createServerFactory } from '../mcp/server.js';
import { SandboxUnavailableError } from '../policy/sandbox.js';
import { describeOutcome, openJournal, UndoService } from '../undo/undo-service.js';
import { EXIT, print, say, usageError, visible, withConfig } from './io.js';

export function undoCommand(sub: string | undefined, args: string[], cli: CliOverrides): number | Promise<number> {
  if (sub === 'list' && args.length === 0) return run(cli, async (undo) => print(formatList(await undo.list())));
  if ((sub === 'show' || sub === 'apply') && args.length === 1) {
    const id = args[0]!;
    return run(cli, async (undo) => {
      if (sub === 'show') return print(formatDetail(await undo.show(id)));
      const outcome = await undo.apply(id);
      const lines = describeOutcome(outcome, visible);
      const retry = outcome.skipped.filter((s) => s.retry).length;
      say(undonePartly(outcome) ? `undid part of ${id}; the rest is left as it is` : `undid ${id}`);
      if (retry) say(`${retry} path(s) failed and were left as they were: once what is said is fixed, "undo apply ${id}" tries them again`);
      return print(lines.join('\n') || 'nothing to put back');
    });
  }
  return usageError('expected "undo list", "undo show ID" or "undo apply ID"');
}

function run(cli: CliOverrides, use: (undo: UndoService) => Promise<number>): number | Promise<number> {
  return withConfig(cli, async ({ config, path: configPath }) => {
    const adapter = createLocalAdapter();
    try {
      // The policies a server with this config would have; built only when something is put back.
      const policies = async () =>
        createServerFactory({ config, adapter, logger: silentLogger, protectedFiles: protectedPaths(configPath), tools: [] }).policies;
      return await use(new UndoService(openJournal(stateDir(), config), policies, adapter));
    } catch (error) {
      if (!isComputerAdapterError(error) && !(error instanceof SandboxUnavailableError)) throw error;
      say(visible(error.message));
      return EXIT.config;
    } finally {
      await adapter.close();
    }
  });
}

/** What `undo list` prints. Paths, diffs and client names are shown with their control characters escaped (`visible`). */
export function formatList({ groups, dropped }: Awaited<ReturnType<UndoService['list']>>): string {
  const lines = groups.length ? groups.map(summaryLine) : ['No recorded changes.'];
  if (dropped.length > 0)
    lines.push(`${dropped.length} older group(s) were dropped to stay within undo.maxBytes (the latest: ${dropped[0]!.id}, ${dropped[0]!.files} paths)`);
  lines.push('Commands (shell.exec, process.start) can change anything and are not recorded.');
  return lines.join('\n');
}

function summaryLine(g: GroupSummary): string {
  const what = [
    `${g.files} path${g.files === 1 ? '' : 's'}`,
    ...(g.repositories ? [`${g.repositories} repositor${g.repositories === 1 ? 'y' : 'ies'}`] : []),
  ].join(', ');
  const notKept = g.notKept ? `, ${g.notKept} not restorable` : '';
  return `${g.id}  ${g.startedAt} - ${g.lastAt}  by ${visible(g.client)}: ${what}${notKept} (${visible(g.tools.join(', '))}) [${g.state}]`;
}

/** What `undo show` prints. */
export function formatDetail(group: GroupDetail): string {
  const lines = [summaryLine(group)];
  for (const c of group.changes) {
    lines.push(
      `${c.change} ${visible(c.path)}${c.mode ? `, mode ${visible(c.mode.before)} -> ${visible(c.mode.after)}` : ''} (was ${c.was === 'nothing' ? 'not there' : `a ${c.was}`}${c.kept ? '' : `; not restorable: ${visible(c.why ?? '')}`})`,
    );
    for (const inside of c.partly ?? []) lines.push(`    not put back with it: ${visible(inside)}`);
    if (c.changedSince && !group.undo) lines.push('    changed since the model changed it: undo leaves it as it is');
    if (c.diff) lines.push(visible(c.diff, true).replace(/^/gm, '    '));
  }
  for (const r of group.repositoryChanges) {
    const head = (s: typeof r.before) => `${s.headRef?.replace(/^refs\/heads\//, '') ?? 'detached'} at ${s.commit?.slice(0, 12) ?? 'no commit'}`;
    lines.push(
      `repository ${visible(r.path)} (${r.tools.join(', ')}): ${visible(head(r.before))} -> ${visible(head(r.after))}${r.before.index !== r.after.index ? ', index changed' : ''}`,
    );
  }
  if (group.undo)
    lines.push(
      `undone ${group.undo.appliedAt}${group.undo.retriedAt ? ` (tried again ${group.undo.retriedAt})` : ''}:`,
      ...describeOutcome(group.undo, visible).map((l) => `  ${l}`),
    );
  return lines.join('\n');
}
