/**
 * Runs one OS management tool (systemctl, launchctl, sc.exe, ps, powershell, taskkill) without a
 * shell and collects its output. A non-zero exit is a result for the caller to interpret; failing
 * to start it or running out of time is an adapter error. (shell.exec has its own bounded runner
 * in adapter/process/run-command.ts; these tools are short, trusted and parsed.)
 */
import { execFile } from 'node:child_process';
import { adapterError } from '../contract/errors.js';
import { helperEnvironment } from '../process/child-env.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  operation: string;
  timeoutMs: number;
  maxBytes?: number;
}

export function runOsTool(file: string, args: readonly string[], { operation, timeoutMs, maxBytes = 4 * 1024 * 1024 }: RunOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      // C locale: the tools' output is parsed, and their messages quoted in errors.
      {
        shell: false,
        timeout: timeoutMs,
        maxBuffer: maxBytes,
        windowsHide: true,
        encoding: 'utf8',
        env: helperEnvironment(),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const e = error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean; signal?: string | null };
        if (e.code === 'ENOENT') return reject(adapterError('OS_ERROR', operation, `${file} is not installed on this computer (or not on PATH)`));
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return reject(adapterError('OUTPUT_LIMIT', operation, `${file} printed more than ${maxBytes} bytes`));
        if (e.killed && e.signal) return reject(adapterError('TIMEOUT', operation, `${file} did not finish within ${timeoutMs} ms`));
        if (typeof e.code === 'number') return resolve({ code: e.code, stdout, stderr });
        reject(adapterError('OS_ERROR', operation, `${file} could not run (${e.code ?? e.signal ?? 'unknown error'})`));
      },
    );
  });
}

/** The first meaningful line of a tool's error output, short enough for a tool error. */
export function firstLine(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
