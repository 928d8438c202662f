/** The contract fingerprint: stable for the same tools, and says what changed between two. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { contractChanges, fingerprint, toolFaces } from '../../main/mcp/contract-fingerprint.js';
import { createServerFactory } from '../../main/mcp/server.js';
import { localAdapter } from '../helpers/adapter.js';
import { makeConfig, silentLogger } from '../helpers/servers.js';

const contractOf = (input: Parameters<typeof makeConfig>[0]) =>
  createServerFactory({ config: makeConfig(input), adapter: localAdapter(), logger: silentLogger }).contract();

describe('contract fingerprint', () => {
  it('is the same for the same config, and differs when a grant changes what is exposed', () => {
    const files = { server: { toolNames: 'underscore' as const }, filesystem: { roots: ['/srv/projects'] } };
    expect(contractOf(files)).toEqual(contractOf(files));
    expect(contractOf(files).sha256).toMatch(/^[0-9a-f]{64}$/);
    const writable = contractOf({ ...files, filesystem: { roots: ['/srv/projects'], write: true } });
    expect(writable.sha256).not.toBe(contractOf(files).sha256);
    expect(contractChanges(contractOf(files), writable)).toEqual({
      added: ['fs_delete', 'fs_edit', 'fs_mkdir', 'fs_move', 'fs_patch', 'fs_write'],
      removed: [],
      changed: [],
    });
  });

  it('follows the names clients see, and a change in a schema, a description or an annotation', () => {
    expect(Object.keys(contractOf({ server: { toolNames: 'dotted' } }).tools)).toEqual(['system.info']);
    const base = { name: 't', inputSchema: { type: 'object', properties: { a: { type: 'string' } } }, outputSchema: {}, annotations: { readOnlyHint: true } };
    const one = fingerprint([base]);
    expect(fingerprint([{ ...base, inputSchema: { properties: { a: { type: 'string' } }, type: 'object' } }])).toEqual(one);
    for (const other of [
      { ...base, inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
      { ...base, inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'now described' } } } },
      { ...base, annotations: { readOnlyHint: false } },
    ]) {
      const changed = fingerprint([other]);
      expect(changed.sha256).not.toBe(one.sha256);
      expect(contractChanges(one, changed)).toEqual({ added: [], removed: [], changed: ['t'] });
    }
  });

  it('hashes the JSON Schema clients receive (draft 2020-12, portable)', () => {
    const faces = toolFaces([{ name: 'x', inputSchema: makeZod(), outputSchema: makeZod(), annotations: undefined }]);
    expect(faces[0]!.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
  });
});

function makeZod() {
  return z.object({ path: z.string() });
}
