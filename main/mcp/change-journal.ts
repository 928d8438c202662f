/**
 * What the tool host records for the owner's undo (undo.*). The file tools' changes (fs.write,
 * fs.edit, fs.patch, fs.move, fs.delete, fs.mkdir) are recorded through the path lock they
 * already hold around each change: its exclusive claims are exactly the paths they change, so
 * the pre-images are taken after the policy resolved them and under the same lock. fs.write's
 * and fs.edit's writer hands each existing file over just before it changes it
 * (ChangeRecorder.beforeChange), so a file it replaces is kept by a hard link rather than a copy. The git
 * write tools say what they change (ChangeRecorder.repository). Commands (shell.exec) can change
 * anything and are not recorded.
 *
 * One group per client while its calls come within undo.groupIdleMs of each other; a group takes
 * no more calls once the owner's undo of it began (the next call starts another; what a call
 * already under way then records, the journal carries on to a group of its own:
 * adapter/fs/journal/late-records.ts).
 */
import nodePath from 'node:path';
import type { ExistingFile } from '../../adapter/contract/files.js';
import type { GitOps, RepositoryState } from '../../adapter/contract/git.js';
import type { CaptureDepth, ChangeJournal } from '../../adapter/contract/journal.js';
import type { Config } from '../config/schema.js';
import type { PathClaim, PathLock } from '../policy/path-lock.js';
import type { BeforeChange, ChangeRecorder, RepositoryChange } from './change-recorder.js';
import type { ToolDeps } from './tool.js';

/** The file tools recorded, and how much of a folder they can take away (a delete or a move: all of it). */
const FILE_TOOLS: Readonly<Record<string, CaptureDepth>> = Object.freeze({
  'fs.write': 'shallow',
  'fs.edit': 'shallow',
  'fs.patch': 'shallow',
  'fs.mkdir': 'shallow',
  'fs.download': 'shallow',
  'fs.move': 'tree',
  'fs.delete': 'tree',
});

/** The file tools whose writer calls ChangeRecorder.beforeChange for every existing file before changing it. */
const HANDS_OVER: ReadonlySet<string> = new Set(['fs.write', 'fs.edit']);

/** The git tools that change a repository or the files in it. */
const GIT_TOOLS: ReadonlySet<string> = new Set([
  'git.add',
  'git.unstage',
  'git.commit',
  'git.branch_create',
  'git.switch',
  'git.restore',
  'git.pull',
  'git.clone',
  'git.commit_verified',
]);

export class ChangeRecording {
  private readonly groups = new Map<string, { id: Promise<string>; last: number }>();

