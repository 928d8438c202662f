/**
 * Tool pinning: what the owner accepted of each upstream's tools, so a tool that changes later
 * (the "rug pull": a harmless description swapped for instructions, a schema that now asks for
 * more) is held until the owner accepts it again.
 *
 * The first time an upstream is seen, its tools are pinned as they are (the owner just added
 * it). From then on a tool whose name, title, description, schemas, annotations or _meta hash
 * differently, and a tool that was not there before, is held: not exposed, recorded with what it
 * is now, until `accept` (the tray, or `chatgpt-mcp gateway accept NAME`). The accepted
 * definitions double as the catalog a lazy upstream's tools are listed from before it runs.
 *
 * One owner-only JSON file in the app folder (like main/auth's state), written atomically and
 * read again when another process (the CLI) changed it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { withStateLock } from '../config/state-lock.js';
import { canonicalJson } from '../canonical-json.js';
import { acceptedFrom, acceptItems, heldItems, stillListed, type AcceptedCatalog, type Catalog, type HeldEntry } from './catalog-pins.js';
import { checkedCatalog, checkedViews } from './catalog-check.js';
import { heldViewMessage, type ViewContent } from './view-pins.js';
import { nestedDeeperThan } from './json-depth.js';

export const PINS_FILE = 'gateway-pins.json';
/** How stale the pins another process wrote may be when read here. */
const REFRESH_MS = 200;

/** What is pinned of a tool: everything a model reads of it or sends to it. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface PinnedTool {
  hash: string;
  definition: ToolDefinition;
  acceptedAt: string;
}

export interface HeldTool {
  hash: string;
  definition: ToolDefinition;
  /** "changed": differs from the accepted one; "new": not there when the owner accepted the others. */
  reason: 'changed' | 'new';
  seenAt: string;
}

export interface UpstreamPins {
  tools: Record<string, PinnedTool>;
  held: Record<string, HeldTool>;
  catalog?: Catalog;
  /** The prompts and resource templates the owner accepted (catalog-pins.ts). */
  acceptedCatalog?: AcceptedCatalog;
}

interface PinFile {
  version: 1;
  /** Which toolHash the hashes are (absent: 1, before `_meta` counted); read files are brought to this one. */
  hashes?: typeof HASHES;
  servers: Record<string, UpstreamPins>;
}

const HASHES = 2;

export function pinsPath(appDir: string): string {
  return path.join(appDir, PINS_FILE);
}

/**
 * sha256 of the definition with its keys sorted, so key order never counts as a change. All of
 * it counts, `_meta` too: a host may show or act on what is there (an MCP Apps view, say).
 */
export function toolHash(definition: ToolDefinition): string {
  const { name, title, description, inputSchema, outputSchema, annotations, _meta } = definition;
  return sha256(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations, _meta }));
}

/** The first toolHash, without `_meta`: what pin files written before it was counted hold. */
function firstToolHash({ name, title, description, inputSchema, outputSchema, annotations }: ToolDefinition): string {
  return sha256(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations }));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A file of first hashes brought to the current ones: a tool whose hash is still that of the
 * definition kept with it is hashed again from that definition, so what the owner accepted stays
 * accepted, `_meta` included, and a tool whose `_meta` changed since is held. A hash that does
 * not match its definition (edited by hand) is left, and so never matches a live tool.
 */
function withCurrentHashes(file: PinFile): PinFile {
  if (file.hashes === HASHES) return file;
  for (const pins of Object.values(file.servers)) {
    for (const kept of [...Object.values(pins.tools ?? {}), ...Object.values(pins.held ?? {})]) {
      if (kept.hash === firstToolHash(kept.definition)) kept.hash = toolHash(kept.definition);
    }
  }
  return { ...file, hashes: HASHES };
}

/**
 * Without what no walk of it could take or no session could serve (json-depth.ts,
 * catalog-check.ts), which an earlier version stored: one such item made every listing fail,
 * after every restart, until the file was deleted by hand.
 */
function withoutUnusable(file: PinFile): PinFile {
  for (const pins of Object.values(file.servers)) {
    for (const kept of [pins.tools ?? {}, pins.held ?? {}])
      for (const [name, pin] of Object.entries(kept)) if (nestedDeeperThan(pin.definition)) delete kept[name];
    if (pins.catalog) pins.catalog = { ...pins.catalog, ...checkedCatalog(pins.catalog, () => {}), views: checkedViews(pins.catalog.views) };
    if (pins.acceptedCatalog) {
      const { prompts, resourceTemplates } = checkedCatalog(pins.acceptedCatalog, () => {});
      pins.acceptedCatalog = { prompts, resourceTemplates, views: checkedViews(pins.acceptedCatalog.views) };
    }
  }
  return file;
}

