/** `chatgpt-mcp config check | path | init`. */
import fs from 'node:fs';
import os from 'node:os';
import { configTokenExposure, fileToken, rootWarning } from '../config/file-exposure.js';
import { saveConfig } from '../config/save.js';
import { configPathFor, type CliOverrides } from '../config/load.js';
import { redactConfig } from '../config/redact.js';
import { prefixOf, type Config, type ConfigInput, type UpstreamConfig } from '../config/schema.js';
import { existingBearerToken } from '../config/token.js';
import { cliHint } from '../command-name.js';
import { configWarnings } from '../config/warnings.js';
import { createServerFactory, exposedName } from '../mcp/server.js';
import { profileNotes, toolsFor } from './profile-notes.js';
import { httpStartRefusal } from '../mcp/start-refusal.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { SandboxPolicy, SandboxUnavailableError } from '../policy/sandbox.js';
import { sandboxNeeded } from '../policy/sandbox-clients.js';
import { commandOf, describeChecks, levelOf } from '../policy/check-detect.js';
import { proposeProjects } from '../config/project-checks.js';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { EXIT, print, say, usageError, withConfig } from './io.js';
import { protectedPaths, stateDir } from '../host/places.js';
import { secureAppFolder } from '../config/owned-state.js';
import type { ContractFingerprint } from '../mcp/contract-fingerprint.js';
import { silentLogger } from '../log.js';
import { askInitAnswers, checkFolders, checkPrograms } from './init-questions.js';

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
    for (const warning of appFolderWarnings()) say(`warning: ${warning}`);
    for (const note of sandbox) say(`commands: ${note}`);
    for (const note of checkNotes(config)) say(`checks: ${note}`);
    for (const warning of [...configWarnings(config, { kind, platform: process.platform }), ...setupWarnings(file)]) say(`warning: ${warning}`);
    const active = toolsFor(config, { kind: 'none' });
    say(`tools exposed (profile "${active.caller.name}"): ${active.tools.map((t) => exposedName(t.name, config)).join(', ')}`);
    for (const note of profileNotes(config)) say(`profiles: ${note}`);
    const contract = await contractOf(config, configFile);
    say(`tool contract: sha256 ${contract.sha256} (${Object.keys(contract.tools).length} tools)`);
    const printable = redactConfig(config);
    for (const entry of printable.gateway.servers) say(`gateway: ${upstreamLine(entry)}`);
    return print(JSON.stringify(printable, null, 2));
  });
}

/** The app folder as serve will find it: what it repairs at start (an app folder another user owns is a refusal, see httpRefusal). */
function appFolderWarnings(): string[] {
  try {
    return secureAppFolder(stateDir(), { repair: false });
  } catch {
    return [];
  }
}

/** About this computer rather than the settings: a config file sharing its token, a server running as root. */
function setupWarnings(file: string | null): string[] {
  return [configTokenExposure(file), rootWarning()].filter((w): w is string => w !== null);
}

/** One upstream as config check lists it, from the printable config: what runs, where, with what (secrets are references or hidden, never values). */
function upstreamLine(entry: UpstreamConfig): string {
  const tools = `${prefixOf(entry)}_*`;
  if (!entry.enabled) return `${entry.name} (${tools}): disabled`;
  if (entry.url !== undefined) return `${entry.name} (${tools}): ${entry.url}, ${entry.start}`;
  const folders = entry.folders.map((f) => (typeof f === 'string' ? f : `${f.path}${f.readOnly ? ' (read-only)' : ''}`));
  const sandbox = entry.sandbox
    ? `sandboxed, folders: ${folders.join(', ') || 'none'}, network ${entry.network ? 'on' : 'off'}`
    : 'NOT sandboxed (sandbox: false)';
  return `${entry.name} (${tools}): ${[entry.command, ...entry.args].join(' ')}, ${entry.start}, ${sandbox}`;
}

/** What "serve --http" refuses before listening, with its own message: the server settings, the app folder, then the token file it would read. */
function httpRefusal(config: Readonly<Config>): string | null {
  const refusal = httpStartRefusal(config.server);
  if (refusal) return refusal.message;
  try {
    secureAppFolder(stateDir(), { repair: false });
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

/** The fingerprint of the tools this config exposes, as serve would list them. */
async function contractOf(config: Readonly<Config>, configFile: string): Promise<ContractFingerprint> {
  const adapter = createLocalAdapter();
  try {
    return createServerFactory({ config, adapter, logger: silentLogger, protectedFiles: protectedPaths(configFile) }).contract();
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
  if (!fs.existsSync(file)) say(`${file} does not exist yet: defaults apply until it does (${cliHint('config init')} creates it)`);
  return print(file);
}

async function configInit(cli: CliOverrides, options: InitOptions): Promise<number> {
  const file = configPathFor({ cli });
  if (fs.existsSync(file) && !options.force) {
    say(`${file} already exists; edit it, or pass --force to replace it`);
    return EXIT.config;
  }
  const flagged = options.roots.length > 0 || options.readOnlyRoots.length > 0 || options.commands.length > 0 || !process.stdin.isTTY;
  const answers = flagged ? options : { ...options, ...(await askInitAnswers({ input: process.stdin, output: process.stderr, kind })) };
  const roots = checkFolders(answers.roots, os.homedir(), kind);
  if ('error' in roots) return usageError(`--root: ${roots.error}`);
  const readOnlyRoots = checkFolders(answers.readOnlyRoots, os.homedir(), kind);
  if ('error' in readOnlyRoots) return usageError(`--read-only-root: ${readOnlyRoots.error}`);
  const programs = checkPrograms(answers.commands);
  if ('error' in programs) return usageError(`--command: ${programs.error}`);
  // The token stays where it is: a replaced file's server.token is carried over, else the token file keeps serving.
  const keptToken = fileToken(file) ?? undefined;
  const value: ConfigInput = {
    ...(keptToken ? { server: { token: keptToken } } : {}),
    filesystem: {
      write: flagged ? answers.write : roots.ok.length > 0,
      roots: [...roots.ok, ...readOnlyRoots.ok.map((p) => ({ path: p, readOnly: true }))],
    },
    ...(programs.ok.length ? { shell: { enabled: true, allowedCommands: programs.ok } } : {}),
  };
  let saved;
  try {
    saved = await saveConfig(file, value);
  } catch (error) {
    say((error as Error).message);
    return EXIT.config;
  }
  say(`wrote ${file} (readable only by you)`);
  say(tokenNote(saved, keptToken !== undefined));
  for (const warning of configWarnings(saved, { kind, platform: process.platform })) say(`warning: ${warning}`);
  return print(file);
}

/** Where the token clients use lives after init: init never changes it. */
function tokenNote(config: Readonly<Config>, kept: boolean): string {
  if (process.env.CHATGPT_MCP_TOKEN) return 'the token stays the one CHATGPT_MCP_TOKEN sets';
  if (kept) return 'the token stays the one the replaced file held (server.token): clients keep working';
  let bearer;
  try {
    bearer = existingBearerToken(config, stateDir());
  } catch (error) {
    return `warning: ${(error as Error).message}`;
  }
  if (bearer === null) return `server.auth is "${config.server.auth}": no bearer token is used`;
  if (bearer === 'to-create') return `the first start creates the token; ${cliHint('token show')} prints it`;
  return `the token stays the one in ${bearer.file}: clients set up before keep working (${cliHint('token show')} prints it)`;
}

function kind(target: string): 'directory' | 'other' | 'missing' {
  try {
    return fs.statSync(target).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}
