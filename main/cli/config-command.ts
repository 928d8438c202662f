/** `chatgpt-mcp config check | path | init`. */
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { saveConfig } from '../config/save.js';
import { configPathFor, type CliOverrides } from '../config/load.js';
import { redactConfig } from '../config/redact.js';
import type { Config, ConfigInput } from '../config/schema.js';
import { existingBearerToken, generateToken } from '../config/token.js';
import { configWarnings } from '../config/warnings.js';
import { enabledTools, exposedName } from '../mcp/server.js';
import { httpStartRefusal } from '../mcp/start-refusal.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { SandboxPolicy, SandboxUnavailableError } from '../policy/sandbox.js';
import { sandboxNeeded } from '../policy/sandbox-clients.js';
import { commandOf, describeChecks, levelOf } from '../policy/check-detect.js';
import { proposeProjects } from '../config/project-checks.js';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { EXIT, print, say, usageError, withConfig } from './io.js';
import { protectedPaths, stateDir } from '../host/places.js';

export interface InitOptions {
  roots: string[];
  readOnlyRoots: string[];
  commands: string[];
  write: boolean;
  force: boolean;
}

export function configCommand(sub: string | undefined, cli: CliOverrides, init: InitOptions): number | Promise<number> {
  if (sub === 'check') return configCheck(cli);
  if (sub === 'path') return configPath(cli);
  if (sub === 'init') return configInit(cli, init);
  return usageError('expected "config check", "config path" or "config init"');
}

/** Every rule `serve` applies, then the warnings about configs that cannot work as meant. */
function configCheck(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, file, path: configFile }) => {
    const refusal = httpRefusal(config);
    const sandbox = await sandboxNotes(config, configFile);
    if (refusal || sandbox instanceof SandboxUnavailableError) {
      say(
        refusal
          ? `configuration is valid, but the server would refuse to start over HTTP (serve --http): ${refusal}`
          : `configuration is valid, but the server would refuse to start: ${(sandbox as Error).message}`,
      );
      return EXIT.config;
    }
    say(`configuration is valid (${file ?? 'no config file, using defaults'})`);
    for (const note of sandbox) say(`commands: ${note}`);
    for (const note of checkNotes(config)) say(`checks: ${note}`);
    for (const warning of configWarnings(config, { kind, platform: process.platform })) say(`warning: ${warning}`);
    say(
      `tools exposed: ${enabledTools(config)
        .map((t) => exposedName(t.name, config))
        .join(', ')}`,
    );
    return print(JSON.stringify(redactConfig(config), null, 2));
  });
}

/** What "serve --http" refuses before listening, with its own message: the server settings, then the token file it would read. */
function httpRefusal(config: Readonly<Config>): string | null {
  const refusal = httpStartRefusal(config.server);
  if (refusal) return refusal.message;
  try {
    existingBearerToken(config, stateDir());
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** What the sandbox would be on this computer (probing it as serve does), or why serve would refuse it. */
async function sandboxNotes(config: Parameters<typeof configWarnings>[0], configFile: string): Promise<string[] | SandboxUnavailableError> {
  if (!sandboxNeeded(config)) return [];
  const adapter = createLocalAdapter();
  try {
    const protectedFiles = protectedPaths(configFile);
    const files = new FilesystemPolicy(config.filesystem, adapter.inspect, { protectedFiles });
    return new SandboxPolicy(config, files, adapter.inspect).describe().notes;
  } catch (error) {
    if (error instanceof SandboxUnavailableError) return error;
    throw error;
  } finally {
    await adapter.close();
  }
}

/**
 * The checks verify_changes runs, per project, and the ones projects in the roots suggest (shown
 * here and in the settings window before any is used: only checks.projects runs).
 */
function checkNotes(config: Readonly<Config>): string[] {
  const notes = config.checks.projects.map(
    (p) =>
      `${p.path} runs ${Object.entries(p.checks)
        .map(([name, entry]) => `${name} (${levelOf(name, entry)}): ${commandOf(entry).join(' ')}`)
        .join(', ')}`,
  );
  const configured = new Set(config.checks.projects.map((p) => p.path));
  for (const root of config.filesystem.roots) {
    for (const proposal of proposeProjects(typeof root === 'string' ? root : root.path)) {
      if (!configured.has(proposal.path))
        notes.push(`${proposal.path} suggests ${describeChecks(proposal.checks)} (not run until you add them to checks.projects)`);
    }
  }
  return notes;
}

/** Printed without parsing, so a broken config can still be found. */
function configPath(cli: CliOverrides): number {
  const file = configPathFor({ cli });
  if (!fs.existsSync(file)) say(`${file} does not exist yet: defaults apply until it does ("chatgpt-mcp config init" creates it)`);
  return print(file);
}

async function configInit(cli: CliOverrides, options: InitOptions): Promise<number> {
  const file = configPathFor({ cli });
  if (fs.existsSync(file) && !options.force) {
    say(`${file} already exists; edit it, or pass --force to replace it`);
    return EXIT.config;
  }
  const answers = options.roots.length || options.readOnlyRoots.length || options.commands.length || !process.stdin.isTTY ? options : await ask(options);
  for (const root of [...answers.roots, ...answers.readOnlyRoots]) {
    if (!path.isAbsolute(root)) return usageError(`--root ${root}: folders must be absolute paths`);
    if (kind(root) !== 'directory') say(`warning: ${root} is not an existing folder`);
  }
  const value: ConfigInput = {
    server: { token: generateToken() },
    filesystem: {
      write: answers.write,
      roots: [...answers.roots, ...answers.readOnlyRoots.map((p) => ({ path: p, readOnly: true }))],
    },
    ...(answers.commands.length ? { shell: { enabled: true, allowedCommands: answers.commands } } : {}),
  };
  try {
    await saveConfig(file, value);
  } catch (error) {
    say((error as Error).message);
    return EXIT.config;
  }
  say(`wrote ${file} (readable only by you), with a new token: "chatgpt-mcp token show" prints it`);
  return print(file);
}

async function ask(defaults: InitOptions): Promise<InitOptions> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const list = async (question: string) =>
      (await rl.question(question))
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    const roots = await list('Folders to share, read and write (absolute paths, comma-separated, empty for none): ');
    const readOnlyRoots = await list('Folders to share read-only: ');
    const commands = await list('Programs the model may run (names, comma-separated, empty for none): ');
    return { ...defaults, roots, readOnlyRoots, commands, write: roots.length > 0 };
  } finally {
    rl.close();
  }
}

function kind(target: string): 'directory' | 'other' | 'missing' {
  try {
    return fs.statSync(target).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}
