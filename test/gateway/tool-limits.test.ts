import { describe, expect, it } from 'vitest';
import { boundedTools, MAX_TOOLS } from '../../main/gateway/tool-limits.js';

const tool = (name: string, description = 'd') => ({ name, description, inputSchema: { type: 'object' } });

describe('boundedTools', () => {
  it('keeps the first 512, leaves out descriptions over 8 KiB and huge schemas, naming each', () => {
    const tools = [
      tool('long', 'x'.repeat(8193)),
      { name: 'schema', inputSchema: { type: 'object', description: 'y'.repeat(70_000) } },
      ...Array.from({ length: 600 }, (_, i) => tool(`t${i}`)),
    ];
    const { kept, leftOut } = boundedTools(tools, false);
    expect(kept).toHaveLength(MAX_TOOLS);
    expect(kept[0]!.name).toBe('t0');
    expect(leftOut).toEqual([
      'tool "long" left out: its description is over 8192 characters',
      'tool "schema" left out: its schemas and _meta are over 64 KiB',
      '88 tools left out: at most 512 are taken from one server',
    ]);
  });

  it('says so when the server listed more than was read', () => {
    expect(boundedTools([tool('a')], true).leftOut).toEqual(['more than 0 tools left out: at most 512 are taken from one server']);
  });

  it('leaves out a tool nested deeper than 64 levels (its _meta too) before making any JSON of it', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const { kept, leftOut } = boundedTools([{ ...tool('deep'), _meta: { x: deep } }, tool('ok')], false);
    expect(kept.map((t) => t.name)).toEqual(['ok']);
    expect(leftOut).toEqual(['tool "deep" left out: it nests deeper than 64 levels']);
  });
});
