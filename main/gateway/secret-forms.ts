/**
 * The forms a resolved secret can take in what an upstream says, to scrub them all: the value
 * itself in plain text, the value as it shows inside a JSON string (a `"`, `\`, newline or
 * control character escaped: a PEM key, a JSON credential), and inside a JSON string that is
 * itself JSON-encoded text in another (a tool answering `JSON.stringify(env)` as its text). A
 * secret of several lines is also looked for line by line, as stderr is kept and an error's first
 * line quoted. Each also as a page or a URL carries it: HTML-escaped, percent-encoded, and the
 * base64 of its whole 3-byte groups (how it starts an encoded text).
 */

/** Shorter values are not scrubbed: they would take out ordinary words. */
const MIN_CHARS = 4;
/** A line of a multi-line secret looked for alone (a PEM body line, not a blank or `}`). */
const MIN_LINE_CHARS = 16;

const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

export interface SecretForms {
  /** What to look for in plain text (stderr, an error's message). */
  text: string[];
  /** What to look for in JSON text (JSON.stringify of an answer). */
  json: string[];
}

export function secretForms(secrets: Iterable<string>): SecretForms {
  const text = new Set<string>();
  const json = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_CHARS) continue;
    const lines = secret.split(/\r?\n/).filter((line) => line.trim().length >= MIN_LINE_CHARS && line !== secret);
    for (const value of [secret, ...lines]) {
      // As written, and as a page or a URL carries it (an HTML attribute, a query value, base64).
      for (const form of [value, htmlEscaped(value), encodeURIComponent(value), ...base64Forms(value)]) {
        text.add(form);
        text.add(escaped(form));
        json.add(escaped(form));
        json.add(escaped(escaped(form)));
      }
    }
  }
  // Longest first: a whole value is taken out before a line of it, so no part is left behind.
  const order = (set: Set<string>) => [...set].sort((a, b) => b.length - a.length);
  return { text: order(text), json: order(json) };
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function htmlEscaped(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

/** The value's base64 and base64url, without padding: as it shows whole at the start of an encoded text. */
function base64Forms(text: string): string[] {
  const bytes = Buffer.from(text);
  // Its last 1-2 characters depend on what follows it: only the whole groups of 3 bytes are sure.
  const sure = bytes.subarray(0, bytes.length - (bytes.length % 3));
  if (sure.length < MIN_CHARS) return [];
  return [sure.toString('base64'), sure.toString('base64url')];
}

export function replaceForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join('<redacted>');
  return out;
}
