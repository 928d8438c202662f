/**
 * The redacted view of what a call targeted, shared by the activity view and the audit log:
 * keys that could carry file contents, command output, environment or credentials are dropped,
 * only primitive values are kept, long values are cut in the middle, invisible formatting
 * characters are replaced, and any known secret is replaced, whatever a tool's own `target()`
 * returned.
 */
const MAX_VALUE_CHARS = 80;
const MAX_SUMMARY_CHARS = 160;
const MAX_FIELDS = 12;
const SENSITIVE_KEY = /content|text|data|body|env|token|secret|password|passwd|auth|cookie|key|credential|output|stdout|stderr|stdin/i;

export type RedactedTarget = Record<string, string | number | boolean>;

export function redactTarget(target: Record<string, unknown>, secrets: readonly string[] = []): RedactedTarget {
  const kept: RedactedTarget = {};
  let fields = 0;
  for (const [key, value] of Object.entries(target)) {
    if (SENSITIVE_KEY.test(key) || fields >= MAX_FIELDS) continue;
    const shown = showValue(value, secrets);
    if (shown === null) continue;
    kept[cut(key)] = shown;
    fields++;
  }
  return kept;
}

/** `path=/x/y` style summary of the safe, primitive target fields. */
export function summarizeTarget(target: Record<string, unknown>, secrets: readonly string[] = []): string {
  const summary = targetText(redactTarget(target, secrets));
  return summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary;
}

/** A redacted target in words: `path=/x/y mode=create`. */
export function targetText(target: Readonly<RedactedTarget>): string {
  return Object.entries(target)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' ');
}

function showValue(value: unknown, secrets: readonly string[]): string | number | boolean | null {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return scrub(value, secrets);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return scrub(value.join(' '), secrets);
  return null;
}

/** Secrets go before the cut: a cut secret would no longer match. */
function scrub(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret) clean = clean.split(secret).join('<redacted>');
  return cut(clean);
}

/**
 * One line, no bidi or other invisible formatting characters (they can make a path read as
 * another), and long values cut in the middle so both the start and the end stay visible.
 */
export function cut(text: string): string {
  const clean = text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '?');
  if (clean.length <= MAX_VALUE_CHARS) return clean;
  const half = Math.floor((MAX_VALUE_CHARS - 1) / 2);
  return `${clean.slice(0, half)}…${clean.slice(clean.length - half)}`;
}
