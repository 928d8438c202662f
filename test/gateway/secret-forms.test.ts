import { describe, expect, it } from 'vitest';
import { replaceForms, secretForms } from '../../main/gateway/secret-forms.js';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\n-----END PRIVATE KEY-----\n';
const QUOTED = 'pa"ss\\word\u0001';

describe('secretForms', () => {
  it('finds a secret escaped in JSON, escaped twice, and a multi-line one line by line', () => {
    const forms = secretForms([PEM, QUOTED, 'abc']);
    const answer = JSON.stringify({ text: `key ${PEM} pw ${QUOTED}`, nested: JSON.stringify({ pw: QUOTED, key: PEM }) });
    const clean = replaceForms(answer, forms.json);
    expect(JSON.parse(clean)).toEqual({ text: 'key <redacted> pw <redacted>', nested: '{"pw":"<redacted>","key":"<redacted>"}' });
    // stderr keeps lines: a line of the key alone is still found.
    expect(replaceForms('stderr: MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw', forms.text)).toBe('stderr: <redacted>');
    expect(replaceForms(`bad ${QUOTED}`, forms.text)).toBe('bad <redacted>');
    // Too short to scrub without taking out ordinary words.
    expect(replaceForms('abc', forms.text)).toBe('abc');
  });

  it('finds it as a page or a URL carries it: HTML-escaped, percent-encoded, base64 (red team)', () => {
    const secret = 'sk-Live&Key"9<Zq/+Yw=xx';
    const forms = secretForms([secret]);
    const page = [
      `<input value="sk-Live&amp;Key&quot;9&lt;Zq/+Yw=xx">`,
      `<a href="https://x.example/?k=${encodeURIComponent(secret)}">`,
      `<meta content="${Buffer.from(secret).toString('base64')}">`,
      `<meta content="${Buffer.from(secret).toString('base64url')}">`,
    ].join('\n');
    const clean = replaceForms(page, forms.text);
    expect(clean).not.toMatch(/sk-Live|sk-Live%26|c2stTGl2ZSZLZXki/);
    expect(clean.match(/<redacted>/g)).toHaveLength(4);
    // In a JSON answer too (a resource read's text).
    expect(replaceForms(JSON.stringify({ text: page }), forms.json)).not.toMatch(/sk-Live|c2stTGl2ZSZLZXki/);
  });
});
