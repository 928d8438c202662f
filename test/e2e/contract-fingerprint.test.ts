/** The contract fingerprint seen from outside: `config check` prints what system.info reports, and a grant changes it. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernStdio } from '../helpers/clients.js';
import { childEnv, runCli } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let home: string;
beforeAll(() => {
  home = makeTempDir('contract-e2e-');
});
afterAll(() => removeDir(home));

async function both(config: object): Promise<{ checked: string; reported: string }> {
  const file = path.join(home, 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  const env = childEnv(home) as Record<string, string>;
  const check = await runCli(['config', 'check', '--config', file], env);
  expect(check.code).toBe(0);
  const checked = /tool contract: sha256 ([0-9a-f]{64}) \(\d+ tools/.exec(check.stderr)?.[1];
  const client = await connectModernStdio(['--config', file], env);
  try {
    const info = await client.callTool({ name: 'system.info', arguments: {} });
    return { checked: checked!, reported: (info.structuredContent as { contract: { sha256: string } }).contract.sha256 };
  } finally {
    await client.close();
  }
}

describe('the contract fingerprint', () => {
  it('is the same in config check and system.info, and changes with a grant', async () => {
    const before = await both({ filesystem: { roots: [home] } });
    expect(before.checked).toBe(before.reported);
    const after = await both({ filesystem: { roots: [home], write: true } });
    expect(after.checked).toBe(after.reported);
    expect(after.reported).not.toBe(before.reported);
  });
});
