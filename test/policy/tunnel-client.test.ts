/** The tunnel client must not be a file the model's tools could replace. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesystemSchema } from '../../main/config/schema.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { tunnelClientRefusal } from '../../main/policy/tunnel-client.js';
import { localPort } from '../helpers/adapter.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('tunnel-policy-');
  for (const sub of ['writable', 'readonly', 'elsewhere']) fs.mkdirSync(path.join(dir, sub));
});
afterEach(() => removeDir(dir));

const policy = () =>
  new FilesystemPolicy(
    filesystemSchema.parse({ write: true, roots: [path.join(dir, 'writable'), { path: path.join(dir, 'readonly'), readOnly: true }] }),
    localPort(),
  );

describe('tunnel client placement', () => {
  it('refuses a client in a writable root, or one that really lives there, and accepts the rest', async () => {
    const inside = path.join(dir, 'writable', 'tunnel-client');
    const elsewhere = path.join(dir, 'elsewhere', 'tunnel-client');
    const readOnly = path.join(dir, 'readonly', 'tunnel-client');
    expect(await tunnelClientRefusal(policy(), { found: inside, real: inside }, path.dirname)).toMatch(/inside a folder the model may write to/);
    expect(await tunnelClientRefusal(policy(), { found: elsewhere, real: inside }, path.dirname)).toMatch(/writable filesystem root/);
    expect(await tunnelClientRefusal(policy(), { found: elsewhere, real: elsewhere }, path.dirname)).toBeNull();
    expect(await tunnelClientRefusal(policy(), { found: readOnly, real: readOnly }, path.dirname)).toBeNull();
  });
});
