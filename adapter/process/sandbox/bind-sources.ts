/**
 * The places a bubblewrap sandbox mounts from, opened by the server right before the start and
 * handed to bwrap as descriptors (bubblewrap.ts). Each is opened without being read and without
 * following a link at its end (O_PATH | O_NOFOLLOW: a FIFO does not block), and taken only if it
 * is no link and the kernel names what it opened by the plan's path exactly. The plan's paths are
 * real paths, so a folder on the way that was swapped for a link since the plan (by a program the
 * model started earlier) shows as another path: the command is refused, and nothing is mounted
 * from where the link leads. Once open, a descriptor stays the place it named, whatever is
 * renamed afterwards. bwrap still finds where to mount by path: the folders the guard checks the
 * mounts are in (guard-plan.ts) are opened and checked the same way, and handed on after them,
 * with the guard program and its start mark (start-mark.ts) last.
 */
import fs from 'node:fs';
import { descriptorPath, O_PATH } from '../../fs/opened-path.js';
import { adapterError } from '../../contract/errors.js';
import type { HandOn } from './launch.js';
import { openStartMark } from './start-mark.js';

/**
 * Opens what a launch hands on, in its order (`fds`; with the guard: the sources, the folders,
 * the sources again, the guard, its start mark). The caller closes `mounts` (closeMountSources)
 * once the child started, or failed to; the guard's start `mark` (null without a guard) is read
 * once it exited (start-mark.ts).
 */
export function openHandOn(handOn: HandOn): { fds: number[]; mounts: number[]; mark: number | null } {
  const sources = openMountSources(handOn.sources);
  const mounts = [...sources];
  try {
    if (handOn.guard === undefined) return { fds: mounts, mounts, mark: null };
    mounts.push(...openMountSources(handOn.folders, fs.constants.O_DIRECTORY), ...sources);
    mounts.push(fs.openSync(handOn.guard, fs.constants.O_RDONLY));
    const mark = openStartMark();
    return { fds: [...mounts, mark], mounts, mark };
  } catch (error) {
    closeMountSources(mounts);
    throw error;
  }
}

/** Opens `paths` in order (with `flags` besides O_PATH | O_NOFOLLOW); the caller closes them (closeMountSources) once the child started, or failed to. */
export function openMountSources(paths: readonly string[], flags = 0): number[] {
  const fds: number[] = [];
  try {
    for (const place of paths) {
      let fd: number;
      try {
        fd = fs.openSync(place, O_PATH | fs.constants.O_NOFOLLOW | flags);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw changed(place);
        throw adapterError('OS_ERROR', 'runCommand', `the sandbox was not started: ${place} could not be opened (${code ?? 'unknown error'}); nothing ran`);
      }
      fds.push(fd);
      // O_PATH | O_NOFOLLOW opens a link at the end as the link: a mount from it would follow it.
      if (fs.fstatSync(fd).isSymbolicLink() || fs.readlinkSync(descriptorPath(fd)) !== place) throw changed(place);
    }
    return fds;
  } catch (error) {
    closeMountSources(fds);
    throw error;
  }
}

/** Closes each descriptor once (the guard is handed some twice). */
export function closeMountSources(fds: readonly number[]): void {
  for (const fd of new Set(fds)) fs.closeSync(fd);
}

function changed(place: string): Error {
  return adapterError(
    'PRECONDITION_FAILED',
    'runCommand',
    `the sandbox was not started: ${place} was moved, removed or replaced by a link while the command was starting (by another program); nothing ran, and running it again plans the sandbox anew`,
  );
}
