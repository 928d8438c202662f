import { describe, expect, it } from 'vitest';
import { plainSecretPlaces, withPlainSecretsHidden } from '../../main/config/plain-secrets.js';
import { upstreamSchema } from '../../main/config/sections/gateway.js';

const entry = (env: Record<string, string>, args: string[] = []) => upstreamSchema.parse({ name: 'x', command: 'x-mcp', env, args });

describe("a gateway entry's values that look secret by their shape", () => {
  it('are found by where they are, and hidden where printed; settings and placeholders are left as written', () => {
    const given = entry({ DATABASE_URL: 'mysql://root:pw-123@db/app', EXTRA_JSON: '{"Authorization": "Bearer 0123456789abcdef"}', REGION: 'eu-west-1' }, [
      '--url',
      'redis://:s3cret@cache:6379',
      '--port',
      '${PORT:-8080}',
      '--api-key',
      'SECRET-NOT-COPIED',
      '--seed=${SEED:-postgres://u:pw@h/db}',
    ]);
    expect(plainSecretPlaces(given)).toEqual(['env DATABASE_URL', 'env EXTRA_JSON', 'args[1]', 'args[6]']);
    const shown = withPlainSecretsHidden(given);
    expect(shown.env).toEqual({ DATABASE_URL: '<redacted>', EXTRA_JSON: '<redacted>', REGION: 'eu-west-1' });
    expect(shown.args).toEqual(['--url', 'redis://:<redacted>@cache:6379', '--port', '${PORT:-8080}', '--api-key', 'SECRET-NOT-COPIED', '<redacted>']);
    // Nothing of the entry given is changed.
    expect(given.env.DATABASE_URL).toBe('mysql://root:pw-123@db/app');
  });

  it("leaves a stored secret's reference alone", () => {
    const given = upstreamSchema.parse({ name: 'x', command: 'x-mcp', env: { DATABASE_URL: { secret: 'x/DATABASE_URL' } } });
    expect(plainSecretPlaces(given)).toEqual([]);
    expect(withPlainSecretsHidden(given).env).toEqual({ DATABASE_URL: { secret: 'x/DATABASE_URL' } });
  });
});
