/**
 * The tray's server state machine: stopped -> starting -> running <-> paused, with error as
 * the landing state of any failed start. It loads the saved config and starts the same HTTP
 * server as the CLI through injected functions, so it runs (and is tested) under plain Node.
 *
 * Operations are serialized: a restart clicked during a start waits for it, and no two
 * listeners are ever open at once. Pausing closes the listener, so nothing executes while
 * paused; resuming listens again with the config already in effect, and only restart
 * re-reads the saved file.
 */
import type { Config } from '../config/schema.js';
import type { KeyPath, ServerStatus } from './bridge-api.js';

/** A listening server, as the lifecycle needs it. */
export interface Listening {
  url: string;
  /** The contract fingerprint, and what changed since the last start (a sentence), when known. */
  contract?: { sha256: string; change: string | null };
  close(): Promise<void>;
}

export interface LifecycleDeps {
  /** Reads and validates the saved config; throws on anything invalid. */
  loadConfig(): Readonly<Config>;
  /** Starts listening with this config. */
  listen(config: Readonly<Config>): Promise<Listening>;
  /** Number of tools the config exposes (for the status line). */
  toolCount(config: Readonly<Config>): number;
  /** Turns a load or listen failure into a message and, when known, the config field at fault. */
  explain(error: unknown): { message: string; field: KeyPath | null };
}

type Listener = (status: ServerStatus) => void;

export class ServerLifecycle {
  private current: ServerStatus = { state: 'stopped' };
  private loaded: Readonly<Config> | null = null;
  private running: Listening | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<Listener>();

  constructor(private readonly deps: LifecycleDeps) {}

  get status(): ServerStatus {
    return this.current;
  }

  /** The config the server is running (or paused) with; null before a successful load. */
  get config(): Readonly<Config> | null {
    return this.loaded;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Loads the saved config and listens. From running, same as restart. */
  start(): Promise<ServerStatus> {
    return this.serialize(async () => {
      await this.close();
      return this.loadAndListen();
    });
  }

  restart(): Promise<ServerStatus> {
    return this.start();
  }

  pause(): Promise<ServerStatus> {
    return this.serialize(async () => {
      if (this.current.state !== 'running') return this.current;
      const url = this.current.url;
      await this.close();
      return this.set({ state: 'paused', url });
    });
  }

  resume(): Promise<ServerStatus> {
    return this.serialize(async () => {
      if (this.current.state !== 'paused' || !this.loaded) return this.current;
      return this.listenWith(this.loaded);
    });
  }

  stop(): Promise<ServerStatus> {
    return this.serialize(async () => {
      await this.close();
      return this.set({ state: 'stopped' });
    });
  }

  private async loadAndListen(): Promise<ServerStatus> {
    this.set({ state: 'starting' });
    let config: Readonly<Config>;
    try {
      config = this.deps.loadConfig();
    } catch (error) {
      this.loaded = null;
      return this.set({ state: 'error', ...this.deps.explain(error) });
    }
    this.loaded = config;
    return this.listenWith(config);
  }

  private async listenWith(config: Readonly<Config>): Promise<ServerStatus> {
    if (this.current.state !== 'starting') this.set({ state: 'starting' });
    try {
      this.running = await this.deps.listen(config);
    } catch (error) {
      return this.set({ state: 'error', ...this.deps.explain(error) });
    }
    const contract = this.running.contract;
    return this.set({
      state: 'running',
      url: this.running.url,
      toolCount: this.deps.toolCount(config),
      auth: Boolean(config.server.token),
      ...(contract ? { contract } : {}),
    });
  }

  private async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (running) await running.close();
  }

  private set(status: ServerStatus): ServerStatus {
    this.current = status;
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch {
        // a broken listener must not break the lifecycle
      }
    }
    return status;
  }

  private serialize(operation: () => Promise<ServerStatus>): Promise<ServerStatus> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
