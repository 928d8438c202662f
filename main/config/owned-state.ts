/**
 * The server trusts only state it could have written itself: its app folder and the files in it
 * (the token, OAuth clients, the tunnel key) must belong to the user it runs as, and no other
 * user may write them. Another user who can write the folder could otherwise plant an approved
 * OAuth client or a token of their choosing. A folder of ours that others can write is repaired
 * (the group and others lose write access) with a warning; anything owned by another user, or a
 * file others could have written, is refused with what to do. POSIX only: Windows keeps these in
 * the user's profile, whose ACLs are the user's.
 */
import fs from 'node:fs';

export class OwnedStateError extends Error {
  override readonly name = 'OwnedStateError';
}

const GROUP_OR_OTHERS_WRITE = 0o022;
const GROUP_OR_OTHERS_ANY = 0o077;

function ownUid(): number | null {
  return process.platform !== 'win32' && typeof process.getuid === 'function' ? process.getuid() : null;
}

/**
 * Checks the app folder before the server reads anything in it: refuses one another user owns,
 * and takes write access away from the group and others on one of ours. Returns the warnings to
 * log (what was repaired); a missing folder is fine (the server creates it owner-only).
 */
export function secureAppFolder(dir: string, { repair = true }: { repair?: boolean } = {}): string[] {
  const uid = ownUid();
  if (uid === null) return [];
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new OwnedStateError(`cannot check the app folder ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new OwnedStateError(`the app folder ${dir} is not a plain folder; move it away and start again (the server creates a new one)`);
  }
  if (stat.uid !== uid) {
    throw new OwnedStateError(
      `the app folder ${dir} belongs to another user (uid ${stat.uid}); its token and OAuth clients cannot be trusted: move it away and start again`,
    );
  }
  if ((stat.mode & GROUP_OR_OTHERS_WRITE) === 0) return [];
  const mode = (stat.mode & 0o777).toString(8);
  if (!repair) return [`the app folder ${dir} can be written by other users (mode ${mode}); the server takes that away when it starts`];
  fs.chmodSync(dir, stat.mode & 0o7755);
  return [`the app folder ${dir} could be written by other users (mode ${mode}); they no longer can. The server refuses any file in it that is not yours`];
}

/**
 * Reads a state file the server wrote: opened without following a final link, then checked on
 * the descriptor (so a swap between the check and the read changes nothing). Null when it does
 * not exist. `secret`: others may not even read it (a token).
 */
export function readOwnedFile(file: string, what: string, secret: boolean, remedy = 'delete it'): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new OwnedStateError(`${what} ${file} is a symbolic link; the server only trusts files it wrote: ${remedy}`);
    throw new OwnedStateError(`cannot read ${what} ${file} (${code ?? 'error'})`);
  }
  try {
    checkOwnedDescriptor(fd, file, what, secret, remedy);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The checks on an open state file (a descriptor, so a swap after opening changes nothing): a
 * regular file of ours that no other user may write (`secret`: nor read). Returns its stat.
 */
export function checkOwnedDescriptor(fd: number, file: string, what: string, secret: boolean, remedy = 'delete it'): fs.Stats {
  const stat = fs.fstatSync(fd);
  if (stat.isDirectory()) throw new OwnedStateError(`cannot read ${what} ${file} (EISDIR)`);
  if (!stat.isFile()) throw new OwnedStateError(`${what} ${file} is not a regular file: ${remedy}`);
  const uid = ownUid();
  if (uid !== null) {
    if (stat.uid !== uid) throw new OwnedStateError(`${what} ${file} belongs to another user (uid ${stat.uid}), so it is not trusted: ${remedy}`);
    const forbidden = secret ? GROUP_OR_OTHERS_ANY : GROUP_OR_OTHERS_WRITE;
    if ((stat.mode & forbidden) !== 0) {
      throw new OwnedStateError(
        `${what} ${file} can be ${secret ? 'read or written' : 'written'} by other users (mode ${(stat.mode & 0o777).toString(8)}), so it is not trusted: ${remedy}`,
      );
    }
  }
  return stat;
}
