/**
 * The steps before a tunnel can start, shared by the tray app and `chatgpt-mcp tunnel`: which
 * client program (found, allowed by the policy, asked for its version), which tunnel id, and
 * which runtime key from which store. Each step fails with a sentence the owner can act on.
 */
import path from 'node:path';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { TUNNEL_ID_PATTERN, type Config } from '../config/schema.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { tunnelClientRefusal } from '../policy/tunnel-client.js';
import { buildTunnelEnv } from './child-env.js';
import { describeClient, locateClient, type FoundClient } from './locate.js';
import { readKey, type SecretStore } from './secret-store.js';
import { LINKS, type TunnelClientLookup } from './status.js';
import { TRAY_WORDS, type TunnelWords } from './wording.js';

export interface ClientSearch {
  config: Readonly<Config>;
  appDir: string;
  /** Overrides config.tunnel.clientPath (the CLI's --client). */
  clientPath?: string | undefined;
  env: NodeJS.ProcessEnv;
  port: PolicyPort;
  /** The config file and app folders, protected from the tools (as the server protects them). */
  protectedFiles: string[];
  /** Default: the tray's. */
  words?: TunnelWords;
}

export type UsableClient = { ok: true; found: FoundClient } | { ok: false; error: string; searched: string[] };

/** The client to run: found, and not inside anything the model's tools may write. */
export async function findUsableClient(search: ClientSearch): Promise<UsableClient> {
  const found = await locateClient({
    configured: search.clientPath ?? search.config.tunnel.clientPath,
    appDir: search.appDir,
    searchPath: search.env.PATH ?? search.env.Path,
    words: search.words ?? TRAY_WORDS,
  });
  if ('error' in found) return { ok: false, error: found.error, searched: found.searched };
  const files = new FilesystemPolicy(search.config.filesystem, search.port, { protectedFiles: search.protectedFiles });
  const refusal = await tunnelClientRefusal(files, found, search.port.platform === 'win32' ? path.win32.dirname : path.posix.dirname);
  if (refusal) return { ok: false, error: refusal, searched: [found.found] };
  return { ok: true, found };
}

/** Step 1 as the owner sees it: where the client is and its version. */
export async function lookUpClient(search: ClientSearch): Promise<TunnelClientLookup> {
  const usable = await findUsableClient(search);
  if (!usable.ok) return usable;
  return describeClient(usable.found, versionEnv(search.env));
}

/** A short environment for `--version` and `doctor` runs, without any secret. */
export function versionEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const built = buildTunnelEnv({ base: env, tunnelId: '', apiKey: '', serverUrl: '', token: null, healthListenAddr: '', healthUrlFile: '' });
  for (const name of ['CONTROL_PLANE_TUNNEL_ID', 'CONTROL_PLANE_API_KEY', 'MCP_SERVER_URL', 'HEALTH_LISTEN_ADDR', 'HEALTH_URL_FILE']) delete built[name];
  return built;
}

export type TunnelIdChoice = { ok: true; tunnelId: string; source: string } | { ok: false; error: string };

/** The tunnel id from the flag, else CONTROL_PLANE_TUNNEL_ID, else the config. */
export function chooseTunnelId(config: Readonly<Config>, flag: string | undefined, env: NodeJS.ProcessEnv, words: TunnelWords = TRAY_WORDS): TunnelIdChoice {
  const [value, source] = flag
    ? [flag, '--tunnel-id']
    : env.CONTROL_PLANE_TUNNEL_ID
      ? [env.CONTROL_PLANE_TUNNEL_ID, 'CONTROL_PLANE_TUNNEL_ID']
      : [config.tunnel.tunnelId, 'tunnel.tunnelId in the config'];
  if (!value) return { ok: false, error: `No tunnel id: create a tunnel at ${LINKS.tunnels} and ${words.setTunnelId}.` };
  if (!TUNNEL_ID_PATTERN.test(value))
    return { ok: false, error: `The tunnel id from ${source} is not one: expected tunnel_ followed by 32 lowercase letters or digits.` };
  return { ok: true, tunnelId: value, source };
}

export type KeyChoice = { ok: true; key: string; source: string; warning: string | null } | { ok: false; error: string };

/** The runtime key from CONTROL_PLANE_API_KEY (for service managers), else the first store holding one. */
export async function chooseRuntimeKey(stores: readonly SecretStore[], env: NodeJS.ProcessEnv, words: TunnelWords = TRAY_WORDS): Promise<KeyChoice> {
  if (env.CONTROL_PLANE_API_KEY) return { ok: true, key: env.CONTROL_PLANE_API_KEY, source: 'CONTROL_PLANE_API_KEY', warning: null };
  let found;
  try {
    found = await readKey(stores);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (!found)
    return {
      ok: false,
      error: `No runtime key stored: create one with Tunnels Read + Use at ${LINKS.apiKeys}, then ${words.saveKey}.`,
    };
  return { ok: true, key: found.key, source: found.store.where, warning: found.store.warning };
}
