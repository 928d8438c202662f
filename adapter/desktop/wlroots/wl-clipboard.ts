/**
 * The clipboard of a Wayland compositor through wl-clipboard's wl-copy and wl-paste: the
 * data-control protocol on wlroots and KDE; on GNOME, which has none, wl-clipboard maps a
 * small surface for a moment to get the keyboard focus the core protocol needs. Being a
 * clipboard source means receiving a file descriptor per paste, which our own Wayland
 * connection, read through Node, cannot. wl-copy stays behind to serve
 * what it copied, as a clipboard owner must; wl-paste's output is read up to a hard cap.
 */
import { spawn } from 'node:child_process';
import { adapterError } from '../../contract/errors.js';
import type { ClipboardContent, ClipboardReadOptions, ClipboardWrite } from '../../contract/desktop.js';
import { clipboardImage, clipboardText, EMPTY_CLIPBOARD } from '../clipboard-content.js';
import { compositorEnvironment, findSystemProgram } from './system-program.js';

const TIMEOUT_MS = 5000;
/** What one read takes at most from wl-paste, whatever maxBytes is: the whole size is known up to here. */
const HARD_CAP_BYTES = 16 * 1024 * 1024;
const TEXT_TYPES = ['text/plain;charset=utf-8', 'UTF8_STRING', 'text/plain', 'STRING', 'TEXT'];

function program(name: string, operation: string): string {
  const found = findSystemProgram(name);
  if (!found) throw adapterError('PRECONDITION_FAILED', operation, `the clipboard on Wayland needs ${name} (apt-get install wl-clipboard)`);
  return found;
}

/** Runs a helper: its stdout (at most HARD_CAP_BYTES, `cut` when more), and its exit code. */
function run(
  file: string,
  args: string[],
  env: Readonly<Record<string, string | undefined>>,
  input: Buffer | undefined,
  readOutput: boolean,
): Promise<{ code: number | null; stdout: Buffer; cut: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    // wl-copy forks a server that keeps what it inherits open: give it nothing to wait on
    const child = spawn(file, args, { env: compositorEnvironment(env), stdio: [input ? 'pipe' : 'ignore', readOutput ? 'pipe' : 'ignore', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let cut = false;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (size + chunk.length > HARD_CAP_BYTES) {
        cut = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-500)));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks), cut, stderr: stderr.trim() });
    });
    child.stdin?.end(input);
  });
}

/** A helper's failure in words: what it said, or that it hung (on GNOME: the compositor did not give it the focus). */
function failed(what: string, result: { code: number | null; stderr: string }, operation: string): Error {
  const why =
    result.code === null
      ? `it did not finish within ${TIMEOUT_MS / 1000} s (on GNOME the compositor may not have given its surface the keyboard focus)`
      : result.stderr || `exit ${result.code}`;
  return adapterError('OS_ERROR', operation, `${what}: ${why}`);
}

export async function wlClipboardRead(env: NodeJS.ProcessEnv, options: ClipboardReadOptions, operation: string): Promise<ClipboardContent> {
  const paste = program('wl-paste', operation);
  const listed = await run(paste, ['--list-types'], env, undefined, true);
  // an empty clipboard is exit 1 with "Nothing is copied"; anything else is a failure to say
  if (listed.code !== 0 && !/nothing is copied|no selection/i.test(listed.stderr)) throw failed('wl-paste could not read the clipboard', listed, operation);
  const formats = listed.code === 0 ? listed.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  const text = TEXT_TYPES.find((t) => formats.includes(t));
  const image = formats.includes('image/png') ? 'image/png' : undefined;
  const type = options.prefer === 'image' ? (image ?? text) : (text ?? image);
  if (!type) return EMPTY_CLIPBOARD(formats);
  const read = await run(paste, ['--no-newline', '--type', type], env, undefined, true);
  if (read.code !== 0 && !read.cut) throw failed('wl-paste could not read the clipboard', read, operation);
  if (type === image) {
    if (read.cut) throw adapterError('OUTPUT_LIMIT', operation, `the clipboard holds a PNG image larger than ${HARD_CAP_BYTES} bytes`);
    return clipboardImage(read.stdout, options.maxBytes, formats, operation);
  }
  const content = clipboardText(read.stdout.toString('utf8'), options.maxBytes, formats);
  return read.cut ? { ...content, truncated: true } : content;
}

export async function wlClipboardWrite(env: NodeJS.ProcessEnv, content: ClipboardWrite, operation: string): Promise<void> {
  const copy = program('wl-copy', operation);
  const [type, bytes] = 'text' in content ? ['text/plain;charset=utf-8', Buffer.from(content.text, 'utf8')] : ['image/png', content.image];
  const result = await run(copy, ['--type', type], env, bytes, false);
  if (result.code !== 0) throw failed('wl-copy could not set the clipboard', result, operation);
}
