/** The grants tools carry: what exposes them, and words that name real settings. */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { ALL_TOOLS } from '../../main/mcp/tools/index.js';
import { GRANT } from '../../main/policy/grants.js';

/** Every `section.key` that has a default (every setting a grant can name). */
function configKeys(): Set<string> {
  const defaults = configSchema.parse({}) as unknown as Record<string, Record<string, unknown>>;
  return new Set(Object.entries(defaults).flatMap(([section, values]) => Object.keys(values ?? {}).map((key) => `${section}.${key}`)));
}

describe('grants', () => {
  it('every tool carries one of the declared grants', () => {
    const declared = new Set(Object.values(GRANT));
    for (const tool of ALL_TOOLS) expect(declared.has(tool.grant), tool.name).toBe(true);
  });

  it('out of the box only system.info is granted', () => {
    const config = configSchema.parse({});
    // answer.more too, which the server lists only beside a tool whose answers can be long (enabledTools).
    expect(ALL_TOOLS.filter((t) => t.grant.granted(config)).map((t) => t.name)).toEqual(['system.info', 'answer.more']);
  });

  it("each grant's words name settings that exist", () => {
    const keys = configKeys();
    for (const [name, grant] of Object.entries(GRANT)) {
      if (grant === GRANT.always) continue;
      const named = grant.words.match(/\b[a-z]+\.[a-zA-Z]+\b/g) ?? [];
      expect(named.length, name).toBeGreaterThan(0);
      for (const key of named) expect(keys.has(key), `${name}: ${key}`).toBe(true);
    }
  });

  it('a grant follows the settings its words name', () => {
    const on = configSchema.parse({
      filesystem: { write: true, roots: ['/srv'] },
      shell: { enabled: true, allowedCommands: ['ls'] },
      desktop: { hostDisplayAccess: true, screen: true },
    });
    expect([GRANT.filesRead, GRANT.filesWrite, GRANT.filesEdit, GRANT.commands, GRANT.screen].map((g) => g.granted(on))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    const readOnlyRoot = configSchema.parse({ filesystem: { write: true, roots: [{ path: '/srv', readOnly: true }] } });
    expect([GRANT.filesRead, GRANT.filesWrite, GRANT.filesEdit].map((g) => g.granted(readOnlyRoot))).toEqual([true, false, false]);
    const noMaster = configSchema.parse({ desktop: { screen: true, input: true } });
    expect([GRANT.screen, GRANT.input].map((g) => g.granted(noMaster))).toEqual([false, false]);
  });
});
