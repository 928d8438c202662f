/**
 * The rules for one gateway upstream (gateway.servers[i]), the owner's other MCP server:
 *
 * - its process: the program the owner named, found on the server's PATH (refused inside a root
 *   tools can write, where a tool could replace it), run in the command sandbox with its own
 *   world: its folders read-write or read-only, its network on or off, the display only when the
 *   entry and desktop.hostDisplayAccess both allow it, the owner's home hidden but for its folders
 *   and its program's own files, and this app's files and the secret places hidden as from every
 *   command (fs-rules.ts). Its environment is built from nothing: PATH, LANG, a HOME and TMPDIR
 *   in its private temp folder, and what its entry declares;
 * - its calls: arguments its tools declare as paths (by schema format or name, or the owner's
 *   list) must lie in its folders, checked with the same filesystem policy, and the same
 *   PATH_NOT_ALLOWED words, as the built-in tools;
 * - its tools: which are exposed (exclusions), and their annotations (missing hints filled in the
 *   cautious direction, the owner's kinds over everything).
 */
import os from 'node:os';
import nodePath from 'node:path';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { PeerRequest } from '../../adapter/contract/processes.js';
import { adapterError } from '../../adapter/contract/errors.js';
import type { Config, ToolKind, UpstreamConfig } from '../config/schema.js';
import { FilesystemPolicy } from './filesystem.js';
import { inHome } from './home-path.js';
import { SandboxPolicy, SandboxUnavailableError } from './sandbox.js';
import { excludedBy } from './tool-exclusion.js';

const posix = nodePath.posix;
const op = 'gateway.start';

/** Argument names that hold a path (or a list of them), whatever the schema says. */
const PATH_NAMES =
  /^(?:paths?|files?|file_?paths?|file_?names?|dir|dirs|directory|directories|folder|folders|source|destination|src|dest|target|root|cwd)$|(?:Path|_path|Paths|_paths|Dir|_dir|Directory|_directory|File|_file)$/;
const PATH_FORMATS = new Set(['path', 'file-path', 'filepath', 'directory', 'dir-path']);

