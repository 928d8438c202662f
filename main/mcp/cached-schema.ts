/**
 * The SDK converts a tool's zod schemas to JSON Schema on every request, because its cache
 * lives on the per-request McpServer. This wrapper memoises the conversion on the schema
 * itself, once per process, and leaves validation to zod unchanged.
 */
import type * as z from 'zod';

type JsonSchemaOptions = { target: string };

export function withCachedJsonSchema<T extends z.ZodType>(schema: T): T {
  const standard = schema['~standard'] as T['~standard'] & {
    jsonSchema: { input(options: JsonSchemaOptions): unknown; output(options: JsonSchemaOptions): unknown };
  };
  const cache = new Map<string, unknown>();
  const memo = (io: 'input' | 'output') => (options: JsonSchemaOptions) => {
    const key = `${io}:${options.target}`;
    if (!cache.has(key)) cache.set(key, Object.freeze(standard.jsonSchema[io](options)));
    return cache.get(key);
  };
  const cached = { ...standard, validate: standard.validate, jsonSchema: { input: memo('input'), output: memo('output') } };
  return new Proxy(schema, { get: (target, prop, receiver) => (prop === '~standard' ? cached : Reflect.get(target, prop, receiver)) });
}
