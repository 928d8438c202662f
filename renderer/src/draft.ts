/**
 * The settings being edited, and how they map to and from the config file. The draft is the
 * config's shape with two conveniences for editing: roots are always {path, readOnly}, and
 * desktop apps are an ordered list with their names (the file keeps a name-keyed map).
 * Validation is the shared config schema itself; its issues are keyed by field for display.
 */
import { configSchema, type CheckLevel, type Config } from '../../main/config/schema.js';
import { formatBytes, formatDuration } from './format.js';

export interface DraftRoot {
  path: string;
  readOnly: boolean;
}

export interface DraftApp {
  name: string;
  path: string;
  args: string[];
  allowExtraArgs: boolean;
}

/** A gateway.servers entry, kept as the file has it (the Gateway page edits a few keys, the rest survive a save). */
export type DraftUpstream = Record<string, unknown> & { name: string };
/** One check of a project: a name, its argv, its level ('auto': by its name). */
export interface DraftCheck {
  name: string;
  command: string[];
  level: CheckLevel | 'auto';
}

export interface DraftProject {
  path: string;
  checks: DraftCheck[];
}

export interface Draft {
  $schema?: string;
  server: Omit<Config['server'], 'token'> & { token: string };
  filesystem: Omit<Config['filesystem'], 'roots'> & { roots: DraftRoot[] };
  shell: Config['shell'];
  process: Config['process'];
  desktop: Omit<Config['desktop'], 'apps'> & { apps: DraftApp[] };
  services: Config['services'];
  system: Config['system'];
  download: Config['download'];
  chatgpt: Config['chatgpt'];
  tunnel: Omit<Config['tunnel'], 'tunnelId' | 'clientPath'> & { tunnelId: string; clientPath: string };
  gateway: { servers: DraftUpstream[] };
  updates: Config['updates'];
  git: Config['git'];
  checks: Omit<Config['checks'], 'projects'> & { projects: DraftProject[] };
  undo: Config['undo'];
  /** The token's profile: '' for the active one (the file leaves profiles.token out). */
  profiles: Omit<Config['profiles'], 'token'> & { token: string };
}

/** Field key → message. Keys are dotted config paths, with app entries by list index. */
export type FieldErrors = Map<string, string>;

type Raw = Record<string, unknown>;

const DEFAULTS: Config = configSchema.parse({});

export function defaultDraft(): Draft {
  return toDraft({});
}

/**
 * Builds an editable draft from the file's raw JSON (which may be partial or invalid). Every
 * key the schema knows is filled from the file or the default, generically, so settings this
 * window has no control for yet still survive a save.
 */
export function toDraft(raw: Raw | null): Draft {
  const file = raw ?? {};
  const defaults = DEFAULTS as unknown as Record<string, Raw>;
  const sections: Record<string, Raw> = {};
  for (const [name, sectionDefaults] of Object.entries(defaults)) sections[name] = overlay(sectionDefaults, section(file, name));
  const server = section(file, 'server');
  const fsRaw = section(file, 'filesystem');
  const desktop = section(file, 'desktop');
  sections.server!.token = typeof server.token === 'string' ? server.token : '';
  sections.filesystem!.roots = Array.isArray(fsRaw.roots) ? fsRaw.roots.map(toRoot) : [];
  sections.desktop!.apps = Object.entries(section(desktop, 'apps')).map(([name, value]) => toApp(name, value));
  const tunnel = section(file, 'tunnel');
  sections.tunnel!.tunnelId = str(tunnel.tunnelId, '');
  sections.tunnel!.clientPath = str(tunnel.clientPath, '');
  const gateway = section(file, 'gateway');
  sections.gateway!.servers = Array.isArray(gateway.servers) ? gateway.servers.filter((e): e is DraftUpstream => typeof e === 'object' && e !== null) : [];
  sections.profiles!.token = str(section(file, 'profiles').token, '');
  const projects = section(file, 'checks').projects;
  sections.checks!.projects = Array.isArray(projects) ? projects.map(toProject) : [];
  const draft = sections as unknown as Draft;
  if (typeof file.$schema === 'string') draft.$schema = file.$schema;
  return draft;
}

