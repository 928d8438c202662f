/** What system.environment may show: a short list of harmless names, none of them secret-looking. */
import { describe, expect, it } from 'vitest';
import { isSecretName } from '../../main/policy/argv-redaction.js';
import { ENVIRONMENT_VALUES, mayShowValue } from '../../main/policy/inventory.js';

describe('environment values', () => {
  it('lists no secret-looking name', () => {
    expect(ENVIRONMENT_VALUES.filter(isSecretName)).toEqual([]);
    expect(ENVIRONMENT_VALUES).toEqual(expect.arrayContaining(['PATH', 'HOME', 'SHELL', 'LANG', 'TERM', 'USER']));
  });

  it('shows a value only for a listed name', () => {
    expect(mayShowValue('HOME')).toBe(true);
    for (const name of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'home', 'SSH_AUTH_SOCK', 'LD_PRELOAD']) expect(mayShowValue(name)).toBe(false);
  });
});
