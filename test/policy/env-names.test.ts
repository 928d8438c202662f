/** The owner's shell.allowedEnv names are validated at config load with these lists. */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { builtInEnvRule, codeRunningReason } from '../../main/policy/env-names.js';
import { CODE_RUNNING_NAMES, MERELY_UNLISTED } from '../helpers/env-attacks.js';

const ownerMayNotList = CODE_RUNNING_NAMES.filter((name) => !MERELY_UNLISTED.includes(name));

describe('codeRunningReason', () => {
  it.each(ownerMayNotList)('%s cannot be allowed by the owner', (name) => {
    expect(codeRunningReason(name, { allowPathEnv: true })).toMatch(/cannot be allowed|configures this server/);
    expect(codeRunningReason(name.toLowerCase(), { allowPathEnv: true })).not.toBeNull();
  });

  it.each(['MY_APP_MODE', 'NODE_ENV', 'CI', 'RUST_BACKTRACE', 'DEBUG', 'AWS_REGION', 'PYTHONUNBUFFERED', 'LANG'])('%s may be listed', (name) => {
    expect(codeRunningReason(name, { allowPathEnv: false })).toBeNull();
  });

  it('PATH only with shell.allowPathEnv, and plain names only', () => {
    expect(codeRunningReason('PATH', { allowPathEnv: false })).toMatch(/shell\.allowPathEnv/);
    expect(codeRunningReason('PATH', { allowPathEnv: true })).toBeNull();
    expect(codeRunningReason('A-B', { allowPathEnv: false })).toMatch(/not a plain variable name/);
  });

  it('built-in names carry their value shape; LC_ alone is not a locale variable', () => {
    expect(builtInEnvRule('LC_TIME')).not.toBeNull();
    expect(builtInEnvRule('LC_')).toBeNull();
    expect(builtInEnvRule('TZ')?.value.test('America/New_York')).toBe(true);
  });
});

describe('config load', () => {
  it('refuses a code-running name in shell.allowedEnv with a clear message naming the entry', () => {
    const result = configSchema.safeParse({ shell: { enabled: true, allowEnv: true, allowedEnv: ['MY_MODE', 'BROWSER', 'LD_PRELOAD'] } });
    expect(result.success).toBe(false);
    const issues = result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual([
      'shell.allowedEnv.1: BROWSER changes which code programs run or where they load code and settings from, so it cannot be allowed',
      'shell.allowedEnv.2: LD_PRELOAD changes which code programs run or where they load code and settings from, so it cannot be allowed',
    ]);
    expect(configSchema.safeParse({ shell: { allowedEnv: ['PATH'], allowPathEnv: true } }).success).toBe(true);
    expect(configSchema.safeParse({ shell: { allowedEnv: ['PATH'] } }).success).toBe(false);
  });
});