/** What the owner is shown of a held entry (its name and what it is now), to accept only that. */
export function heldFingerprint(held: HeldEntry): string {
  return sha256(canonicalJson({ name: held.name, now: held.now }));
}

/** What comparing an upstream's tools with its pins decided. */
export interface Verdict {
  /** Exposed: the live definition, identical to what was accepted. */
  exposed: ToolDefinition[];
  /** Held until the owner accepts them. */
  held: Array<HeldTool & { name: string }>;
}

export class PinStore {
  private data: PinFile = { version: 1, hashes: HASHES, servers: {} };
  /** Which version of the file is loaded: every atomic write makes a new inode. */
  private loaded = '';
  private checkedAt = -Infinity;

  constructor(readonly file: string) {}

  /** Which version of the pins is in use (changes whenever they do, in this process or another). */
  stamp(): string {
    this.refresh();
    return this.loaded;
  }

  /** The accepted hash of one tool (no copy: asked on every call). */
  acceptedHash(upstream: string, tool: string): string | undefined {
    this.refresh();
    return this.data.servers[upstream]?.tools[tool]?.hash;
  }

  /** The pins of one upstream (a copy), reading the file again when it changed. */
  pins(upstream: string): UpstreamPins | undefined {
    this.refresh();
    const pins = this.data.servers[upstream];
    return pins && structuredClone(pins);
  }

  /**
   * Compares what the upstream lists now with its pins; pins it all on first sight, holds what
   * changed or is new, and forgets tools it no longer lists. Writes the file when anything changed.
   */
  review(upstream: string, tools: readonly ToolDefinition[], now = new Date()): Promise<Verdict> {
    return this.locked(() => this.reviewed(upstream, tools, now));
  }

  private async reviewed(upstream: string, tools: readonly ToolDefinition[], now: Date): Promise<Verdict> {
    const at = now.toISOString();
    const known = this.data.servers[upstream];
    const hashed = tools.map((definition) => ({ definition, hash: toolHash(definition) }));
    if (!known) {
      this.data.servers[upstream] = {
        tools: Object.fromEntries(hashed.map(({ definition, hash }) => [definition.name, { hash, definition, acceptedAt: at }])),
        held: {},
      };
      await this.save();
      return { exposed: tools.map((t) => t), held: [] };
    }
    const verdict: Verdict = { exposed: [], held: [] };
    const held: Record<string, HeldTool> = {};
    let changed = false;
    for (const { definition, hash } of hashed) {
      const pinned = known.tools[definition.name];
      if (pinned?.hash === hash) {
        verdict.exposed.push(definition);
        continue;
      }
      const before = known.held[definition.name];
      const entry: HeldTool = { hash, definition, reason: pinned ? 'changed' : 'new', seenAt: before?.hash === hash ? before.seenAt : at };
      held[definition.name] = entry;
      verdict.held.push({ name: definition.name, ...entry });
      if (before?.hash !== hash) changed = true;
    }
    const listed = new Set(tools.map((t) => t.name));
    for (const name of Object.keys(known.tools)) if (!listed.has(name)) changed = (delete known.tools[name], true);
    if (Object.keys(known.held).some((name) => !held[name])) changed = true;
    known.held = held;
    if (changed) await this.save();
    return verdict;
  }

  /**
   * Keeps what the upstream lists besides tools. Its prompts and templates are held as its tools
   * are: the first catalog (or, in a file from before they were pinned, the one kept then) is
   * accepted as it is.
   */
  setCatalog(upstream: string, catalog: Catalog): Promise<void> {
    return this.locked(() => this.catalogSet(upstream, catalog));
  }

  private async catalogSet(upstream: string, catalog: Catalog): Promise<void> {
    const known = this.data.servers[upstream];
    if (!known) return;
    const accepted = stillListed(catalog, known.acceptedCatalog ?? acceptedFrom(known.catalog ?? catalog));
    if (canonicalJson([known.catalog, known.acceptedCatalog]) === canonicalJson([catalog, accepted])) return;
    known.catalog = catalog;
    known.acceptedCatalog = accepted;
    await this.save();
  }

  /**
   * A read of a view, compared with what the owner accepted (view-pins.ts): null to serve it, or
   * why not. One that reads differently from its last read is kept as it reads now, so the owner
   * is shown the difference to accept.
   */
  viewRead(upstream: string, uri: string, content: ViewContent): Promise<string | null> {
    return this.locked(() => this.viewChecked(upstream, uri, content));
  }