type Port = PolicyPort;
/** An MCP tool's behaviour hints (its `annotations`), as the protocol names them. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}
type Schema = { type?: unknown; format?: unknown; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[] };

export const KIND_ANNOTATIONS: Readonly<Record<ToolKind, ToolAnnotations>> = Object.freeze({
  'read-only': { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  'local-state': { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  'open-world': { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
});

export class UpstreamPolicy {
  /** The upstream's folders as roots: path arguments are checked here. */
  readonly files: FilesystemPolicy;
  private readonly sandbox: SandboxPolicy | null = null;
  /** Why it cannot run sandboxed here (it then does not start, unless its entry says sandbox: false). */
  readonly sandboxProblem: string | null = null;
  private readonly excluded: (name: string) => boolean;

  constructor(
    readonly entry: UpstreamConfig,
    private readonly config: Readonly<Config>,
    private readonly port: Port,
    /** The config in use and this app's folders: hidden from every upstream as from every command. */
    protectedFiles: readonly string[],
    /** The server's own roots: a program inside a writable one could be replaced by a tool. */
    private readonly serverFiles: FilesystemPolicy,
  ) {
    const roots = entry.folders.map((f) => (typeof f === 'string' ? { path: f, readOnly: false } : f));
    this.files = new FilesystemPolicy({ ...config.filesystem, read: true, write: true, roots }, port, { protectedFiles: [...protectedFiles] });
    this.excluded = excludedBy(entry);
    if (entry.url !== undefined || !entry.sandbox) return;
    const shell = { ...config.shell, enabled: true, sandbox: 'workspace' as const, network: entry.network ? ('on' as const) : ('off' as const) };
    const desktop = { ...config.desktop, hostDisplayAccess: entry.display && config.desktop.hostDisplayAccess };
    try {
      this.sandbox = new SandboxPolicy({ shell, desktop, filesystem: { ...config.filesystem, write: true, roots } }, this.files, port, {
        expose: this.ownPlaces(),
      });
    } catch (error) {
      if (!(error instanceof SandboxUnavailableError)) throw error;
      this.sandboxProblem = error.message.replace(/shell\.sandbox is "workspace"/, 'upstreams run sandboxed').replace(/; or set shell\.sandbox.*$/, '');
    }
  }

  /** Not exposed: the owner excluded it by name or by a part of its name, or named the only ones exposed and not it. */
  isExcluded(tool: string): boolean {
    return this.excluded(tool);
  }

  /** The upstream's hints, missing ones filled cautiously (destructive, open world), the owner's kind over all. */
  annotations(tool: string, upstream: ToolAnnotations | undefined): ToolAnnotations {
    const kind = this.entry.tools.kinds[tool];
    const title = upstream?.title === undefined ? {} : { title: upstream.title };
    if (kind) return { ...title, ...KIND_ANNOTATIONS[kind], ...(upstream?.idempotentHint === undefined ? {} : { idempotentHint: upstream.idempotentHint }) };
    const readOnly = upstream?.readOnlyHint === true;
    return {
      ...title,
      readOnlyHint: readOnly,
      destructiveHint: readOnly ? false : (upstream?.destructiveHint ?? true),
      idempotentHint: upstream?.idempotentHint ?? false,
      openWorldHint: upstream?.openWorldHint ?? true,
    };
  }

  /** The argument names of a tool that hold paths: by its schema's `format` or their name, and the owner's list. */
  pathArguments(tool: string, inputSchema: unknown): string[] {
    const properties = (inputSchema as Schema | undefined)?.properties ?? {};
    const named = Object.entries(properties)
      .filter(([name, schema]) => {
        const leaf = typesOf(schema)?.includes('array') ? schema?.items : schema;
        return (typeof leaf?.format === 'string' && PATH_FORMATS.has(leaf.format)) || (PATH_NAMES.test(name) && mayHoldText(schema));
      })
      .map(([name]) => name);
    return [...new Set([...named, ...(this.entry.tools.pathArguments[tool] ?? [])])];
  }

  /**
   * Every path in those arguments must lie in the upstream's folders (read access for a
   * read-only tool, write otherwise): PATH_NOT_ALLOWED as from a built-in tool. Relative paths
   * are taken from its working folder (its first folder without one), as the upstream would;
   * `~/` from the home folder; a `file:` URI in any spelling by its path. Paths nested in those
   * arguments (lists, objects) count, and so do values under a path-like name anywhere inside
   * an argument (`{"options": {"path": ...}}`).
   */
  async checkPaths(tool: string, names: readonly string[], args: Record<string, unknown>, readOnly: boolean): Promise<void> {
    // An HTTP upstream's paths name another machine's files: that machine's server decides.
    if (this.entry.url !== undefined) return;
    const operation = `${this.entry.name}.${tool}`;
    const base = this.entry.cwd ?? firstFolder(this.entry);
    for (const [name, item] of pathValues(args, new Set(names), operation)) {
      const path = filePath(item, operation, name);
      const absolute = posix.isAbsolute(path) || !base ? path : posix.join(base, path);
      if (this.entry.folders.length === 0) {
        throw adapterError(
          'PATH_NOT_ALLOWED',
          operation,
          `${item} (argument "${name}"): the upstream ${this.entry.name} has no folders (gateway.servers: folders)`,
        );
      }
      await this.files.resolve(absolute, readOnly ? 'read' : 'write', operation);
    }
  }

  /** What the adapter starts: the program found and checked, its environment, its sandbox (or the reason it cannot start). */
  async plan(env: Readonly<Record<string, string>>): Promise<PeerRequest> {
    const entry = this.entry;
    if (entry.command === undefined) throw adapterError('INVALID_INPUT', op, `${entry.name} is an HTTP upstream; it has no process`);
    if (entry.sandbox && !this.sandbox) {
      throw adapterError(
        'PRECONDITION_FAILED',
        op,
        `${this.sandboxProblem ?? 'no sandbox here'}; or set "sandbox": false on ${entry.name} to run it with your full rights`,
      );
    }
    const base = this.port.baseEnvironment();
    const found = await this.port.findExecutable(entry.command, base.PATH ?? base.Path);
    if (!found) throw adapterError('NOT_FOUND', op, `${entry.name}: the program "${entry.command}" was not found on the server's PATH`);
    for (const candidate of [found.found, found.real, ...(found.links ?? [])]) {
      if (
        await this.serverFiles.resolve(candidate, 'write', op).then(
          () => true,
          () => false,
        )
      ) {
        throw adapterError('COMMAND_NOT_ALLOWED', op, `${entry.name}: its program ${candidate} lies in a folder tools can write, so a tool could replace it`);
      }
    }
    if (this.sandbox) await this.refuseLinkedPlaces();
    const sandbox = await this.sandbox?.plan({ file: found.real, found: found.found, cwd: entry.cwd });
    const temp = sandbox?.tempDir;
    const own: Record<string, string> = {
      ...(base.PATH ? { PATH: base.PATH } : {}),
      ...(base.LANG ? { LANG: base.LANG } : {}),
      ...(temp ? { HOME: temp, TMPDIR: temp } : base.HOME ? { HOME: base.HOME } : {}),
      ...(sandbox?.display ? displayEnvironment(base) : {}),
    };
    return { file: found.real, args: [...entry.args], ...(entry.cwd ? { cwd: entry.cwd } : {}), env: { ...own, ...env }, ...(sandbox ? { sandbox } : {}) };
  }

  /**
   * Where its program's own files are, to be seen (read-only) while the home folder is hidden:
   * the folder of its command and of its first absolute argument (the script an interpreter
   * runs), and for any argument inside node_modules, the outermost node_modules (a package needs
   * its dependencies beside it). Not the folder of other arguments: `server ~/notes/sub` would
   * show all of ~/notes; what it may see of your files is its `folders`.
   */
  private ownPlaces(): string[] {
    const entry = this.entry;
    const script = entry.args.find((value) => posix.isAbsolute(value));
    const places: string[] = [];
    for (const value of [entry.command, ...entry.args]) {
      if (!value || !posix.isAbsolute(value)) continue;
      const modules = value.indexOf('/node_modules/');
      if (modules >= 0) places.push(value.slice(0, modules + '/node_modules'.length));
      else if (value === entry.command || value === script) places.push(posix.dirname(value));
    }
    return places;
  }

  /**
   * Refuses to start when a folder it is given (its folders, working folder, program places) is
   * reached through a link lying inside one of its writable folders: the upstream itself could
   * have made that link on an earlier run, to have the next plan mount ~/.config/autostart, say.
   */
  private async refuseLinkedPlaces(): Promise<void> {
    const writable = this.entry.folders.flatMap((f) => (typeof f === 'string' ? [f] : f.readOnly ? [] : [f.path])).map((f) => posix.normalize(f));
    const places = [...this.entry.folders.map((f) => (typeof f === 'string' ? f : f.path)), this.entry.cwd, ...this.ownPlaces()];
    for (const place of places) {
      if (!place || !posix.isAbsolute(place)) continue;
      const parts = posix.normalize(place).split('/').filter(Boolean);
      for (let i = 1; i <= parts.length; i++) {
        const prefix = `/${parts.slice(0, i).join('/')}`;
        if (!writable.some((folder) => prefix.startsWith(`${folder}/`))) continue;
        if ((await this.port.lstat(prefix))?.type === 'symlink')
          throw adapterError(
            'PATH_NOT_ALLOWED',
            op,
            `${this.entry.name}: ${place} is reached through the link ${prefix}, inside a folder it can write, so it could have made that link itself; it does not start until the link is gone (or its entry names the real folder)`,
          );
      }
    }
  }
}

