/**
 * The one tunnel orchestrator, for the tray and for `chatgpt-mcp tunnel start`: whether the
 * owner wants the tunnel, the supervisor that runs it, and the facts each step of the journey
 * shows (client, identity, key, state). It follows the server: a running server (re)starts a
 * wanted tunnel with the server's URL and token, a paused, stopped or failed server stops it,
 * and quitting stops it for good. Tunnel settings (id, client file) are read from the config at
 * each connect; the CLI adds its flags and the environment (`choices`). Electron-free: the
 * tray injects its safeStorage store.
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import { downloadClient, DownloadError } from './download.js';
import { keyShapeDoubt, normalizeRuntimeKey, readKey, type SecretStore } from './secret-store.js';
import { chooseRuntimeKey, chooseTunnelId, findUsableClient, lookUpClient, versionEnv, type ClientSearch } from './setup.js';
import {
  stoppedStatus,
  type KeySaveResult,
  type KeyStorageInfo,
  type TunnelActionResult,
  type TunnelClientLookup,
  type TunnelDownloadResult,
  type TunnelSnapshot,
  type TunnelStatus,
} from './status.js';
import { TunnelSupervisor, type SupervisorTiming } from './supervisor.js';
import { describeClient, type FoundClient } from './locate.js';
import { TRAY_WORDS, type TunnelWords } from './wording.js';

export interface TunnelControllerDeps {
  /** The saved config, read fresh (throws on an invalid file). */
  readConfig(): Readonly<Config>;
  appDir: string;
  env: NodeJS.ProcessEnv;
  port: PolicyPort;
  protectedFiles: string[];
  /** Where a key is stored (first) and looked for (in order). */
  keyStores: () => Promise<SecretStore[]>;
  logger: Logger;
  timing?: Partial<SupervisorTiming>;
  /** For tests only: a loopback stand-in for GitHub. */
  downloadSources?: { api: string; downloads: string };
  /** What the owner does next, in their words (default: the tray's). */
  words?: TunnelWords;
  /** What the CLI adds to the config: its flags, and CONTROL_PLANE_TUNNEL_ID / CONTROL_PLANE_API_KEY from `env` (the tray ignores its environment). */
  choices?: { tunnelId?: string | undefined; clientPath?: string | undefined; fromEnvironment?: boolean };
}

/** The server as the tunnel follows it (the tray's ServerStatus is one). */
export type ServerState = { state: 'running'; url: string } | { state: 'starting' | 'paused' | 'stopped' | 'error' };

/** Everything a start needs, or why it cannot start: 'settings' (id, key) or 'client' (the program). */
export type TunnelPlan =
  | { ok: true; tunnelId: string; tunnelIdSource: string; key: string; keySource: string; keyWarning: string | null; client: FoundClient }
  | { ok: false; stage: 'settings' | 'client'; error: string };

type Listener = (snapshot: TunnelSnapshot) => void;

export class TunnelController {
  private supervisor: TunnelSupervisor | null = null;
  private unsubscribe: (() => void) | null = null;
  private wanted = false;
  private server: { url: string; token: string | null } | null = null;
  private lastStatus: TunnelStatus = stoppedStatus();
  private keyInfo: KeyStorageInfo = { stored: false, where: '', warning: null };
  private readonly listeners = new Set<Listener>();
  private queue: Promise<unknown> = Promise.resolve();
  private quitting = false;

  constructor(private readonly deps: TunnelControllerDeps) {}

  get snapshot(): TunnelSnapshot {
    let tunnelId: string | null = null;
    try {
      tunnelId = this.deps.readConfig().tunnel.tunnelId ?? null;
    } catch {
      // an invalid file is reported by the server's status
    }
    return { wanted: this.wanted, status: this.supervisor?.status ?? this.lastStatus, key: this.keyInfo, tunnelId };
  }

  /** The runtime key and token, for redacting anything shown (activity, logs). */
  secrets: string[] = [];

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refreshes where the key is (for the window), without reading it out. */
  async refreshKeyInfo(): Promise<KeyStorageInfo> {
    const stores = await this.deps.keyStores();
    const found = await readKey(stores).catch(() => null);
    const where = found?.store ?? stores[0]!;
    this.keyInfo = { stored: Boolean(found), where: where.where, warning: where.warning };
    this.emit();
    return this.keyInfo;
  }

