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
});
