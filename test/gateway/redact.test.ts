import { describe, expect, it } from 'vitest';
import { redactLine } from '../../main/gateway/redact.js';

describe('redactLine', () => {
  it('takes credentials out of what an upstream wrote to stderr, and leaves the rest', () => {
    expect(redactLine('error: token=abc123 bad')).toBe('error: token=<redacted> bad');
    expect(redactLine('API_KEY: "s3cr3t value"')).toBe('API_KEY: <redacted>');
    expect(redactLine('using ghp_abcdefghijklmnopqrstuvwxyz0123456789 now')).toBe('using <redacted> now');
    expect(redactLine('GET https://me:pw@example.com/x failed')).toBe('GET https://<redacted>@example.com/x failed');
    expect(redactLine('Authorization: Bearer abcdefghijklmnop')).not.toContain('abcdefghijklmnop');
    expect(redactLine('ENOENT: no such file /data/x.txt')).toBe('ENOENT: no such file /data/x.txt');
  });

  it('also cookies, header-like keys given after a space, and a token written as a URL user', () => {
    expect(redactLine('sent cookie: sid=s3cr3tvalue; path=/')).toBe('sent cookie: <redacted> path=/');
    expect(redactLine('header x-api-key k3yvalue refused')).toBe('header x-api-key <redacted> refused');
    expect(redactLine('GET https://ghp_short@github.com/o/r')).toBe('GET https://<redacted>@github.com/o/r');
  });
});