/** The section's defaults with the file's values on top, coerced to the default's kind. */
function overlay(defaults: Raw, raw: Raw): Raw {
  const out: Raw = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const value = raw[key];
    if (value === undefined) out[key] = structuredClone(fallback);
    else if (typeof fallback === 'number') out[key] = num(value, fallback);
    else if (typeof fallback === 'boolean') out[key] = bool(value, fallback);
    else if (typeof fallback === 'string') out[key] = str(value, fallback);
    else if (Array.isArray(fallback)) out[key] = strings(value);
    else out[key] = value;
  }
  return out;
}

/** The object written to the file (still to be validated): every section the schema knows, in its order. */
export function toConfig(draft: Draft): Raw {
  const { token, ...server } = draft.server;
  const { apps, ...desktop } = draft.desktop;
  const { token: tokenProfile, ...profiles } = draft.profiles;
  const shaped: Raw = {
    profiles: { ...profiles, ...(tokenProfile ? { token: tokenProfile } : {}) },
    server: { ...server, ...(token ? { token } : {}) },
    filesystem: { ...draft.filesystem, roots: draft.filesystem.roots.map((r) => ({ path: r.path, readOnly: r.readOnly })) },
    desktop: { ...desktop, apps: Object.fromEntries(apps.map((a) => [a.name, { path: a.path, args: a.args, allowExtraArgs: a.allowExtraArgs }])) },
    checks: { ...draft.checks, projects: draft.checks.projects.map(fromProject) },
    tunnel: {
      connectAtStart: draft.tunnel.connectAtStart,
      ...(draft.tunnel.tunnelId ? { tunnelId: draft.tunnel.tunnelId } : {}),
      ...(draft.tunnel.clientPath ? { clientPath: draft.tunnel.clientPath } : {}),
    },
  };
  const sections = draft as unknown as Record<string, Raw>;
  const out: Raw = draft.$schema !== undefined ? { $schema: draft.$schema } : {};
  // Sections without a special shape are copied as they are, so none is dropped on save (chatgpt, and any added later).
  for (const name of Object.keys(DEFAULTS)) out[name] = shaped[name] ?? { ...sections[name] };
  return out;
}

/** The config sections whose saved and edited values differ. */
export function changedSections(draft: Draft, baseline: Draft): string[] {
  const a = toConfig(draft);
  const b = toConfig(baseline);
  return Object.keys(DEFAULTS).filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name]));
}

export function sameSettings(a: Draft, b: Draft): boolean {
  return JSON.stringify(toConfig(a)) === JSON.stringify(toConfig(b));
}

/** Every problem that blocks saving, keyed by field. */
export function validateDraft(draft: Draft): FieldErrors {
  const errors: FieldErrors = new Map();
  const seen = new Map<string, number>();
  draft.desktop.apps.forEach((app, index) => {
    if (seen.has(app.name)) errors.set(`desktop.apps.${index}.name`, 'another app already has this name');
    seen.set(app.name, index);
  });
  const result = configSchema.safeParse(toConfig(draft));
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = fieldKey(issue.path, draft);
    if (!errors.has(key)) errors.set(key, humanize(key, issue));
    if (key === 'server.maxRequestBytes' && issue.code === 'custom') {
      errors.set(
        'filesystem.maxWriteBytes',
        `must be smaller than the largest request the server accepts (${formatBytes(draft.server.maxRequestBytes)}, under Connection › Advanced)`,
      );
    }
  }
  return errors;
}

/** Issues reported for the saved file (by the main process) as field errors. */
export function issuesToErrors(issues: { path: (string | number)[]; message: string }[], draft: Draft): FieldErrors {
  return new Map(issues.map((issue) => [fieldKey(issue.path, draft), issue.message]));
}

