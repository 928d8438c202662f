/**
 * The tunnel client's recent output, for the status views: the last lines of stdout and
 * stderr, each cut to a sane length and redacted before it is stored, so neither the runtime
 * key nor the token can reach a window, a log or a state file through it.
 */

export const LOG_TAIL_LINES = 40;
const MAX_LINE_CHARS = 400;

/** Key- and token-shaped strings, whatever the client printed them for. */
const SECRET_SHAPES = [/\bsk-[A-Za-z0-9_-]{8,}/g, /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi];

export function redactLine(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('<redacted>');
  out = out.replace(SECRET_SHAPES[0]!, '<redacted>').replace(SECRET_SHAPES[1]!, '$1<redacted>');
  // One line, no terminal control sequences.
  out = out.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?');
  return out.length > MAX_LINE_CHARS ? `${out.slice(0, MAX_LINE_CHARS - 1)}…` : out;
}

export interface LogLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

export class LogTail {
  private readonly lines: LogLine[] = [];
  private partial: Record<LogLine['stream'], string> = { stdout: '', stderr: '' };

  constructor(
    private readonly secrets: () => readonly string[],
    private readonly onLine: (line: LogLine) => void = () => {},
    private readonly capacity = LOG_TAIL_LINES,
  ) {}

  /** Feeds raw output; complete lines are redacted, kept and passed on. */
  write(stream: LogLine['stream'], chunk: string): void {
    const text = this.partial[stream] + chunk;
    const parts = text.split(/\r?\n/);
    this.partial[stream] = parts.pop() ?? '';
    // A line that never ends must not grow without bound.
    if (this.partial[stream].length > 8 * MAX_LINE_CHARS) {
      parts.push(this.partial[stream]);
      this.partial[stream] = '';
    }
    for (const raw of parts) if (raw.trim()) this.push({ stream, text: raw });
  }

  /** Flushes a last line without a newline (when the child exits). */
  end(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream].trim()) this.push({ stream, text: this.partial[stream] });
      this.partial[stream] = '';
    }
  }

  list(): LogLine[] {
    return this.lines.map((line) => ({ ...line }));
  }

  private push(line: LogLine): void {
    const clean = { stream: line.stream, text: redactLine(line.text, this.secrets()) };
    this.lines.push(clean);
    if (this.lines.length > this.capacity) this.lines.shift();
    this.onLine(clean);
  }
}
