/**
 * A hold on a folder or file that says where it is now, however it was renamed since (for
 * PolicyPort.holdPlace): the sandbox's remembered repositories (main/policy/remembered-repos.ts)
 * follow a folder a program the model started moves away and back, which a path alone would lose
 * for the plan made in between. On Linux an O_PATH descriptor (nothing read, no link followed, a
 * FIFO not waited on), which the kernel names by its present path in /proc/self/fd; elsewhere none.
 */
import fs from 'node:fs';
import { descriptorPath, O_PATH } from './opened-path.js';
import type { PlaceHold } from '../contract/policy-port.js';

export function holdPlace(path: string, platform: NodeJS.Platform): PlaceHold | null {
  if (platform !== 'linux') return null;
  let fd: number;
  try {
    fd = fs.openSync(path, O_PATH | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  let open = true;
  const hold: PlaceHold = {
    where() {
      if (!open) return null;
      try {
        // Removed: no link left to it (the kernel's name then ends in " (deleted)").
        if (fs.fstatSync(fd).nlink === 0) return null;
        return fs.readlinkSync(descriptorPath(fd));
      } catch {
        return null;
      }
    },
    release() {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
  // What was at `path` when opened, even if it was moved since: that is what is followed.
  return hold;
}