/** Deeper than this, arguments are refused: their paths could not all be looked at. */
const MAX_ARGUMENT_DEPTH = 64;

/** The string values a call gives as paths: under a path argument (however nested), or under a path-like name anywhere. */
function pathValues(value: unknown, names: ReadonlySet<string>, operation: string, name = '', isPath = false, depth = 0): Array<[string, string]> {
  if (typeof value === 'string') return isPath && value !== '' ? [[name, value]] : [];
  if (value === null || typeof value !== 'object') return [];
  if (depth > MAX_ARGUMENT_DEPTH)
    throw adapterError('INVALID_INPUT', operation, `argument "${name}" is nested deeper than ${MAX_ARGUMENT_DEPTH} levels, too deep to check the paths in it`);
  if (Array.isArray(value)) return value.flatMap((item) => pathValues(item, names, operation, name, isPath, depth + 1));
  return Object.entries(value).flatMap(([key, item]) =>
    pathValues(item, names, operation, depth === 0 ? key : `${name}.${key}`, isPath || (depth === 0 ? names.has(key) : PATH_NAMES.test(key)), depth + 1),
  );
}

/** A path as given: `file:` URIs in any spelling (FILE:/x, file://localhost/x) by their path, `~/` from the home folder. */
function filePath(item: string, operation: string, name: string): string {
  if (/^file:/i.test(item)) {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw adapterError('INVALID_INPUT', operation, `${item} (argument "${name}") is not a valid file: URI`);
    }
    if (url.hostname !== '' && url.hostname !== 'localhost')
      throw adapterError('PATH_NOT_ALLOWED', operation, `${item} (argument "${name}") names a file on another host`);
    return decodeURIComponent(url.pathname);
  }
  return inHome(item, os.homedir()) ?? item;
}

/**
 * Whether a value under the schema can hold text: anything but numbers, booleans and null (or
 * lists of them). A type list (`["string", "null"]`, as generators write a nullable string), an
 * object and every anyOf/oneOf branch count, so no spelling of a string argument escapes the
 * check; a schema deeper than a few levels is taken to hold text.
 */
function mayHoldText(schema: Schema | undefined, depth = 0): boolean {
  if (schema === undefined || depth > 8) return true;
  const branches = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])];
  if (branches.some((branch) => mayHoldText(branch, depth + 1))) return true;
  const types = typesOf(schema);
  if (types === undefined) return branches.length === 0;
  return types.some((type) => type === 'string' || type === 'object' || (type === 'array' && mayHoldText(schema.items, depth + 1)));
}

/** A schema's `type` as a list (absent when it names none). */
function typesOf(schema: Schema | undefined): unknown[] | undefined {
  if (schema?.type === undefined) return undefined;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function firstFolder(entry: UpstreamConfig): string | undefined {
  const first = entry.folders[0];
  return typeof first === 'string' ? first : first?.path;
}

/** With display access: the variables that find the session (the sandbox shows its sockets). */
function displayEnvironment(base: Readonly<Record<string, string>>): Record<string, string> {
  const names = ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS'];
  return Object.fromEntries(names.filter((name) => base[name] !== undefined).map((name) => [name, base[name]!]));
}
