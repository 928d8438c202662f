/** Diagnostics: levels, JSON lines, and the secrets in use scrubbed from every field. */
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED_SECRET, scrubbingLogger } from '../main/log.js';

const TOKEN = 'tok-0123456789abcdef+/=';

function capture(level: Parameters<typeof createLogger>[0] = 'debug') {
  const lines: string[] = [];
  return { lines, logger: createLogger(level, (line) => void lines.push(line)) };
}

describe('scrubbingLogger', () => {
  it('replaces the token in the message and in every field, nested, also URL-encoded', () => {
    const { lines, logger } = capture();
    const log = scrubbingLogger(logger, [TOKEN]);
    log.info(`tool call ${TOKEN}`, {
      path: `/home/me/${TOKEN}/notes.txt`,
      nested: { list: [`x${TOKEN}y`, 3, null], [TOKEN]: true },
      url: `/mcp?t=${encodeURIComponent(TOKEN)}`,
      count: 2,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(TOKEN);
    expect(lines[0]).not.toContain(encodeURIComponent(TOKEN));
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({
      msg: `tool call ${REDACTED_SECRET}`,
      path: `/home/me/${REDACTED_SECRET}/notes.txt`,
      nested: { list: [`x${REDACTED_SECRET}y`, 3, null], [REDACTED_SECRET]: true },
      url: `/mcp?t=${REDACTED_SECRET}`,
      count: 2,
    });
  });

  it('keeps levels, and is the logger itself when there is no secret', () => {
    const { lines, logger } = capture('warn');
    const log = scrubbingLogger(logger, [TOKEN]);
    log.info('hidden', { path: TOKEN });
    log.warn('shown', { path: TOKEN });
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
    expect(log.enabled('info')).toBe(false);
    expect(scrubbingLogger(logger, ['', ''])).toBe(logger);
  });
});