/** Optional keys: absent from the defaults, still known (and kept on save). */
const OPTIONAL_KEYS = new Set(['server.token', 'tunnel.tunnelId', 'tunnel.clientPath']);

/** Keys in the file this version does not know; saving drops them. */
export function unknownKeys(raw: Raw | null): string[] {
  if (!raw) return [];
  const known = DEFAULTS as unknown as Record<string, Record<string, unknown>>;
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (name === '$schema') continue;
    if (!(name in known)) {
      unknown.push(name);
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const key of Object.keys(value)) if (!(key in known[name]!) && !OPTIONAL_KEYS.has(`${name}.${key}`)) unknown.push(`${name}.${key}`);
    }
  }
  return unknown;
}

export function fieldKey(path: readonly PropertyKey[], draft: Draft): string {
  const parts = path.map((p) => String(p));
  if (parts[0] === 'desktop' && parts[1] === 'apps' && parts[2] !== undefined) {
    const index = draft.desktop.apps.findIndex((app) => app.name === parts[2]);
    if (index >= 0) return ['desktop', 'apps', String(index), ...(parts.length > 3 ? parts.slice(3) : ['name'])].join('.');
  }
  return parts.join('.');
}

interface IssueLike {
  code: string;
  message: string;
  path: readonly PropertyKey[];
  minimum?: unknown;
  maximum?: unknown;
  expected?: unknown;
  origin?: unknown;
  inclusive?: unknown;
  /** invalid_key (a bad record key) carries the key's own issues. */
  issues?: readonly { message: string }[];
}

function humanize(key: string, issue: IssueLike): string {
  if (key === 'server.port') return 'enter a port number from 0 to 65535';
  const asValue = (n: unknown) =>
    typeof n !== 'number' ? String(n) : key.endsWith('Bytes') ? formatBytes(n) : key.endsWith('Ms') ? formatDuration(n) : String(n);
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'number' ? 'enter a number' : issue.message;
    case 'invalid_key':
      return issue.issues?.[0]?.message ?? issue.message;
    case 'too_big':
      return issue.origin === 'number' ? `must be at most ${asValue(issue.maximum)}` : issue.message;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      if (issue.origin !== 'number') return issue.message;
      return issue.inclusive === false ? `must be more than ${asValue(issue.minimum)}` : `must be at least ${asValue(issue.minimum)}`;
    default:
      return issue.message;
  }
}

function section(raw: Raw, name: string): Raw {
  const value = raw[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {};
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function num(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value === undefined ? fallback : Number.NaN;
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function toProject(value: unknown): DraftProject {
  const p = typeof value === 'object' && value !== null ? (value as Raw) : {};
  const checks = Object.entries(section(p, 'checks')).map(([name, entry]): DraftCheck => {
    if (Array.isArray(entry)) return { name, command: strings(entry), level: 'auto' };
    const e = typeof entry === 'object' && entry !== null ? (entry as Raw) : {};
    const level = e.level === 'fast' || e.level === 'normal' || e.level === 'strict' ? e.level : 'auto';
    return { name, command: strings(e.command), level };
  });
  return { path: str(p.path, ''), checks };
}

function fromProject(project: DraftProject): Raw {
  const checks = Object.fromEntries(project.checks.map((c) => [c.name, c.level === 'auto' ? c.command : { command: c.command, level: c.level }]));
  return { path: project.path, checks };
}

function toRoot(value: unknown): DraftRoot {
  if (typeof value === 'string') return { path: value, readOnly: false };
  const r = typeof value === 'object' && value !== null ? (value as Raw) : {};
  return { path: str(r.path, ''), readOnly: bool(r.readOnly, false) };
}

function toApp(name: string, value: unknown): DraftApp {
  const a = typeof value === 'object' && value !== null ? (value as Raw) : {};
  return { name, path: str(a.path, ''), args: strings(a.args), allowExtraArgs: bool(a.allowExtraArgs, false) };
}
