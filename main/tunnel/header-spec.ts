/**
 * The tunnel client's static header lists (`MCP_EXTRA_HEADERS`, `MCP_DISCOVERY_EXTRA_HEADERS`):
 * `"Name: value, Name2: value2"`, where a value `env:NAME` or `file:/path` is a reference the
 * client resolves itself. We only ever write references, so no secret is in the list; and the
 * readiness probe resolves the same list the same way, so it sends exactly what the tunnel sends.
 */
import fs from 'node:fs';

export interface HeaderRef {
  name: string;
  /** A literal value, or a reference: `env:VARIABLE` / `file:/absolute/path`. */
  value: string;
}

const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function formatHeaderSpec(headers: readonly HeaderRef[]): string {
  return headers
    .map(({ name, value }) => {
      if (!FIELD_NAME.test(name)) throw new Error(`invalid header name ${JSON.stringify(name)}`);
      // The list is split on commas, so a value cannot hold one.
      if (/[,\r\n]/.test(value)) throw new Error(`header ${name}: a value in this list cannot contain a comma or line break`);
      return `${name}: ${value}`;
    })
    .join(', ');
}

export function parseHeaderSpec(spec: string): HeaderRef[] {
  const out: HeaderRef[] = [];
  for (const part of spec.split(',')) {
    if (!part.trim()) continue;
    const colon = part.indexOf(':');
    if (colon <= 0) throw new Error(`header entry "${part.trim()}" is not "Name: value"`);
    const name = part.slice(0, colon).trim();
    if (!FIELD_NAME.test(name)) throw new Error(`invalid header name ${JSON.stringify(name)}`);
    out.push({ name, value: part.slice(colon + 1).trim() });
  }
  return out;
}

/** Resolves `env:` and `file:` references against an environment and the file system. */
export function resolveHeaderSpec(
  spec: string,
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = (p) => fs.readFileSync(p, 'utf8'),
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, value } of parseHeaderSpec(spec)) {
    let resolved = value;
    if (value.startsWith('env:')) {
      const variable = value.slice(4);
      const found = env[variable];
      if (found === undefined) throw new Error(`header ${name} refers to ${variable}, which is not set`);
      resolved = found;
    } else if (value.startsWith('file:')) {
      resolved = readFile(value.slice(5)).trim();
    }
    headers[name.toLowerCase()] = resolved;
  }
  return headers;
}