  constructor(
    private readonly journal: ChangeJournal,
    private readonly config: Readonly<Config['undo']>,
    private readonly git: Pick<GitOps, 'state'>,
    /** Told when the journal fails; the change goes ahead (unrecorded) all the same. */
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The deps a call runs with: recording ones for the tools that change files or repositories. */
  depsFor(tool: string, client: string | null, deps: ToolDeps): ToolDeps {
    const depth = FILE_TOOLS[tool];
    if (depth === undefined && !GIT_TOOLS.has(tool)) return deps;
    // A protected file's bytes never go into the journal (a delete of the folder holding it is refused, after its pre-image).
    const recorder = this.recorder(tool, client ?? 'local', (path) => deps.policy.filesystem.protects(path, 'read'));
    if (depth === undefined) return { ...deps, changes: recorder };
    const fsLock = recordingLock(deps.policy.fsLock, (paths, work) => recorder.files(paths, work, depth));
    return { ...deps, changes: recorder, policy: { ...deps.policy, fsLock } };
  }

  private recorder(
    tool: string,
    client: string,
    secret: (path: string) => boolean,
  ): ChangeRecorder & { files<T>(paths: readonly string[], work: () => Promise<T>, depth?: CaptureDepth): Promise<T> } {
    const handover = HANDS_OVER.has(tool);
    const written = new Map<string, string>();
    let id: Promise<string> | undefined;
    const group = () => (id ??= this.group(client));
    const safely = async (record: (id: string) => Promise<void>) => {
      try {
        await record(await group());
      } catch (error) {
        this.onError(error);
      }
    };
    const files = async <T>(paths: readonly string[], work: () => Promise<T>, depth: CaptureDepth = 'tree'): Promise<T> => {
      await safely((g) => this.journal.before(g, tool, { paths, depth, secret, ...(handover ? { handover } : {}) }));
      try {
        return await work();
      } finally {
        await safely((g) => this.journal.after(g, tool, paths, written));
      }
    };
    const repository = async <T>(repo: Parameters<ChangeRecorder['repository']>[0], change: RepositoryChange, work: (before: BeforeChange) => Promise<T>) => {
      // Read once more when a read fails (a sandbox stopped because the owner's git replaced a cover): without it, the change goes unrecorded.
      const state = (refs: readonly string[]) =>
        this.git
          .state(repo.run, refs)
          .catch(() => this.git.state(repo.run, refs))
          .then(withBranch)
          .catch((error: unknown) => (this.onError(error), null));
      const before = await state(change.refs ?? []);
      const noted = new Set<string>();
      const note: BeforeChange = async (relative) => {
        const paths = relative.map((p) => nodePath.posix.join(repo.topLevel, p)).filter((p) => !noted.has(p));
        for (const p of paths) noted.add(p);
        if (paths.length > 0) await safely((g) => this.journal.before(g, tool, { paths, depth: 'shallow' }));
      };
      await note(change.paths ?? []);
      try {
        return await work(note);
      } finally {
        // A call refused before it noted anything (a hook found, a bad path) opens no group.
        if (noted.size > 0 || id !== undefined) await safely((g) => this.journal.after(g, tool, [...noted]));
        // The branch HEAD named before too: a commit on it, then a switch, moved it though HEAD now names another.
        const after = await state([...(change.refs ?? []), ...(before?.headRef ? [before.headRef] : [])]);
        if (before && after && moved(before, after)) await safely((g) => this.journal.repository(g, tool, repo.topLevel, before, after));
      }
    };
    const beforeChange = (target: string) => (entry: string, file: ExistingFile, replacing: boolean) =>
      safely((g) => this.journal.handOver(g, tool, target, entry, file, replacing));
    const wrote = (path: string, sha256: string) => void written.set(path, sha256);
    return { files, repository, wrote, ...(handover ? { beforeChange } : {}) };
  }

  /** The client's open group, or a new one once it idled past undo.groupIdleMs, its undo began or it is full. */
  private group(client: string): Promise<string> {
    const now = this.now();
    const current = this.groups.get(client);
    const open = current && now - current.last < this.config.groupIdleMs;
    if (current && open) {
      current.last = now;
      // Of the calls that find it closed (a burst in parallel), the first starts the next group and the others join it.
      return current.id.then((id) => (this.journal.isOpen(id) ? id : this.groups.get(client) === current ? this.start(client, now) : this.group(client)));
    }
    return this.start(client, now);
  }

  private start(client: string, now: number): Promise<string> {
    const id = this.journal.open(client);
    this.groups.set(client, { id, last: now });
    // A group that could not be made is not kept: the next call tries again.
    id.catch(() => this.groups.delete(client));
    return id;
  }
}

/** The same lock, recording each exclusive claim's path around the work. */
function recordingLock(lock: PathLock, record: <T>(paths: readonly string[], work: () => Promise<T>) => Promise<T>): PathLock {
  return Object.assign(Object.create(lock) as PathLock, {
    run<T>(claims: readonly PathClaim[], work: () => Promise<T>): Promise<T> {
      const changed = claims.filter((c) => c.exclusive).map((c) => c.path);
      return lock.run(claims, () => (changed.length ? record(changed, work) : work()));
    },
  });
}

/** The state with the branch HEAD names among its refs, so that each branch a group moved is put back on its own. */
function withBranch(state: RepositoryState): RepositoryState {
  return state.headRef ? { ...state, refs: { ...state.refs, [state.headRef]: state.commit } } : state;
}

function moved(a: RepositoryState, b: RepositoryState): boolean {
  return a.headRef !== b.headRef || a.commit !== b.commit || a.index !== b.index || JSON.stringify(a.refs ?? {}) !== JSON.stringify(b.refs ?? {});
}
