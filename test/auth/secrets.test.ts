import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSecret, newSecret, newUserCode, normalizeUserCode, pkceMatches } from '../../main/auth/secrets.js';

describe('secrets', () => {
  it('makes distinct prefixed 256-bit values and hashes them one way', () => {
    const a = newSecret('access');
    expect(a).toMatch(/^cmcp_at_[A-Za-z0-9_-]{43}$/);
    expect(newSecret('access')).not.toBe(a);
    expect(hashSecret(a)).not.toContain(a.slice(8));
    expect(hashSecret(a)).toBe(hashSecret(a));
  });
  it('checks PKCE S256 only, with a well-formed verifier', () => {
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches(verifier + 'x', challenge)).toBe(false);
    expect(pkceMatches(verifier, verifier)).toBe(false);
    expect(pkceMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
  });
  it('user codes read well and are typed in any form', () => {
    const code = newUserCode();
    expect(code).toMatch(/^[B-Z2-9]{4}-[B-Z2-9]{4}$/);
    expect(normalizeUserCode(code.toLowerCase().replace('-', ' '))).toBe(code);
    expect(normalizeUserCode('AAAA-AAAA')).toBeNull();
    expect(normalizeUserCode('BCD')).toBeNull();
  });
});
