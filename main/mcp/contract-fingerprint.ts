/**
 * The contract fingerprint: a SHA-256 over the tools this server exposes, as a client sees them
 * (exposed names, input and output JSON Schemas as listed, annotations). It changes when an
 * upgrade or a grant changes what a model can call, so the owner can tell (config check,
 * system.info, the tray, which compares it with the last start's).
 */
import { createHash } from 'node:crypto';
import type * as z from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { canonicalJson } from '../canonical-json.js';

/** What the MCP SDK converts schemas with (the JSON Schema a client receives). */
const TARGET = 'draft-2020-12';

export interface ToolFace {
  name: string;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations: ToolAnnotations | undefined;
}

export interface ContractFingerprint {
  /** SHA-256 (hex) over every tool face, sorted by name. */
  sha256: string;
  /** Each tool's own SHA-256, to say what changed between two fingerprints. */
  tools: Record<string, string>;
}

type Listed = { name: string; inputSchema: z.ZodType; outputSchema: z.ZodType; annotations: ToolAnnotations | undefined };

/** The faces of the tools as registered (the portable schemas tool-schema.ts made). */
export function toolFaces(tools: readonly Listed[]): ToolFace[] {
  const json = (schema: z.ZodType, io: 'input' | 'output') =>
    (schema['~standard'] as unknown as { jsonSchema: Record<typeof io, (o: { target: string }) => unknown> }).jsonSchema[io]({ target: TARGET });
  return tools.map((t) => ({
    name: t.name,
    inputSchema: json(t.inputSchema, 'input'),
    outputSchema: json(t.outputSchema, 'output'),
    annotations: t.annotations,
  }));
}

export function fingerprint(faces: readonly ToolFace[]): ContractFingerprint {
  const sorted = [...faces].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const tools = Object.fromEntries(sorted.map((face) => [face.name, sha256(canonicalJson(face))]));
  return { sha256: sha256(canonicalJson(sorted.map((face) => [face.name, tools[face.name]]))), tools };
}

/** What changed from `before` to `after`: tool names added, removed, and whose face changed. */
export function contractChanges(before: ContractFingerprint, after: ContractFingerprint): { added: string[]; removed: string[]; changed: string[] } {
  const names = (r: Record<string, string>) => Object.keys(r).sort();
  return {
    added: names(after.tools).filter((name) => !(name in before.tools)),
    removed: names(before.tools).filter((name) => !(name in after.tools)),
    changed: names(after.tools).filter((name) => name in before.tools && before.tools[name] !== after.tools[name]),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