  private async viewChecked(upstream: string, uri: string, content: ViewContent): Promise<string | null> {
    const known = this.data.servers[upstream];
    const listed = known?.catalog?.views?.find((view) => view.uri === uri);
    if (!known?.catalog?.views || !listed) return 'is not one it lists, so the owner could not accept it: a view is served only as listed and accepted';
    if (canonicalJson(listed.content) !== canonicalJson(content)) {
      const views = known.catalog.views.map((view) => (view === listed ? { ...view, content } : view));
      await this.catalogSet(upstream, { ...known.catalog, views });
    }
    const now = this.data.servers[upstream];
    const accepted = (now?.acceptedCatalog?.views ?? now?.catalog?.views)?.find((view) => view.uri === uri);
    return canonicalJson(accepted?.content) === canonicalJson(content) ? null : heldViewMessage(upstream);
  }

  /** What of the upstream waits for the owner: held tools, then held prompts and templates, each as accepted and as now. */
  held(upstream: string): HeldEntry[] {
    this.refresh();
    const known = this.data.servers[upstream];
    if (!known) return [];
    const tools = Object.entries(known.held).map(([name, held]): HeldEntry => {
      const before = known.tools[name]?.definition;
      return { name, reason: held.reason, ...(before ? { before } : {}), now: held.definition, seenAt: held.seenAt };
    });
    return [...tools, ...heldItems(known.catalog, known.acceptedCatalog)];
  }

  /**
   * Accepts everything of the upstream that is held (or only what is named `name`); returns what
   * was accepted. `seen`: the fingerprints (heldFingerprint) of what the owner was shown; anything to accept
   * that changed since (the upstream answered again meanwhile) is refused, and nothing accepted.
   */
  accept(upstream: string, name?: string, now = new Date(), seen?: readonly string[]): Promise<HeldEntry[]> {
    return this.locked(() => this.accepted(upstream, name, now, seen));
  }

  private async accepted(upstream: string, name: string | undefined, now: Date, seen: readonly string[] | undefined): Promise<HeldEntry[]> {
    const known = this.data.servers[upstream];
    if (!known) return [];
    const accepted = this.held(upstream).filter((held) => name === undefined || held.name === name);
    const unseen = seen ? accepted.filter((held) => !seen.includes(heldFingerprint(held))) : [];
    if (unseen.length > 0)
      throw new Error(
        `${unseen.map((held) => held.name).join(', ')} ${unseen.length === 1 ? 'is' : 'are'} not as shown (changed since, or not among what was shown): read the change again before you accept it`,
      );
    for (const tool of Object.keys(known.held).filter((tool) => name === undefined || tool === name)) {
      const { hash, definition } = known.held[tool]!;
      known.tools[tool] = { hash, definition, acceptedAt: now.toISOString() };
      delete known.held[tool];
    }
    known.acceptedCatalog = acceptItems(known.catalog, known.acceptedCatalog, name) ?? known.acceptedCatalog;
    if (accepted.length > 0) await this.save();
    return accepted;
  }

  /** Forgets an upstream entirely: its tools are pinned afresh the next time it is seen. */
  forget(upstream: string): Promise<boolean> {
    return this.locked(async () => {
      if (!this.data.servers[upstream]) return false;
      delete this.data.servers[upstream];
      await this.save();
      return true;
    });
  }

  /**
   * A change, made to the file as it is now and written before any other process's (the servers,
   * the tray and the CLI share it): under its lock, read again first. Two accepts at once both
   * kept, where the last write used to win.
   */
  private locked<T>(change: () => Promise<T>): Promise<T> {
    return withStateLock(
      this.file,
      () => {
        this.refresh(true);
        return change();
      },
      (lock) => new Error(`the gateway's pin file is locked (${lock}); if no chatgpt-mcp server or command is running, delete the lock file`),
    );
  }

  /**
   * Reads the file again when another process changed it. Asked on every call: another process's
   * accept is seen within REFRESH_MS, without a stat per call. A change (`beforeWriting`) looks at
   * once, so it is made to what is there now: one made to a copy up to REFRESH_MS old would undo
   * another process's accept (red team: an upstream's alternating view, written on each read).
   */
  private refresh(beforeWriting = false): void {
    const now = Date.now();
    if (!beforeWriting && now - this.checkedAt < REFRESH_MS) return;
    this.checkedAt = now;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      return;
    }
    if (stampOf(stat) === this.loaded) return;
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw new Error(`the gateway's pin file ${this.file} can be read or written by other users; run "chmod 600 ${this.file}"`);
    }
    const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as PinFile;
    if (parsed?.version !== 1 || typeof parsed.servers !== 'object') throw new Error(`the gateway's pin file ${this.file} is not one this version reads`);
    this.data = withCurrentHashes(withoutUnusable(parsed));
    this.loaded = stampOf(stat);
  }

  private async save(): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify(this.data, null, 2) + '\n');
    this.loaded = stampOf(fs.statSync(this.file));
  }
}

function stampOf(stat: fs.Stats): string {
  return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
}
