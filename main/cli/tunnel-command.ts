/**
 * `chatgpt-mcp tunnel start | status | doctor | set-key | forget-key | download`: the tray's
 * ChatGPT connection without Electron. `start` runs the server and the supervised tunnel
 * client in the foreground until Ctrl+C (or SIGTERM) stops both. The runtime key comes from
 * the OS keyring or the owner-only file (or CONTROL_PLANE_API_KEY), the tunnel id from
 * --tunnel-id, CONTROL_PLANE_TUNNEL_ID or the config; the key is never a flag.
 */
import path from 'node:path';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { CliOverrides, LoadedConfig } from '../config/load.js';
import { downloadClient, DownloadError, type DownloadFailure } from '../tunnel/download.js';
import { fetchReadyz } from '../tunnel/readiness.js';
import { fileStore, headlessStore, keyShapeDoubt, normalizeRuntimeKey, type SecretStore } from '../tunnel/secret-store.js';
import { chooseRuntimeKey, chooseTunnelId, lookUpClient, versionEnv, type ClientSearch } from '../tunnel/setup.js';
import { readTunnelState, removeTunnelState, writeTunnelState } from '../tunnel/state-file.js';
import { tunnelStatusLine } from '../tunnel/status.js';
import { TunnelController } from '../tunnel/tunnel-controller.js';
import { cliWords } from '../tunnel/wording.js';
import { cliHint } from '../command-name.js';
import { doctor } from './tunnel-doctor.js';
import { createLogger } from '../log.js';
import { EXIT, MAX_SECRET_BYTES, print, readStdin, say, untilSignal, usageError, withConfig } from './io.js';
import { openOrExit } from './serve.js';
import { protectedPaths, stateDir } from '../host/places.js';

const NO_DOWNLOAD: ReadonlySet<DownloadFailure> = new Set(['network', 'unsupported']);
const USE_YOURS = 'Pass a tunnel-client you have with --client FILE, or set tunnel.clientPath in the config.';

/** `tunnel start` ends with this when the tunnel client cannot run with these settings. */
export const EXIT_TUNNEL = 3;

export interface TunnelFlags {
  tunnelId?: string | undefined;
  client?: string | undefined;
  /** set-key: store a key that does not look like an OpenAI API key. */
  force?: boolean | undefined;
}

export function tunnelCommand(sub: string | undefined, cli: CliOverrides, flags: TunnelFlags): number | Promise<number> {
  switch (sub) {
    case 'start':
      return withConfig(cli, (loaded) => start(loaded, flags));
    case 'status':
      return withConfig(cli, (loaded) => status(loaded, flags));
    case 'doctor':
      return withConfig(cli, async (loaded) =>
        doctor(loaded, { tunnelIdFlag: flags.tunnelId, stores: await keyStores(), search: clientSearch(loaded, flags) }),
      );
    case 'set-key':
      return setKey(flags.force === true);
    case 'forget-key':
      return forgetKey();
    case 'download':
      return download();
    default:
      return usageError(`unknown tunnel command "${sub ?? ''}"; expected "tunnel start", "status", "doctor", "set-key", "forget-key" or "download"`);
  }
}

/** Where the key may be: the keyring when it answers, and always the owner-only file. */
async function keyStores(): Promise<SecretStore[]> {
  const appDir = stateDir();
  const primary = await headlessStore({ appDir });
  return primary.warning ? [primary] : [primary, fileStore(appDir)];
}

function clientSearch({ config, path: configPath }: LoadedConfig, flags: TunnelFlags): ClientSearch {
  const env = process.env;
  return {
    config,
    appDir: stateDir(),
    clientPath: flags.client && path.resolve(flags.client),
    env,
    port: createLocalAdapter().inspect,
    protectedFiles: protectedPaths(configPath),
    words: cliWords(),
  };
}

async function start(loaded: LoadedConfig, flags: TunnelFlags): Promise<number> {
  const appDir = stateDir();
  const logger = createLogger(loaded.config.server.logLevel);
  const tunnel = new TunnelController({
    readConfig: () => loaded.config,
    appDir,
    env: process.env,
    port: createLocalAdapter().inspect,
    protectedFiles: protectedPaths(loaded.path),
    keyStores,
    logger,
    words: cliWords(),
    choices: { tunnelId: flags.tunnelId, clientPath: flags.client && path.resolve(flags.client), fromEnvironment: true },
  });
  // Checked before the server listens: a tunnel that cannot run leaves nothing listening.
  const plan = await tunnel.prepare();
  if (!plan.ok) return fail(plan.error, plan.stage === 'client' ? EXIT_TUNNEL : EXIT.config);
  if (plan.keyWarning) say(`warning: ${plan.keyWarning}`);

  const server = await openOrExit(loaded, { transport: 'http', logger, extraSecrets: [plan.key] });
  if (typeof server === 'number') return server;
  let fatal: (() => void) | null = null;
  const failed = new Promise<void>((resolve) => (fatal = resolve));
  // One write at a time, in order, so the last state written is the last state.
  let writes = Promise.resolve();
  const unsubscribe = tunnel.onChange(({ status }) => {
    server.logger.info('tunnel', {
      state: status.state,
      ...(status.reason ? { reason: status.reason } : {}),
      ...(status.healthUrl ? { ui: `${status.healthUrl}/ui` } : {}),
    });
    const { log: _log, ...rest } = status;
    const record = { supervisorPid: process.pid, serverUrl: server.url!, status: rest, updatedAt: new Date().toISOString() };
    writes = writes.then(() => writeTunnelState(appDir, record)).catch(() => undefined);
    // Nothing runs and nothing will: the client refused its settings, or cannot be started.
    if (status.state === 'error' && status.pid === null) fatal?.();
  });
  await tunnel.serverChanged({ state: 'running', url: server.url! }, server.token);
  const connected = await tunnel.connect();
  const outcome = connected.ok ? await Promise.race([untilSignal().then(() => 'signal' as const), failed.then(() => 'failed' as const)]) : 'failed';
  server.logger.info('shutting down');
  const last = tunnel.snapshot.status;
  await tunnel.quit();
  unsubscribe();
  await server.close();
  await writes;
  removeTunnelState(appDir);
  if (outcome === 'failed') {
    const reason = last.reason ?? (connected.ok ? 'unknown error' : connected.error);
    say(`the tunnel cannot run: ${reason}${reason.includes('tunnel doctor') ? '' : ` (${cliHint('tunnel doctor')} checks every part)`}`);
    return EXIT_TUNNEL;
  }
  return EXIT.ok;
}

