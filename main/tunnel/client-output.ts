/**
 * What the tunnel client's output means for the owner. Its documented startup errors end the
 * process (restarting cannot fix them), and a refused key does not end it at all: the client
 * keeps polling with backoff while its /readyz still says ready, so the supervisor reads the
 * poll failures from its JSON log lines to avoid showing green for a tunnel nobody can use.
 */
import { TRAY_WORDS, type TunnelWords } from './wording.js';

export type OutputSignal = { kind: 'key-refused'; status: number; detail: string } | { kind: 'poll-failed'; detail: string } | { kind: 'poll-ok' } | null;

/** One line of the client's stdout (LOG_FORMAT=json) as a signal, or null. */
export function classifyLine(text: string): OutputSignal {
  if (!text.startsWith('{')) return null;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  if (/^poll(er)? recovered/.test(msg)) return { kind: 'poll-ok' };
  if (!/^poll (failed|timed out)/.test(msg)) return null;
  const status = typeof entry.status_code === 'number' ? entry.status_code : 0;
  const detail = [entry.error_code, entry.error_message, entry.mitigation].filter((v) => typeof v === 'string' && v).join(': ');
  if (status === 401 || status === 403) return { kind: 'key-refused', status, detail };
  return { kind: 'poll-failed', detail: detail || (typeof entry.error === 'string' ? entry.error : msg) };
}

export interface ExitMeaning {
  /** For the owner: what happened and what to do. */
  reason: string;
  /** True when restarting with the same settings cannot help. */
  permanent: boolean;
}

/** The client's documented fatal startup messages, and what the owner should do about each. */
const FATAL: { match: RegExp; reason: (words: TunnelWords) => string }[] = [
  { match: /control plane API key is required/i, reason: (w) => `No runtime key reached the tunnel client: ${w.saveKey}.` },
  {
    match: /control plane API key is malformed/i,
    reason: (w) => `The tunnel client rejected the runtime key as malformed: ${w.saveKey}, exactly as the OpenAI Platform shows it.`,
  },
  { match: /tunnel ID is required/i, reason: (w) => `No tunnel id reached the tunnel client: ${w.setTunnelId}.` },
  { match: /invalid tunnel ID/i, reason: () => 'The tunnel client rejected the tunnel id. It looks like tunnel_ followed by 32 letters or digits.' },
  { match: /MCP server URL is required|main channel is required/i, reason: () => 'The tunnel client got no server URL. This is a bug; please report it.' },
];

export function explainExit(code: number | null, signal: NodeJS.Signals | null, lastStderr: readonly string[], words: TunnelWords = TRAY_WORDS): ExitMeaning {
  const text = lastStderr.join('\n');
  for (const fatal of FATAL) if (fatal.match.test(text)) return { reason: fatal.reason(words), permanent: true };
  const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
  const last = lastStderr.at(-1);
  return { reason: `The tunnel client ${how}${last ? `: ${last}` : ''}.`, permanent: false };
}
