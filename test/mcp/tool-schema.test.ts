/**
 * Every tool's schemas as hosts receive them: portable for strict converters (OpenAI strict
 * mode, the Agents SDKs), and validated the way they are advertised.
 */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { toolInputSchema, toolOutputSchema } from '../../main/mcp/tool-schema.js';
import { ALL_TOOLS } from '../../main/mcp/tools/index.js';

type Json = Record<string, unknown>;
const jsonOf = (schema: z.ZodType, io: 'input' | 'output') =>
  (schema['~standard'] as unknown as { jsonSchema: Record<string, (o: { target: string }) => Json> }).jsonSchema[io]!({ target: 'draft-2020-12' });

/** Every node of a JSON Schema, with its path. */
function* nodes(node: unknown, path = '$'): Generator<[string, Json]> {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* nodes(item, `${path}[${i}]`);
    return;
  }
  const json = node as Json;
  yield [path, json];
  for (const [key, value] of Object.entries(json)) {
    if (key === 'properties' || key === '$defs') for (const [name, child] of Object.entries(value as Json)) yield* nodes(child, `${path}.${key}.${name}`);
    else if (typeof value === 'object') yield* nodes(value, `${path}.${key}`);
  }
}

describe.each(ALL_TOOLS.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  const input = jsonOf(toolInputSchema(tool.input), 'input');
  const output = jsonOf(toolOutputSchema(tool.output), 'output');

  it('uses no JSON Schema type arrays, and closes every object', () => {
    for (const schema of [input, output]) {
      for (const [path, node] of nodes(schema)) {
        expect(Array.isArray(node.type), `${path} has a type array`).toBe(false);
        if (node.type === 'object' && node.properties) expect(node.additionalProperties, `${path} is open`).toBe(false);
      }
    }
  });

  it('makes every optional input nullable', () => {
    const required = new Set((input.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((input.properties as Json | undefined) ?? {})) {
      if (required.has(name)) continue;
      const branches = ((property as Json).anyOf as Json[] | undefined) ?? [];
      expect(
        branches.some((b) => b.type === 'null'),
        `${name} is optional but not nullable`,
      ).toBe(true);
    }
  });
});

describe('validation follows the advertised schema', () => {
  const write = ALL_TOOLS.find((t) => t.name === 'fs.write')!;
  const schema = toolInputSchema(write.input);
  const validate = (value: unknown) => schema['~standard'].validate(value) as { value?: unknown; issues?: Array<{ message: string }> };

  it('accepts a strict-mode call: every optional property sent as null means not given', () => {
    const result = validate({ path: 'a.txt', content: 'x', mode: null, expectedSha256: null });
    expect(result.issues).toBeUndefined();
    expect(result.value).toEqual({ path: 'a.txt', content: 'x', mode: 'overwrite' });
  });

  it('refuses an unknown argument, naming the arguments there are', () => {
    const result = validate({ path: 'a.txt', content: 'x', overwrite: true });
    expect(result.issues?.[0]?.message).toMatch(/unknown argument "overwrite"; the arguments are: path, content, mode, expectedSha256/);
  });
});
