/**
 * Opens a URL in the OS default browser, never through a shell:
 *
 * - Linux and BSD: `xdg-open <url>` (xdg-utils), looked up on PATH, which picks the desktop's
 *   default browser. It can block until the browser exits when it starts the browser itself, so
 *   it is not awaited to the end (see below).
 * - macOS: `/usr/bin/open <url>`.
 * - Windows: `%SystemRoot%\System32\rundll32.exe url.dll,FileProtocolHandler <url>`, which hands
 *   the URL to ShellExecute's registered http(s) handler. No cmd.exe is involved, so `&`, `|`,
 *   `^` and `%` mean nothing. Rejected alternatives: `cmd /c start "" <url>` is parsed by cmd.exe
 *   (`&` ends the command); `explorer.exe <url>` applies explorer's own comma-separated switch
 *   parsing to the URL and always exits 1, so failures are invisible; PowerShell `Start-Process`
 *   parses its own command language and takes ~0.5 s to start. rundll32 passes the rest of its
 *   command line verbatim, so the URL must not be quoted by Node: the caller's normalized URL has
 *   no spaces or quotes, and this module refuses one that does.
 *
 * The URL must already have passed the URL policy (http/https, normalized); this module still
 * refuses anything else so it is safe on its own.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { adapterError } from '../contract/errors.js';
import { system32 } from '../os/system-root.js';
import { shortEnvironment } from '../process/child-env.js';

const OP = 'browser.open';
/** How long an opener may take to report failure before the call counts as done. */
export const OPENER_GRACE_MS = 1500;

const XDG_OPEN_EXIT: Record<number, string> = {
  1: 'xdg-open rejected its arguments',
  2: 'xdg-open reported the URL as not found',
  3: 'xdg-open found no browser or desktop tool to open it with',
  4: 'the browser failed to open it',
};

export interface Opener {
  file: string;
  args: string[];
}

export function openerFor(url: string, platform: NodeJS.Platform = process.platform): Opener {
  if (platform === 'darwin') return { file: '/usr/bin/open', args: [url] };
  if (platform === 'win32') {
    return { file: system32('rundll32.exe'), args: ['url.dll,FileProtocolHandler', url] };
  }
  return { file: 'xdg-open', args: [url] };
}

export async function openUrl(url: string): Promise<void> {
  if (!/^https?:\/\/[^\s"]+$/i.test(url)) {
    throw adapterError('INVALID_INPUT', OP, 'only normalized http:// and https:// URLs without spaces or quotes can be opened');
  }
  const opener = openerFor(url);
  const name = path.basename(opener.file);
  const child = spawn(opener.file, opener.args, { detached: true, stdio: 'ignore', shell: false, windowsHide: true, env: shortEnvironment(process.env) });

  const outcome = await new Promise<{ exit: number | null } | { error: NodeJS.ErrnoException } | 'running'>((resolve) => {
    const timer = setTimeout(() => resolve('running'), OPENER_GRACE_MS);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ error });
    });
    child.once('exit', (exit) => {
      clearTimeout(timer);
      resolve({ exit });
    });
  });
  child.unref();

  if (outcome === 'running') return; // the opener is now the browser, or is waiting on it
  if ('error' in outcome) {
    if (outcome.error.code === 'ENOENT') {
      const hint = name === 'xdg-open' ? ' (install xdg-utils, or open the URL another way)' : '';
      throw adapterError('OS_ERROR', OP, `${name} is not available on this computer${hint}`);
    }
    throw adapterError('OS_ERROR', OP, `${name} could not be started (${outcome.error.code ?? outcome.error.name})`);
  }
  if (outcome.exit !== 0) {
    const meaning = name === 'xdg-open' && outcome.exit !== null ? XDG_OPEN_EXIT[outcome.exit] : undefined;
    throw adapterError('OS_ERROR', OP, `${name} could not open the URL (exit code ${outcome.exit ?? 'none'}${meaning ? `: ${meaning}` : ''})`);
  }
}
