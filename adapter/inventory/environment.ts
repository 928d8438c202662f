/**
 * The server's own environment: every variable NAME, the values of the names the policy allows,
 * the OS and Node versions, the login shells the OS lists, and well-known runtimes on PATH with
 * the versions their installs show (found, not run: running a program from PATH to ask its
 * version is a command, not an inventory; runtime-version.ts).
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { EnvironmentSummary, FoundProgram, Noted } from '../contract/inventory.js';
import { findExecutable } from '../process/find-executable.js';
import { runtimeVersion } from './runtime-version.js';

export const RUNTIMES = [
  'node',
  'deno',
  'bun',
  'python3',
  'python',
  'ruby',
  'perl',
  'php',
  'java',
  'go',
  'rustc',
  'cargo',
  'dotnet',
  'gcc',
  'clang',
  'git',
  'docker',
  'bash',
  'zsh',
  'fish',
  'pwsh',
];

export async function environmentSummary(valuesOf: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Noted<EnvironmentSummary>> {
  const values: Record<string, string> = {};
  for (const name of valuesOf) if (env[name] !== undefined) values[name] = env[name] as string;
  const shells = await readFile('/etc/shells', 'utf8').then(parseShells, () => undefined);
  const found = await Promise.all(RUNTIMES.map(async (name) => ({ name, hit: await findExecutable(name, env.PATH ?? env.Path).catch(() => null) })));
  const programs: FoundProgram[] = await Promise.all(found.flatMap(({ name, hit }) => (hit ? [withVersion(name, hit.found)] : [])));
  return {
    value: {
      platform: process.platform,
      arch: process.arch,
      release: os.release(),
      osVersion: os.version(),
      nodeVersion: process.version,
      names: Object.keys(env).sort(),
      values,
      ...(shells ? { shells } : {}),
      programs,
    },
    notes: [
      ...(shells ? [] : ['login shells unknown: no /etc/shells']),
      "versions of the programs on PATH come from their installs' files and paths, never from running them; a program without one shows none",
    ],
  };
}

async function withVersion(name: string, found: string): Promise<FoundProgram> {
  const version = await runtimeVersion(name, found).catch(() => undefined);
  return version ? { name, path: found, version } : { name, path: found };
}

export function parseShells(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('/'));
}
