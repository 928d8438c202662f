/**
 * Windows PowerShell as the adapter runs it: the script as -EncodedCommand (no quoting of a
 * command line can break it), and, for work asked for again and again (the window tools), one
 * long-lived PowerShell that answers each request line with one line. Starting PowerShell and
 * compiling a script's C# costs a second or more; a session pays it once. Requests go one at a
 * time; one that takes too long ends the process, and the next request starts a new one.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { adapterError } from '../contract/errors.js';
import { helperEnvironment } from '../process/child-env.js';
import { windowsPowerShell } from './system-root.js';

/** -EncodedCommand takes the script as base64 of its UTF-16LE text. */
export function encodedCommand(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}

/**
 * Before every script: Windows PowerShell writes errors and progress to a redirected stderr as
 * CLIXML when the command came encoded, so an error is written as its plain message instead
 * (the innermost one: a .NET call's failure is wrapped in "Exception calling ..."), and no
 * progress at all. And ConvertTo-AsciiJson: what PowerShell prints goes out in the console's
 * code page (437 on an English Windows), where a name in another script becomes "?"; JSON with
 * every non-ASCII character escaped (\uXXXX, a surrogate pair as two) reads back whole.
 */
const PREAMBLE = String.raw`$ProgressPreference = 'SilentlyContinue'
trap { $e = $_.Exception; while ($e.InnerException) { $e = $e.InnerException }; [Console]::Error.WriteLine($e.Message); exit 1 }
function ConvertTo-AsciiJson($value, $depth = 4) { [regex]::Replace((ConvertTo-Json -InputObject $value -Depth $depth -Compress), '[^\x00-\x7F]', { param($m) '\u{0:x4}' -f [int][char]$m.Value }) }
`;

/** PowerShell's arguments to run `script` without the owner's profile, prompts or execution policy. */
export function powershellArgs(script: string): string[] {
  return ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encodedCommand(PREAMBLE + script)];
}

/** What PowerShell said on stderr, in plain lines: any CLIXML it still wrote is left out. */
export function plainLines(stderr: string): string[] {
  return stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#< CLIXML') && !line.startsWith('<'));
}

/**
 * One run of `script` (flags such as -STA before it), `input` on its stdin, `vars` (its request)
 * added to the short helper environment (never the server's own, which may hold its token): its
 * stdout, or an OS_ERROR naming `what` with the first line PowerShell wrote to stderr.
 */
export function runPowerShell(
  script: string,
  options: { flags?: string[]; input?: string; vars?: Record<string, string>; timeoutMs: number },
  operation: string,
  what: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      windowsPowerShell(),
      [...(options.flags ?? []), ...powershellArgs(script)],
      { timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024, windowsHide: true, env: { ...helperEnvironment(), ...options.vars } },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const said = (plainLines(stderr)[0] ?? error.message).slice(0, 200);
        reject(adapterError('OS_ERROR', operation, `${what} failed: ${said}`));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}

export interface SessionProgram {
  command: string;
  args: string[];
}

interface Pending {
  line: string;
  operation: string;
  resolve: (answer: string) => void;
  reject: (error: Error) => void;
}

const MAX_STDERR = 400;

export class PowerShellSession {
  private child: ChildProcess | undefined;
  private partial = '';
  private stderr = '';
  private readonly queue: Pending[] = [];
  private current: (Pending & { timer: NodeJS.Timeout }) | undefined;

  /**
   * `what` names the work in errors ("listing windows"); `program` is PowerShell with `script`
   * unless a test gives a stand-in. The first request waits for the start (and the compile).
   */
  constructor(
    private readonly what: string,
    private readonly program: SessionProgram,
    private readonly timeoutMs: number,
  ) {}

  static forScript(what: string, script: string, timeoutMs: number): PowerShellSession {
    return new PowerShellSession(what, { command: windowsPowerShell(), args: powershellArgs(script) }, timeoutMs);
  }

  /** Sends one line (no newline in it) and resolves with the answer line. */
  request(line: string, operation: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line, operation, resolve, reject });
      this.next();
    });
  }

  close(): void {
    this.child?.kill();
    this.child = undefined;
  }

  private next(): void {
    if (this.current) return;
    const pending = this.queue.shift();
    if (!pending) return;
    const child = this.child ?? this.start();
    const timer = setTimeout(() => this.fail(child, `it did not answer within ${this.timeoutMs / 1000} s`), this.timeoutMs);
    this.current = { ...pending, timer };
    child.stdin?.write(`${pending.line}\n`);
  }

  private start(): ChildProcess {
    const child = spawn(this.program.command, this.program.args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, env: helperEnvironment() });
    this.child = child;
    this.partial = '';
    this.stderr = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split(/\r?\n/);
      this.partial = lines.pop() ?? '';
      for (const line of lines) this.answer(line);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-MAX_STDERR);
    });
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => this.fail(child, `it could not start (${error.message})`));
    child.on('close', () => this.fail(child, 'it ended'));
    // A session never keeps the process alive on its own.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
    return child;
  }

  private answer(line: string): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    current.resolve(line);
    this.next();
  }

  /** The process is no use any more: the request in flight fails, the next one starts a new process. */
  private fail(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    child.kill();
    const current = this.current;
    this.current = undefined;
    if (current) {
      clearTimeout(current.timer);
      const said = plainLines(this.stderr).pop()?.slice(0, 200);
      current.reject(adapterError('OS_ERROR', current.operation, `${this.what} failed: PowerShell ${why}${said ? `: ${said}` : ''}`));
    }
    this.next();
  }
}