async function status(loaded: LoadedConfig, flags: TunnelFlags): Promise<number> {
  const { config } = loaded;
  const lines: string[] = [];
  const tunnelId = chooseTunnelId(config, flags.tunnelId, process.env, cliWords());
  lines.push(`tunnel id:     ${tunnelId.ok ? `${tunnelId.tunnelId} (from ${tunnelId.source})` : tunnelId.error}`);
  const key = await chooseRuntimeKey(await keyStores(), process.env, cliWords());
  lines.push(`runtime key:   ${key.ok ? `stored in ${key.source}` : key.error}`);
  if (key.ok && key.warning) lines.push(`               warning: ${key.warning}`);
  const client = await lookUpClient(clientSearch(loaded, flags));
  lines.push(`tunnel client: ${client.ok ? `${client.client.path} (${client.client.version}; ${client.client.source})` : client.error}`);
  const running = readTunnelState(stateDir());
  if (!running) {
    lines.push(`connection:    not running here (${cliHint('tunnel start')} runs it; the tray app shows its own)`);
  } else {
    const live = running.status.healthUrl ? await fetchReadyz(running.status.healthUrl) : null;
    lines.push(`connection:    ${tunnelStatusLine(running.status)} (tunnel start, pid ${running.supervisorPid})`);
    lines.push(`server:        ${running.serverUrl}`);
    if (running.status.healthUrl) lines.push(`client UI:     ${running.status.healthUrl}/ui (readyz now: ${live ? live.body : 'no answer'})`);
    if (running.status.toolCount !== null) lines.push(`tools:         ${running.status.toolCount} listed through the tunnel's headers`);
  }
  return print(lines.join('\n'));
}

async function setKey(force: boolean): Promise<number> {
  let key: string;
  try {
    key = normalizeRuntimeKey(await readSecretInput('Paste the runtime key (input hidden), then press Enter: '));
  } catch (error) {
    return fail((error as Error).message, EXIT.usage);
  }
  const doubt = keyShapeDoubt(key);
  if (doubt && !force) {
    return fail(
      `that does not look like an OpenAI API key: ${doubt}. Nothing was stored. Paste the key the OpenAI Platform showed when you created it; if OpenAI's keys look different now, run ${cliHint('tunnel set-key --force')} to store it anyway.`,
      EXIT.usage,
    );
  }
  if (doubt) say(`warning: storing it anyway (--force), though ${doubt}`);
  const store = await headlessStore({ appDir: stateDir() });
  try {
    await store.set(key);
  } catch (error) {
    return fail(`Cannot store the runtime key in ${store.where}: ${(error as Error).message}`, 1);
  }
  say(`the runtime key is stored in ${store.where}`);
  if (store.warning) say(`warning: ${store.warning}`);
  return EXIT.ok;
}

async function forgetKey(): Promise<number> {
  let removed = false;
  for (const store of await keyStores()) removed = (await store.delete().catch(() => false)) || removed;
  say(removed ? 'the runtime key is removed' : 'no runtime key was stored');
  return EXIT.ok;
}

async function download(): Promise<number> {
  say('downloading the latest tunnel-client release from GitHub (openai/tunnel-client)');
  try {
    const installed = await downloadClient({ appDir: stateDir(), env: versionEnv(process.env) });
    say(`${installed.asset} matches the release's SHA-256 (${installed.sha256})`);
    say(`installed ${installed.path}: ${installed.version}`);
    return print(installed.path);
  } catch (error) {
    // Where no download can help, the way to a client the owner has, in headless words.
    if (error instanceof DownloadError) return fail(`${error.message}${NO_DOWNLOAD.has(error.reason) ? ` ${USE_YOURS}` : ''}`, 1);
    throw error;
  }
}

/** The key from stdin: typed without echo on a terminal, or piped (never an argument). */
async function readSecretInput(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return readStdin(MAX_SECRET_BYTES);
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      stdin.on('data', (chunk: Buffer) => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n') return resolve(typed);
          if (char === '\u0003') return reject(new Error('Cancelled.'));
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
          else typed += char;
        }
      });
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}

function fail(message: string, code: number): number {
  say(message);
  return code;
}
