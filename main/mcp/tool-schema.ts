/**
 * The schemas tools are registered with: the zod schemas each tool defines, made portable
 * for every host, and converted to JSON Schema once per process (the SDK would redo it on
 * every request, because its cache lives on the per-request McpServer).
 *
 * Portable means what strict tool converters (OpenAI's strict mode, the Agents SDKs) accept:
 * - every object says `additionalProperties: false`, and an unknown property is refused at
 *   every level (a typo such as `replace_all` must not be dropped without a word);
 * - an optional input is also nullable, and `null` means "not given": strict mode makes every
 *   property required, so a model can only leave one out by sending null;
 * - no JSON Schema type arrays (`["number", "null"]`): `anyOf` instead.
 *
 * `text` rewrites what a model reads in them (field descriptions, validation messages): tool
 * names in the exposed form (see tool-names.ts).
 */
import * as z from 'zod';
import { isJsonObject, type JsonObject as Json } from './json-object.js';

type JsonSchemaOptions = { target: string };
type Text = (text: string) => string;
type Standard = z.ZodType['~standard'] & {
  jsonSchema: { input(options: JsonSchemaOptions): unknown; output(options: JsonSchemaOptions): unknown };
};

const same: Text = (text) => text;

export function toolInputSchema<T extends z.ZodObject>(schema: T, text: Text = same): T {
  const standard = schema['~standard'] as Standard;
  const strictStandard = strict(schema)['~standard'];
  const known = Object.keys(schema.shape);
  const knownSet = new Set(known);
  const validate = (value: unknown) => {
    const args = withoutNulls(value);
    if (args && typeof args === 'object' && !Array.isArray(args)) {
      const unknown = unknownKeys(args, knownSet);
      if (unknown.length > 0) {
        return { issues: unknown.map((key) => ({ message: `unknown argument "${key}"; the arguments are: ${known.join(', ') || 'none'}`, path: [key] })) };
      }
    }
    const result = strictStandard.validate(args) as Validated;
    return renamedIssues(result instanceof Promise ? result.then(renamed) : renamed(result), text);
  };
  return withSchema(schema, standard, validate, (json) => described(portable(json, true), text));
}

export function toolOutputSchema<T extends z.ZodObject>(schema: T, text: Text = same): T {
  const standard = schema['~standard'] as Standard;
  return withSchema(schema, standard, standard.validate, (json) => described(portable(json, false), text));
}

type Validated = ReturnType<Standard['validate']>;

function renamedIssues(result: Validated, text: Text): Validated {
  if (text === same) return result;
  const rename = (r: Awaited<Validated>) => (r.issues ? { ...r, issues: r.issues.map((i) => ({ ...i, message: text(i.message) })) } : r);
  return result instanceof Promise ? result.then(rename) : rename(result);
}

/** Every `description` in the JSON Schema through `text`. */
function described(node: Json, text: Text): Json {
  if (text === same) return node;
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!isJsonObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'description' && typeof v === 'string' ? text(v) : visit(v)]));
  };
  return visit(node) as Json;
}

function withSchema<T extends z.ZodType>(schema: T, standard: Standard, validate: Standard['validate'], transform: (json: Json) => Json): T {
  const cache = new Map<string, unknown>();
  const memo = (io: 'input' | 'output') => (options: JsonSchemaOptions) => {
    const key = `${io}:${options.target}`;
    if (!cache.has(key)) cache.set(key, deepFreeze(transform(standard.jsonSchema[io](options) as Json)));
    return cache.get(key);
  };
  const wrapped = { ...standard, validate, jsonSchema: { input: memo('input'), output: memo('output') } };
  // The tool's schema underneath, only `~standard` its own: a Proxy would put a trap on every property the SDK reads per call.
  return Object.create(schema, { '~standard': { value: wrapped, enumerable: false } }) as T;
}

const strictCopies = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The same schema with every object, however deeply nested (arrays, optionals, unions...),
 * refusing unknown keys. Only validation uses it: the advertised JSON Schema comes from the
 * tool's own schema (already `additionalProperties: false` everywhere).
 */
