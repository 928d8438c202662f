/**
 * The writer: one line per ended tool call, appended to `audit.jsonl` with a single write on an
 * O_APPEND descriptor (lines of several servers sharing the log never interleave), linked into
 * this process's chain (audit-line.ts) and rotated by size. The folder and file are the owner's
 * alone (0700, 0600) and checked as every state file is (owned-state.ts). A write that fails
 * does not fail the call: the owner is told through the log, once per failure streak.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkOwnedDescriptor, OwnedStateError, secureAppFolder } from '../config/owned-state.js';
import type { ToolCallEvent } from '../mcp/server.js';
import { openLine, sealLine } from './audit-line.js';
import { CURRENT_FILE, rotatedFile } from './audit-files.js';
import { redactTarget } from './redacted-target.js';

export interface AuditLogOptions {
  dir: string;
  maxFileBytes: number;
  keepFiles: number;
  /** Values no line may carry (the bearer token, the tunnel key). */
  secrets: readonly string[];
  /** Told once when writing starts failing (and again after it recovered and fails anew). */
  onError?: (message: string) => void;
  now?: () => Date;
}

/** How much of the file's end is read at open to find its last line (lines are far shorter). */
const TAIL_BYTES = 64 * 1024;
const WHAT = 'the audit log';
const ROTATION_LOCK = 'rotating.lock';
const STALE_LOCK_MS = 10_000;
const REMEDY = 'move it away (the server starts a new one)';
/**
 * How often a writer looks whether the current file is still the one it holds (another server
 * rotated it, or the owner moved it). A rotation is also seen at once through the size: the
 * rotated file was full, so the next line's size check rotates, which finds the new file.
 */
const FOLLOW_EVERY_MS = 1000;

export class AuditLog {
  private fd: number;
  private ino: number;
  private size: number;
  private seq = 0;
  private prev: string | null;
  private failing = false;
  private followedAt = 0;
  private readonly chain = randomBytes(4).toString('hex');
  private readonly file: string;
  private readonly now: () => Date;

  constructor(private readonly options: AuditLogOptions) {
    this.file = path.join(options.dir, CURRENT_FILE);
    this.now = options.now ?? (() => new Date());
    fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    // The folder is ours alone before anything in it is trusted or written.
    secureAppFolder(options.dir);
    ({ fd: this.fd, ino: this.ino, size: this.size } = openCurrent(this.file));
    this.prev = lastHash(this.fd, this.size);
  }

  /** The observer's end events become lines; start events are not recorded (a call is one line). */
  readonly record = (event: ToolCallEvent): void => {
    if (event.phase !== 'end') return;
    try {
      if (Date.now() - this.followedAt >= FOLLOW_EVERY_MS) this.follow();
      const { line, hash } = sealLine({
        v: 1,
        chain: this.chain,
        seq: this.seq + 1,
        time: new Date(this.now().getTime() - event.durationMs).toISOString(),
        client: event.caller ?? { kind: 'host', name: null },
        ...(event.profile ? { profile: event.profile } : {}),
        tool: event.exposed ?? event.tool,
        args: redactTarget(event.target, this.options.secrets),
        outcome: event.outcome,
        ms: event.durationMs,
        prev: this.prev,
      });
      const bytes = Buffer.from(`${line}\n`);
      fs.writeSync(this.fd, bytes);
      this.seq++;
      this.prev = hash;
      this.size = fs.fstatSync(this.fd).size;
      if (this.size >= this.options.maxFileBytes) this.rotate();
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.options.onError?.(`cannot write the audit log ${this.file}: ${describe(error)}; calls go unrecorded until it can`);
      this.failing = true;
    }
  };

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
  }

  /** Another server sharing the log rotated it: continue in the new current file. */
  private follow(): void {
    this.followedAt = Date.now();
    let ino: number | null;
    try {
      ino = fs.lstatSync(this.file).ino;
    } catch {
      ino = null;
    }
    if (ino === this.ino) return;
    this.reopen();
  }

  /**
   * Several servers fill the same file and see it full at once: one rotates, under a lock, and
   * only the file it writes (another may have rotated it already); the others follow it.
   */
  private rotate(): void {
    const { dir, keepFiles } = this.options;
    const lock = path.join(dir, ROTATION_LOCK);
    if (!takeLock(lock)) return;
    try {
      if (fs.lstatSync(this.file).ino === this.ino) {
        fs.rmSync(rotatedFile(dir, keepFiles), { force: true });
        for (let n = keepFiles - 1; n >= 1; n--) renameIfThere(rotatedFile(dir, n), rotatedFile(dir, n + 1));
        fs.renameSync(this.file, rotatedFile(dir, 1));
      }
    } finally {
      fs.rmdirSync(lock);
    }
    this.reopen();
  }

  private reopen(): void {
    const next = openCurrent(this.file);
    this.close();
    ({ fd: this.fd, ino: this.ino, size: this.size } = next);
  }
}

function openCurrent(file: string): { fd: number; ino: number; size: number } {
  const flags = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);
  let fd: number;
  try {
    fd = fs.openSync(file, flags, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new OwnedStateError(`${WHAT} ${file} is a symbolic link; the server only trusts files it wrote: ${REMEDY}`);
    throw new OwnedStateError(`cannot open ${WHAT} ${file} (${code ?? 'error'})`);
  }
  try {
    const stat = checkOwnedDescriptor(fd, file, WHAT, true, REMEDY);
    return { fd, ino: stat.ino, size: stat.size };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The hash of the file's last sealed line: a new chain links to it. */
function lastHash(fd: number, size: number): string | null {
  if (size === 0) return null;
  const length = Math.min(size, TAIL_BYTES);
  const buffer = Buffer.alloc(length);
  fs.readSync(fd, buffer, 0, length, size - length);
  const lines = buffer.toString('utf8').split('\n').filter(Boolean);
  const last = lines.at(-1);
  const opened = last === undefined ? null : openLine(last);
  return opened?.ok ? opened.record.hash : null;
}

/** mkdir is atomic: the one that makes it rotates. A lock older than STALE_LOCK_MS was left by a server that died rotating. */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.mkdirSync(lock, { mode: 0o700 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age < STALE_LOCK_MS) return false;
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return false;
}

function renameIfThere(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
