import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../main/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every level and leaves undefined members out', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: undefined, x: null }], c: 'é' } })).toBe('{"a":{"c":"é","d":[2,{"x":null,"z":1}]},"b":1}');
  });

  it('gives the same text whatever the key order', () => {
    expect(canonicalJson({ x: 1, y: { q: 2, p: 3 } })).toBe(canonicalJson({ y: { p: 3, q: 2 }, x: 1 }));
  });

  it('writes null for what JSON cannot say', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined])).toBe('[null]');
  });
});
