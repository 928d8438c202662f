/**
 * How the server tells that bwrap set a sandbox up: a nameless file, handed to the guard, which
 * writes one byte to it first thing (native/sandbox-guard.c, --started). bwrap fails before
 * the guard runs when a place it mounts was moved or removed while it mounted (it then exits 1
 * with its own line on stderr), and the command never ran; its output cannot say so by itself,
 * since a command can print the same line and exit 1 too. A file, not a pipe: Node makes none
 * that can be handed on, and the guard's one write cannot block.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adapterError } from '../../contract/errors.js';

/** Linux's __O_TMPFILE (the same on x86 and Arm); with O_DIRECTORY it is O_TMPFILE, which Node does not export. */
const O_TMPFILE = 0o20000000 | fs.constants.O_DIRECTORY;

/** Opens a nameless empty file in the server's temp folder, for reading back its size; the caller closes it (startMarked). */
export function openStartMark(dir = os.tmpdir()): number {
  try {
    return fs.openSync(dir, O_TMPFILE | fs.constants.O_RDWR, 0o600);
  } catch {
    // A filesystem without O_TMPFILE: a named one, removed at once.
    try {
      const named = path.join(dir, `.chatgpt-mcp-start-${crypto.randomBytes(6).toString('hex')}`);
      const fd = fs.openSync(named, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
      fs.unlinkSync(named);
      return fd;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw adapterError(
        'OS_ERROR',
        'runCommand',
        `the sandbox was not started: no file could be made in ${dir} to learn that it was set up (${code}); nothing ran`,
      );
    }
  }
}

/** Whether the guard wrote its byte (bwrap set the sandbox up); closes the file. */
export function startMarked(fd: number): boolean {
  try {
    return fs.fstatSync(fd).size > 0;
  } finally {
    fs.closeSync(fd);
  }
}
