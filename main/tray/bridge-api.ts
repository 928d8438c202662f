/**
 * The contract between the settings window and the main process: the typed API the preload
 * exposes as `window.chatgptMcp`, and the data it carries. Types only, so the renderer, the
 * preload and the main process share it without pulling code across the boundary.
 */
import type { ConnectionsSnapshot, OwnerActionResult } from '../auth/connections.js';

export type { ConnectedClient, ConnectionsSnapshot, ConsentRequest, OwnerActionResult } from '../auth/connections.js';
import type { KeySaveResult, KeyStorageInfo, LinkId, TunnelActionResult, TunnelClientLookup, TunnelDownloadResult, TunnelSnapshot } from '../tunnel/status.js';
import type { DroppedGroup, GroupDetail, GroupSummary, UndoOutcome } from '../../adapter/contract/journal.js';
import type { CheckLevel } from '../config/schema.js';

export type { DroppedGroup, GroupDetail, GroupSummary, UndoOutcome } from '../../adapter/contract/journal.js';

/** The change groups the journal holds ("undo what the model changed"). */
export type UndoList = { ok: true; groups: GroupSummary[]; dropped: DroppedGroup[]; recording: boolean } | { ok: false; error: string };
export type UndoDetail = { ok: true; group: GroupDetail } | { ok: false; error: string };
export type UndoResult = { ok: true; outcome: UndoOutcome } | { ok: false; error: string };

/** A folder whose files suggest checks (package.json scripts, Cargo.toml...), for the owner to adopt. */
export interface DetectedProject {
  path: string;
  checks: Record<string, { command: string[]; level: CheckLevel }>;
}
export type DetectResult = { ok: true; projects: DetectedProject[] } | { ok: false; error: string };

export type KeyPath = (string | number)[];

/** A schema problem in the config, by key path (the shape main/config/save.ts reports). */
export interface ConfigIssue {
  path: KeyPath;
  message: string;
}

export type ServerStatus =
  | { state: 'starting' }
  | { state: 'running'; url: string; toolCount: number; auth: boolean; contract?: { sha256: string; change: string | null } }
  | { state: 'paused'; url: string }
  | { state: 'stopped' }
  | { state: 'error'; message: string; field: KeyPath | null };

/** One recorded call of the audit log, as the activity view lists it (redacted as the log is). */
export interface AuditRow {
  /** Unique in the log: the writer's chain and its line number. */
  key: string;
  time: string;
  tool: string;
  /** Who called, in words: an OAuth client's name and id, "bearer token", a host's name. */
  client: string;
  target: string;
  outcome: string;
  durationMs: number;
}

export type AuditSearchResult = { ok: true; rows: AuditRow[]; limit: number; folder: string } | { ok: false; error: string };

/** One tool call as the activity view shows it; never arguments' contents, output, env or tokens. */
export interface ActivityEntry {
  seq: number;
  /** ISO 8601 start time. */
  time: string;
  /** As the client called it (fs_read, or fs.read with server.toolNames "dotted"). */
  tool: string;
  /** A short, redacted summary of what the call targeted (a path, a command name). */
  target: string;
  /** Who made the call: the OAuth client's name, "bearer token", or null without authentication. */
  client: string | null;
  /** 'running' until it ends, then 'ok' or the stable error code. */
  outcome: string;
  durationMs: number | null;
}

export interface SettingsSnapshot {
  configPath: string;
  exists: boolean;
  /** The file's JSON object as written, to edit; null when missing, unreadable or not JSON. */
  config: Record<string, unknown> | null;
  /** Why the file could not be read as a JSON object (then `config` is null). */
  fileError: string | null;
  /** Schema problems in the file, by key path, so the window opens at the offending field. */
  issues: ConfigIssue[];
  homeDir: string;
  platform: string;
  status: ServerStatus;
  /** Environment variables overriding file values in the running server (names only). */
  overrides: string[];
  /** Where to open: set when the tray asked for a section or a failed start names a field. */
  navigate: NavigateRequest | null;
  /** The saved file differs from what the running (or paused) server uses: a restart is pending. */
  restartPending?: boolean;
}

/** The token clients must send, where it lives; null when the server takes none (OAuth, none). */
export interface TokenInUse {
  token: string | null;
  source: 'config' | 'environment' | 'file' | null;
  /** For the owner: where it is kept (or why there is none). */
  where: string;
}

export type TokenReplaceResult = { ok: true; token: string; source: 'config' | 'file'; status: ServerStatus } | { ok: false; error: string };

/** What is at a shared folder's path on this computer. */
export type FolderKind = 'directory' | 'other' | 'missing';

export type SaveResult = { ok: true; configPath: string } | { ok: false; issues: ConfigIssue[]; error: string };

export type ConnectionTestResult =
  { ok: true; url: string; toolCount: number; tools: string[]; durationMs: number } | { ok: false; url: string | null; error: string };

export interface ProcessRow {
  pid: number;
  ppid: number | null;
  user: string | null;
  command: string;
  args: string[];
  /** Ending is on and process.kill's rules allow this process now (the panel asked the policy). */
  endable: boolean;
  /** Why it cannot be ended although ending is on (pid 1, a kernel thread, this app, its parents...); else null. */
  protectedReason: string | null;
}

export type ProcessListResult =
  | {
      ok: true;
      processes: ProcessRow[];
      truncated: boolean;
      canKill: boolean;
      /** What may be ended, in the policy's words, while canKill; else null. */
      killable: string | null;
    }
  | { ok: false; error: string };

export type KillResult = { ok: true } | { ok: false; error: string };

export const KILL_SIGNALS = ['SIGTERM', 'SIGKILL'] as const;
export type KillSignal = (typeof KILL_SIGNALS)[number];

