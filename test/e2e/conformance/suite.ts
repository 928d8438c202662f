/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against a server
 * URL and reads back its per-scenario results. The suite needs Node 22 (fs.globSync) while the
 * project runs on Node 20, so npx installs the `node` package (a Node 22 binary shipped through
 * the npm registry) next to the suite; with that .bin first on PATH the suite's
 * `#!/usr/bin/env node` runs on Node 22. Both versions are pinned so the npx cache stays warm.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const SUITE_VERSION = '0.2.0-alpha.12';
/** Keep in step with the pre-fetch in .ci/run: npx caches by this exact list. */
export const NPX_PACKAGES = ['node@22.23.3', `@modelcontextprotocol/conformance@${SUITE_VERSION}`] as const;

export interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  checks: Check[];
}

export interface SuiteRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Statuses that do not fail a scenario; anything else (FAILURE, or a status we do not know) does. */
export const NON_FAILING = new Set(['SUCCESS', 'WARNING', 'INFO', 'SKIPPED']);

/** Where npx installed the suite: its .bin holds `conformance` and the Node 22 `node`. */
export interface Toolchain {
  binDir: string;
  nodeVersion: string;
}

/**
 * Installs (or finds in the npx cache) the suite and Node 22 once; later runs call the bin
 * directly, which saves npx's registry round trips on every run.
 */
export async function installSuite(timeoutMs: number): Promise<Toolchain> {
  const npxArgs = ['-y', ...NPX_PACKAGES.flatMap((pkg) => ['-p', pkg]), '-c', 'command -v conformance && node --version'];
  const run = await spawnBounded('npx', npxArgs, childEnv(process.env.PATH), timeoutMs);
  const [bin, nodeVersion] = run.stdout.trim().split('\n');
  if (run.code !== 0 || !bin || !nodeVersion) {
    throw new Error(`npx could not install the conformance suite (exit ${run.code}); is the npm registry reachable?\n${tail(run.stdout + run.stderr)}`);
  }
  return { binDir: path.dirname(bin), nodeVersion };
}

export function conformance(toolchain: Toolchain, args: string[], timeoutMs: number): Promise<SuiteRun> {
  const env = childEnv(`${toolchain.binDir}${path.delimiter}${process.env.PATH ?? ''}`);
  return spawnBounded(path.join(toolchain.binDir, 'conformance'), args, env, timeoutMs);
}

function childEnv(pathVar: string | undefined): NodeJS.ProcessEnv {
  // Vitest's loader flags must not leak into the Node 22 child.
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  return { ...env, PATH: pathVar, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

function spawnBounded(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<SuiteRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout ends npx or the suite with all their children.
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`${path.basename(command)} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${tail(stdout + stderr)}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${command}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Every server scenario the suite knows, from `conformance list --server`. */
export async function listServerScenarios(toolchain: Toolchain, timeoutMs: number): Promise<string[]> {
  const run = await conformance(toolchain, ['list', '--server'], timeoutMs);
  if (run.code !== 0) throw new Error(`conformance list failed (exit ${run.code}):\n${tail(run.stdout + run.stderr)}`);
  const names = [...run.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] as string);
  if (names.length === 0) throw new Error(`conformance list printed no scenarios:\n${tail(run.stdout)}`);
  return names;
}

/**
 * Runs one requirement set (`--requirements REVISION`) into outDir and returns every scenario's
 * checks. The suite's exit code is ignored on purpose (it is non-zero whenever a required
 * scenario fails, fixture or not); the caller judges the checks. Fails if the suite wrote
 * fewer results than the scenarios it announced.
 */
export async function runRequirements(
  toolchain: Toolchain,
  url: string,
  revision: string,
  outDir: string,
  timeoutMs: number,
): Promise<{ results: ScenarioResult[]; run: SuiteRun }> {
  const run = await conformance(toolchain, ['server', '--url', url, '--requirements', revision, '--output-dir', outDir], timeoutMs);
  const announced = /Running requirements \S+ \((\d+) scenarios\)/.exec(run.stdout);
  if (!announced) throw new Error(`conformance did not start the ${revision} requirement set (exit ${run.code}):\n${tail(run.stdout + run.stderr)}`);
  const results = readResults(outDir);
  if (results.length !== Number(announced[1])) {
    throw new Error(`conformance announced ${announced[1]} scenarios for ${revision} but wrote ${results.length} results:\n${tail(run.stdout + run.stderr)}`);
  }
  return { results, run };
}

/** Runs single scenarios (`--scenario NAME`) into outDir, one suite process each. */
export async function runScenarios(
  toolchain: Toolchain,
  url: string,
  scenarios: readonly string[],
  outDir: string,
  timeoutMs: number,
): Promise<ScenarioResult[]> {
  for (const scenario of scenarios) {
    const run = await conformance(toolchain, ['server', '--url', url, '--scenario', scenario, '--output-dir', outDir], timeoutMs);
    if (!run.stdout.includes(`Running client scenario '${scenario}'`)) {
      throw new Error(`conformance did not run scenario ${scenario} (exit ${run.code}):\n${tail(run.stdout + run.stderr)}`);
    }
  }
  const results = readResults(outDir);
  const missing = scenarios.filter((name) => !results.some((r) => r.scenario === name));
  if (missing.length > 0) throw new Error(`conformance wrote no results for: ${missing.join(', ')}`);
  return results;
}

/** The suite writes OUT/server-<scenario>-<ISO time with dashes>/checks.json per scenario. */
export function readResults(outDir: string): ScenarioResult[] {
  if (!fs.existsSync(outDir)) return [];
  return fs.readdirSync(outDir).flatMap((entry) => {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    if (!match) return [];
    const scenario = match[1] as string;
    const file = path.join(outDir, entry, 'checks.json');
    if (!fs.existsSync(file)) return [{ scenario, checks: [{ id: 'checks.json', status: 'FAILURE', errorMessage: 'the suite wrote no checks.json' }] }];
    const checks = JSON.parse(fs.readFileSync(file, 'utf8')) as Check[];
    return [{ scenario, checks }];
  });
}

function tail(text: string, max = 4000): string {
  return text.length > max ? `...${text.slice(-max)}` : text;
}