function strict(schema: z.ZodType): z.ZodType {
  const done = strictCopies.get(schema);
  if (done) return done;
  const def = schema.def as unknown as Record<string, unknown> & { type: string };
  const child = (key: string) => ({ [key]: strict(def[key] as z.ZodType) });
  let made: z.ZodType;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries((schema as z.ZodObject).shape).map(([k, v]) => [k, strict(v as z.ZodType)]));
      const keys = Object.keys(shape).join(', ') || 'none';
      // The message is finished in namingUnknownKeys, which knows the path.
      const error = (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? `the properties there are: ${keys}` : undefined);
      made = schema.clone({ ...def, shape, catchall: z.never(), error } as typeof schema.def);
      break;
    }
    case 'array':
      made = schema.clone({ ...def, ...child('element') } as typeof schema.def);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      made = schema.clone({ ...def, ...child('innerType') } as typeof schema.def);
      break;
    case 'union':
      made = schema.clone({ ...def, options: (def.options as z.ZodType[]).map(strict) } as typeof schema.def);
      break;
    case 'record':
      made = schema.clone({ ...def, ...child('valueType') } as typeof schema.def);
      break;
    case 'pipe':
      made = schema.clone({ ...def, ...child('in'), ...child('out') } as typeof schema.def);
      break;
    case 'intersection':
      made = schema.clone({ ...def, ...child('left'), ...child('right') } as typeof schema.def);
      break;
    case 'tuple':
      made = schema.clone({
        ...def,
        items: (def.items as z.ZodType[]).map(strict),
        rest: def.rest ? strict(def.rest as z.ZodType) : def.rest,
      } as typeof schema.def);
      break;
    case 'lazy':
      made = z.lazy(() => strict((def.getter as () => z.ZodType)()));
      break;
    default:
      made = schema; // strings, numbers, enums...: nothing to close
  }
  strictCopies.set(schema, made);
  return made;
}

function renamed<R extends { issues?: ReadonlyArray<Issue> }>(result: R): R {
  return result.issues ? { ...result, issues: result.issues.flatMap(namingUnknownKeys) } : result;
}

type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>; code?: string; keys?: string[] };

/** One issue per unknown key, named with where it is: `unknown property "bogus" in edits[0]; the properties there are: ...`. */
function namingUnknownKeys(issue: Issue): Issue[] {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return [issue];
  const path = (issue.path ?? []).map((p) => (typeof p === 'object' ? p.key : p));
  const where = path.reduce<string>((text, p) => (typeof p === 'number' ? `${text}[${p}]` : text ? `${text}.${String(p)}` : String(p)), '');
  return issue.keys.map((key) => ({ message: `unknown property "${key}" in ${where || 'the arguments'}; ${issue.message}`, path: [...path, key] }));
}

function unknownKeys(args: object, known: ReadonlySet<string>): string[] {
  const unknown: string[] = [];
  for (const key in args) if (Object.hasOwn(args, key) && !known.has(key)) unknown.push(key);
  return unknown;
}

/** `null` anywhere in the arguments means the value was not given (arguments without one are used as they are). */
function withoutNulls(value: unknown): unknown {
  return holdsNull(value) ? dropNulls(value) : value;
}

function holdsNull(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsNull);
  for (const key in value) if (Object.hasOwn(value, key) && holdsNull((value as Record<string, unknown>)[key])) return true;
  return false;
}

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, dropNulls(v)]),
  );
}

const NESTED = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'] as const;
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

function portable(node: Json, input: boolean): Json {
  const out: Json = { ...node };
  for (const key of NESTED) if (isJsonObject(out[key])) out[key] = portable(out[key] as Json, input);
  for (const key of LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as Json[]).map((n) => portable(n, input));
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    if (isJsonObject(out[key])) out[key] = Object.fromEntries(Object.entries(out[key] as Json).map(([k, v]) => [k, portable(v as Json, input)]));
  }
  if (out.type === 'object') {
    out.additionalProperties = false;
    if (input && isJsonObject(out.properties)) {
      const required = new Set((out.required as string[] | undefined) ?? []);
      out.properties = Object.fromEntries(Object.entries(out.properties as Json).map(([k, v]) => [k, required.has(k) ? v : nullable(v as Json)]));
    }
  }
  return Array.isArray(out.type) ? splitTypes(out) : out;
}

/** `{type: ["number", "null"], minimum: 0}` -> `{anyOf: [{type: "number", minimum: 0}, {type: "null"}]}`. */
function splitTypes(node: Json): Json {
  const { type, description, default: fallback, ...rest } = node;
  const branches = (type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...rest }));
  return { ...(description === undefined ? {} : { description }), ...(fallback === undefined ? {} : { default: fallback }), anyOf: branches };
}

function nullable(node: Json): Json {
  const branches = Array.isArray(node.anyOf) ? (node.anyOf as Json[]) : null;
  if (branches?.some((b) => b.type === 'null') || node.type === 'null') return node;
  const { description, default: fallback, ...rest } = node;
  return {
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: [...(branches ?? [rest]), { type: 'null' }],
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
