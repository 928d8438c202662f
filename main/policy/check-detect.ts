/**
 * A project's checks as its own files suggest them (package.json scripts, Cargo.toml,
 * pyproject.toml, go.mod), for the owner to see and adopt: verify_changes runs only the checks
 * the owner put in checks.projects, never a detected one on its own. And each check's level
 * (fast, normal, strict) when the owner did not name one. Pure: the settings window, `config
 * check` and verify_changes' refusals use it.
 */
import type { CheckEntry, CheckLevel } from '../config/sections/checks.js';

export const PROJECT_FILES = ['package.json', 'Cargo.toml', 'pyproject.toml', 'go.mod'] as const;
export type ProjectFile = (typeof PROJECT_FILES)[number];

export interface ProposedCheck {
  command: string[];
  level: CheckLevel;
}

const FAST = /^(lint|typecheck|type-check|types|tsc|check|fmt|format|vet|clippy)\b/;
const NORMAL = /^(test|tests|unit)\b/;

/** A check's level: the owner's, or by its name (lint and typecheck fast, tests normal, the rest strict). */
export function levelOf(name: string, entry: CheckEntry): CheckLevel {
  if (!Array.isArray(entry)) return entry.level;
  return FAST.test(name) ? 'fast' : NORMAL.test(name) ? 'normal' : 'strict';
}

export function commandOf(entry: CheckEntry): string[] {
  return Array.isArray(entry) ? [...entry] : [...entry.command];
}

/** Which checks run at a level: fast ones at every level, normal ones at normal and strict, the rest at strict. */
export function runsAt(check: CheckLevel, level: CheckLevel): boolean {
  const rank = { fast: 0, normal: 1, strict: 2 } as const;
  return rank[check] <= rank[level];
}

/** Checks the project's files suggest, by name; files that are missing or unreadable are undefined. */
export function detectChecks(files: Partial<Record<ProjectFile, string>>): Record<string, ProposedCheck> {
  const found: Record<string, ProposedCheck> = {};
  const add = (name: string, command: string[], level: CheckLevel) => (found[name] ??= { command, level });
  const scripts = packageScripts(files['package.json']);
  for (const name of ['typecheck', 'type-check', 'lint', 'test', 'build']) {
    if (!scripts.includes(name)) continue;
    add(name, name === 'test' ? ['npm', 'test'] : ['npm', 'run', name], levelOf(name, []));
  }
  if (files['Cargo.toml'] !== undefined) {
    add('check', ['cargo', 'check'], 'fast');
    add('test', ['cargo', 'test'], 'normal');
    add('clippy', ['cargo', 'clippy', '--', '-D', 'warnings'], 'strict');
  }
  const pyproject = files['pyproject.toml'];
  if (pyproject !== undefined) {
    if (/^\[tool\.ruff/m.test(pyproject)) add('lint', ['ruff', 'check', '.'], 'fast');
    if (/^\[tool\.mypy/m.test(pyproject)) add('typecheck', ['mypy', '.'], 'fast');
    add('test', ['python3', '-m', 'pytest'], 'normal');
  }
  if (files['go.mod'] !== undefined) {
    add('vet', ['go', 'vet', './...'], 'fast');
    add('test', ['go', 'test', './...'], 'normal');
    add('build', ['go', 'build', './...'], 'strict');
  }
  return found;
}

function packageScripts(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    return scripts && typeof scripts === 'object' ? Object.keys(scripts) : [];
  } catch {
    return [];
  }
}

/** "test: npm test, lint: npm run lint" */
export function describeChecks(checks: Record<string, { command: readonly string[] }>): string {
  return Object.entries(checks)
    .map(([name, check]) => `${name}: ${check.command.join(' ')}`)
    .join(', ');
}
