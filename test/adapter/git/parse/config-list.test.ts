import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigList } from '../../../../adapter/git/parse/config-list.js';

const captured = fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'config-list.bin'));

describe('parseConfigList (git config --list --show-scope --show-origin -z, captured)', () => {
  it('reads scope, origin, key and value; an included file keeps the including scope', () => {
    const entries = parseConfigList(captured);
    expect(entries).toContainEqual({ scope: 'global', origin: expect.stringMatching(/^file:.*\.gitconfig$/), key: 'user.name', value: 'Ada Lovelace' });
    expect(entries).toContainEqual({ scope: 'local', origin: 'file:.git/config', key: 'include.path', value: '../../extra.cfg' });
    expect(entries).toContainEqual({ scope: 'local', origin: expect.stringMatching(/extra\.cfg$/), key: 'alias.st', value: 'status' });
  });

  it('reads a key without a value as null (git reads it as true)', () => {
    expect(parseConfigList(captured)).toContainEqual({ scope: 'local', origin: expect.stringMatching(/extra\.cfg$/), key: 'core.bare', value: null });
  });
});