/** One upstream MCP server on the Gateway page. */
export interface UpstreamRow {
  name: string;
  prefix: string;
  /** running, starting, stopped, crashed, disabled, or "not running" while the server is not. */
  state: string;
  lastError: string | null;
  lastStderr: string | null;
  calls: number;
  failures: number;
  tools: number;
  /**
   * Tools, prompts, resource templates and views held since they changed (or appeared), each with
   * a unified diff of the change. `seen`: its fingerprint, sent back on accepting it, so what
   * changed again since is not accepted unseen. `label`: the name as shown, what could hide or
   * reorder it escaped (readable-json.ts).
   */
  held: Array<{ name: string; label: string; reason: 'changed' | 'new'; change: string; seen: string }>;
  refused: string[];
  /** Every tool it listed when last seen (accepted or held), by name, for the page's switches; `about`: the start of its description, escaped as `label` is. */
  known: Array<{ name: string; label: string; about: string }>;
}

export interface GatewaySnapshot {
  /** The server runs with these upstreams (otherwise the rows come from the saved config and the pins). */
  running: boolean;
  upstreams: UpstreamRow[];
}

export const SECTIONS = [
  'connection',
  'chatgpt',
  'files',
  'commands',
  'git',
  'processes',
  'desktop',
  'services',
  'gateway',
  'profiles',
  'activity',
  'clients',
] as const;
export type SectionId = (typeof SECTIONS)[number];

export interface NavigateRequest {
  section: SectionId;
  field?: KeyPath;
}

/** What the preload exposes on `window.chatgptMcp`. */
export interface SettingsBridge {
  load(): Promise<SettingsSnapshot>;
  save(config: Record<string, unknown>): Promise<SaveResult>;
  /** The token the running server takes (else the one its next start reads), and where it lives. */
  tokenInUse(): Promise<TokenInUse>;
  /** Makes a new token where the one in use lives and restarts the server: every client needs the new one. */
  replaceToken(): Promise<TokenReplaceResult>;
  /** What is at each path (shared folders the file tools would refuse while missing). */
  folderKinds(paths: string[]): Promise<FolderKind[]>;
  copyText(text: string): Promise<void>;
  pickFolder(): Promise<string | null>;
  testConnection(): Promise<ConnectionTestResult>;
  restartServer(): Promise<ServerStatus>;
  listActivity(): Promise<ActivityEntry[]>;
  /** The audit log's calls matching `terms` (tool=, client=, outcome=, since=, until=, words), newest first. */
  searchAudit(terms: string): Promise<AuditSearchResult>;
  listProcesses(match?: string): Promise<ProcessListResult>;
  killProcess(pid: number, signal: KillSignal): Promise<KillResult>;
  /** OAuth: connected clients and the requests waiting for the owner's approval. */
  listConnections(): Promise<ConnectionsSnapshot>;
  approveConnection(code: string): Promise<OwnerActionResult>;
  denyConnection(code: string): Promise<OwnerActionResult>;
  /** Forgets the client; its tokens stop working at the server's next request. */
  revokeClient(id: string): Promise<OwnerActionResult>;
  /** The Gateway page: each upstream's state, calls, last error and held tools (with what changed). */
  gatewayStatus(): Promise<GatewaySnapshot>;
  /** Accepts an upstream's held tools (or one of them): exposed from the running server's next listing. */
  gatewayAccept(name: string, tool: string | null, seen: string[]): Promise<{ ok: true; accepted: string[] } | { ok: false; error: string }>;
  /** Stores a value gateway entries refer to as {"secret": name} (the OS keyring, else an owner-only file); it never comes back. */
  gatewaySetSecret(name: string, value: string): Promise<{ ok: true; where: string } | { ok: false; error: string }>;
  /** Which of these secret names hold a value already (a pasted entry never refers to one); no value comes back. */
  gatewayStoredSecrets(names: string[]): Promise<string[]>;
  /** Tells the main process whether closing the window would discard edits. */
  setDirty(dirty: boolean): void;
  onStatus(listener: (status: ServerStatus) => void): () => void;
  onActivity(listener: (entry: ActivityEntry) => void): () => void;
  onNavigate(listener: (request: NavigateRequest) => void): () => void;
  onConnections(listener: (snapshot: ConnectionsSnapshot) => void): () => void;
  /** The ChatGPT section: the tunnel's state, key storage, client, and its actions. */
  tunnelStatus(): Promise<TunnelSnapshot>;
  tunnelConnect(): Promise<TunnelActionResult>;
  tunnelDisconnect(): Promise<TunnelActionResult>;
  /** The key goes to the OS secret store, never into the config or the draft. */
  tunnelSetKey(key: string): Promise<KeySaveResult>;
  tunnelForgetKey(): Promise<KeyStorageInfo>;
  /** Step 1 for the saved config, or for a file the owner picked and has not saved yet. */
  tunnelLookUp(clientPath?: string): Promise<TunnelClientLookup>;
  tunnelPickClient(): Promise<string | null>;
  tunnelDownload(): Promise<TunnelDownloadResult>;
  /** Opens one of the fixed OpenAI/ChatGPT pages in the browser. */
  openLink(link: LinkId): Promise<void>;
  onTunnel(listener: (snapshot: TunnelSnapshot) => void): () => void;
  /** Undo: the recorded change groups, one group's files and diffs, and putting it back. */
  listChanges(): Promise<UndoList>;
  showChanges(id: string): Promise<UndoDetail>;
  undoChanges(id: string): Promise<UndoResult>;
  /** The checks a folder's project files suggest (and those of the folders just below it). */
  detectChecks(path: string): Promise<DetectResult>;
}
