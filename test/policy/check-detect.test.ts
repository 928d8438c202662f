import { describe, expect, it } from 'vitest';
import { detectChecks, levelOf, runsAt } from '../../main/policy/check-detect.js';

describe('detectChecks', () => {
  it('proposes npm scripts by name, with their levels', () => {
    const pkg = JSON.stringify({ scripts: { test: 'vitest run', lint: 'eslint .', typecheck: 'tsc', build: 'tsc -b', start: 'node .' } });
    expect(detectChecks({ 'package.json': pkg })).toEqual({
      typecheck: { command: ['npm', 'run', 'typecheck'], level: 'fast' },
      lint: { command: ['npm', 'run', 'lint'], level: 'fast' },
      test: { command: ['npm', 'test'], level: 'normal' },
      build: { command: ['npm', 'run', 'build'], level: 'strict' },
    });
  });

  it('proposes cargo, pytest (with ruff and mypy when configured) and go checks', () => {
    expect(Object.keys(detectChecks({ 'Cargo.toml': '[package]\nname = "x"\n' }))).toEqual(['check', 'test', 'clippy']);
    expect(detectChecks({ 'pyproject.toml': '[project]\nname="x"\n[tool.ruff]\n[tool.mypy]\n' })).toEqual({
      lint: { command: ['ruff', 'check', '.'], level: 'fast' },
      typecheck: { command: ['mypy', '.'], level: 'fast' },
      test: { command: ['python3', '-m', 'pytest'], level: 'normal' },
    });
    expect(detectChecks({ 'go.mod': 'module x\n' }).test).toEqual({ command: ['go', 'test', './...'], level: 'normal' });
  });

  it('proposes nothing for a broken package.json or no project files', () => {
    expect(detectChecks({ 'package.json': '{ not json' })).toEqual({});
    expect(detectChecks({})).toEqual({});
  });
});

describe('levels', () => {
  it('come from the owner, or from the name', () => {
    expect(levelOf('lint', ['x'])).toBe('fast');
    expect(levelOf('test:unit', ['x'])).toBe('normal');
    expect(levelOf('e2e', ['x'])).toBe('strict');
    expect(levelOf('e2e', { command: ['x'], level: 'fast' })).toBe('fast');
  });
  it('include the levels below', () => {
    expect([runsAt('fast', 'fast'), runsAt('normal', 'fast'), runsAt('normal', 'normal'), runsAt('strict', 'normal'), runsAt('strict', 'strict')]).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
  });
});
