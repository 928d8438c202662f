import { describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { sandboxNeeded } from '../../main/policy/sandbox-clients.js';

const config = (input: Parameters<typeof configSchema.parse>[0]) => configSchema.parse(input);

describe('sandboxNeeded', () => {
  it('is off when nothing runs programs', () => expect(sandboxNeeded(config({}))).toBe(false));
  it.each([
    ['commands', { shell: { enabled: true } }],
    ['git reads', { git: { read: true } }],
    ['git writes', { git: { write: true } }],
    ['git push', { git: { push: ['o/r'] } }],
    ['git pull', { git: { pull: ['o/r'] } }],
    ['checks', { checks: { projects: [{ path: '/p', checks: { test: ['npm', 'test'] } }] } }],
  ])('is on for %s, whatever shell.enabled says', (_name, input) => {
    expect(sandboxNeeded(config(input))).toBe(true);
  });
});
