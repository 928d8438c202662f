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

/** Where the advertised input schema has an object below the top: its path in the arguments (`edits[0]`, `space.area`). */
function nestedObjects(node: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  const found: Array<Array<string | number>> = [];
  if (node.type === 'object' && path.length > 0 && isPlain(node.properties)) found.push(path);
  for (const [name, child] of Object.entries((node.properties as Json | undefined) ?? {})) found.push(...nestedObjects(child as Json, [...path, name]));
  if (isPlain(node.items)) found.push(...nestedObjects(node.items, [...path, 0]));
  for (const branch of (node.anyOf as Json[] | undefined) ?? []) found.push(...nestedObjects(branch, path));
  return found;
}
const isPlain = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Arguments holding `{ [key]: 1 }` at `path`, built from objects and one-element arrays. */
function argsWith(path: Array<string | number>, key: string): Json {
  const build = (rest: Array<string | number>): unknown => {
    if (rest.length === 0) return { [key]: 1 };
    const [head, ...tail] = rest;
    return typeof head === 'number' ? [build(tail)] : { [head!]: build(tail) };
  };
  return build(path) as Json;
}

const where = (path: Array<string | number>) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');

describe('nested objects refuse unknown properties too', () => {
  const cases = ALL_TOOLS.flatMap((tool) =>
    nestedObjects(jsonOf(toolInputSchema(tool.input), 'input')).map((path) => [tool.name, where(path), tool, path] as const),
  );

  it('finds the nested objects the tools have', () => {
    expect(cases.map(([name, at]) => `${name} ${at}`)).toEqual(expect.arrayContaining(['fs.edit edits[0]', 'input.drag path[0]', 'screen.capture space.area']));
  });

  it.each(cases)('%s: %s', (_name, at, tool, path) => {
    const result = toolInputSchema(tool.input)['~standard'].validate(argsWith(path, 'replace_all')) as { issues?: Array<{ message: string; path: unknown[] }> };
    const issue = result.issues?.find((i) => i.message.startsWith('unknown property'));
    expect(issue?.message).toMatch(new RegExp(`^unknown property "replace_all" in ${at.replace(/[.[\]]/g, '\\$&')}; the properties there are: \\w+`));
    expect(issue?.path).toEqual([...path, 'replace_all']);
  });

  const validate = (name: string, value: unknown) =>
    toolInputSchema(ALL_TOOLS.find((t) => t.name === name)!.input)['~standard'].validate(value) as { value?: unknown; issues?: Array<{ message: string }> };

  it('accepts the known properties, with null for "not given", and names each unknown one', () => {
    const edit = { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b', replaceAll: null }], expectedSha256: null };
    expect(validate('fs.edit', edit).issues).toBeUndefined();
    expect(validate('fs.edit', edit).value).toMatchObject({ edits: [{ oldText: 'a', newText: 'b' }] });
    const typo = validate('fs.edit', {
      path: 'a.txt',
      edits: [
        { oldText: 'a', newText: 'b' },
        { oldText: 'c', newText: 'd', replace_all: true, bogus: 1 },
      ],
    });
    expect(typo.issues?.map((i) => i.message)).toEqual([
      'unknown property "replace_all" in edits[1]; the properties there are: oldText, newText, replaceAll',
      'unknown property "bogus" in edits[1]; the properties there are: oldText, newText, replaceAll',
    ]);
    const drag = {
      path: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
      space: { width: 100, height: 100, area: { x: 0, y: 0, width: 10, height: 10 } },
    };
    expect(validate('input.drag', drag).issues).toBeUndefined();
    expect(validate('input.drag', { ...drag, space: { ...drag.space, area: { ...drag.space.area, z: 1 } } }).issues?.[0]?.message).toMatch(
      /^unknown property "z" in space\.area; the properties there are: x, y, width, height$/,
    );
  });

  it('keeps a record open to any name (environment variables)', () => {
    expect(validate('shell.exec', { command: 'ls', env: { ANY_NAME: '1' } }).issues).toBeUndefined();
  });
});