  async setKey(input: string): Promise<KeySaveResult> {
    let key: string;
    try {
      key = normalizeRuntimeKey(input);
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
    const doubt = keyShapeDoubt(key);
    if (doubt)
      return { ok: false, error: `That does not look like an OpenAI API key: ${doubt}. Paste the key the OpenAI Platform showed when you created it.` };
    const [store] = await this.deps.keyStores();
    try {
      await store!.set(key);
    } catch (error) {
      return { ok: false, error: `Could not store the key in ${store!.where}: ${(error as Error).message}` };
    }
    this.deps.logger.info('tunnel runtime key stored', { where: store!.where });
    return { ok: true, key: await this.refreshKeyInfo() };
  }

  async forgetKey(): Promise<KeyStorageInfo> {
    for (const store of await this.deps.keyStores()) await store.delete().catch(() => false);
    return this.refreshKeyInfo();
  }

  /** Step 1: the client the saved config (or `clientPath`, not yet saved) would use. */
  lookUp(clientPath?: string): Promise<TunnelClientLookup> {
    return lookUpClient(this.search(this.deps.readConfig(), clientPath ?? this.deps.choices?.clientPath));
  }

  async download(): Promise<TunnelDownloadResult> {
    try {
      await downloadClient({
        appDir: this.deps.appDir,
        env: versionEnv(this.deps.env),
        ...(this.deps.downloadSources ? { sources: this.deps.downloadSources } : {}),
      });
    } catch (error) {
      if (error instanceof DownloadError) return { ok: false, error: error.message };
      throw error;
    }
    return { ok: true, lookup: await this.lookUp() };
  }

  /** The owner pressed Connect: wanted from now on; starts when the server runs. */
  connect(): Promise<TunnelActionResult> {
    return this.serialize(async () => {
      if (this.quitting) return { ok: false, error: 'The app is quitting.', snapshot: this.snapshot };
      this.wanted = true;
      if (!this.server) {
        this.lastStatus = stoppedStatus(null, 'Waiting for the server to run.');
        this.emit();
        return { ok: true, snapshot: this.snapshot };
      }
      return this.launch();
    });
  }

  /** The owner pressed Disconnect (or Stop). */
  disconnect(): Promise<TunnelActionResult> {
    return this.serialize(async () => {
      this.wanted = false;
      await this.halt(null);
      return { ok: true, snapshot: this.snapshot };
    });
  }

  /** The server changed: follow it. */
  serverChanged(status: ServerState, token: string | null): Promise<void> {
    return this.serialize(async () => {
      if (status.state === 'running') {
        const changed = this.server?.url !== status.url || this.server?.token !== token;
        this.server = { url: status.url, token };
        if (this.wanted && (changed || !this.supervisor?.active)) await this.launch();
      } else if (status.state !== 'starting') {
        this.server = null;
        await this.halt(this.wanted ? `The server is ${status.state === 'error' ? 'not running' : status.state}; ChatGPT reconnects when it runs.` : null);
      }
    }).then(() => undefined);
  }

  /** App quit: stop the client and refuse to start another. */
  quit(): Promise<void> {
    this.quitting = true;
    return this.serialize(async () => {
      this.wanted = false;
      await this.halt(null);
    }).then(() => undefined);
  }

  /** The tunnel id, the runtime key and the client a start would use, each from where the owner put it. */
  async prepare(): Promise<TunnelPlan> {
    let config: Readonly<Config>;
    try {
      config = this.deps.readConfig();
    } catch {
      return { ok: false, stage: 'settings', error: `The config file is invalid; ${this.words.fixConfig}.` };
    }
    const choices = this.deps.choices ?? {};
    const env = choices.fromEnvironment ? this.deps.env : {};
    const tunnelId = chooseTunnelId(config, choices.tunnelId, env, this.words);
    if (!tunnelId.ok) return { ok: false, stage: 'settings', error: tunnelId.error };
    const key = await chooseRuntimeKey(await this.deps.keyStores(), env, this.words);
    if (!key.ok) return { ok: false, stage: 'settings', error: key.error };
    const client = await findUsableClient(this.search(config, choices.clientPath));
    if (!client.ok) return { ok: false, stage: 'client', error: client.error };
    // Asked for its version first: another program (/bin/true) is refused before it is run as the client.
    const described = await describeClient(client.found, versionEnv(this.deps.env));
    if (!described.ok) return { ok: false, stage: 'client', error: described.error };
    return {
      ok: true,
      tunnelId: tunnelId.tunnelId,
      tunnelIdSource: tunnelId.source,
      key: key.key,
      keySource: key.source,
      keyWarning: key.warning,
      client: client.found,
    };
  }

  private async launch(): Promise<TunnelActionResult> {
    const plan = await this.prepare();
    if (!plan.ok) return this.fail(plan.error);
    const server = this.server!;
    const clientPath = plan.client.found;
    if (!this.supervisor || this.supervisorPath !== clientPath) {
      await this.halt(null);
      this.unsubscribe?.();
      this.supervisor = new TunnelSupervisor({
        clientPath,
        runDir: this.deps.appDir,
        baseEnv: this.deps.env,
        logger: this.deps.logger,
        timing: this.deps.timing,
        words: this.words,
      });
      this.supervisorPath = clientPath;
      this.unsubscribe = this.supervisor.onChange(() => this.emit());
    }
    this.secrets = [plan.key, ...(server.token ? [server.token] : [])];
    this.deps.logger.info('starting the tunnel client', { client: clientPath, tunnelId: plan.tunnelId, key: plan.keySource });
    await this.supervisor.start({ tunnelId: plan.tunnelId, apiKey: plan.key, serverUrl: server.url, token: server.token });
    return { ok: true, snapshot: this.snapshot };
  }

  private supervisorPath: string | null = null;

  private async fail(error: string): Promise<TunnelActionResult> {
    await this.halt(null);
    this.lastStatus = { ...stoppedStatus(), state: 'error', reason: error };
    this.emit();
    return { ok: false, error, snapshot: this.snapshot };
  }

  private async halt(reason: string | null): Promise<void> {
    if (this.supervisor) {
      await this.supervisor.stop(reason);
      this.lastStatus = this.supervisor.status;
    } else {
      this.lastStatus = stoppedStatus(null, reason);
    }
    this.emit();
  }

  private search(config: Readonly<Config>, clientPath?: string): ClientSearch {
    return {
      config,
      appDir: this.deps.appDir,
      clientPath,
      env: this.deps.env,
      port: this.deps.port,
      protectedFiles: this.deps.protectedFiles,
      words: this.words,
    };
  }

  private get words(): TunnelWords {
    return this.deps.words ?? TRAY_WORDS;
  }

  private emit(): void {
    const snapshot = this.snapshot;
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // a broken listener must not break the connection
      }
    }
  }

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
