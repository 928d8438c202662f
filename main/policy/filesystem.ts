/**
 * The one filesystem policy: every fs tool and shell.exec's cwd go through
 * `resolve`, and nothing else decides whether a path may be touched.
 *
 * A request is normalized lexically (`..` cannot climb out of the text it was given), then
 * its real location is found through the adapter's port (symlinks anywhere in the path
 * followed; for a path that does not exist yet, the nearest existing ancestor) and that real
 * path must lie inside the real path of a configured root, on a whole-segment boundary.
 *
 * The answer is a GuardedPath: the adapter operates on the checked real path and, once it has
 * opened the object (or the directory it creates in), hands the kernel's view of where that
 * object really is back to `confirm`, which applies the same rules again. So the check holds
 * for the object actually used, even if another process swapped a directory for a symlink in
 * between (architecture rule 9; adapter/fs/opened-path.ts).
 *
 * Denials name what IS allowed (roots, writable roots, the protecting pattern) so a model does
 * not have to guess, and never carry config values beyond root paths and patterns.
 */
import type { Config } from '../config/schema.js';
import { adapterError } from '../../adapter/contract/errors.js';
import type { GuardedPath } from '../../adapter/contract/files.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { inputProblem, isInside, isRelativeInput, normalizeAbsolute, pathFlavor, relativeSegments, type Platform } from './path-compare.js';
import { compilePatterns, findAncestorMatch, findMatch, wholePath, type SecretPattern } from './secret-patterns.js';
import { foldedInside } from './path-fold.js';
import { describeRoot, RootList, type Root } from './fs-roots.js';
import { locatePath, type Located } from './path-locate.js';
import { activeRules, type ActiveRule, type RuleFacts } from './fs-rules.js';
import { LinkedPatterns } from './linked-patterns.js';
import { ProtectedPlaces } from './protected-places.js';

export type Access = 'read' | 'write';

export interface ResolvedPath extends GuardedPath {
  /** Absolute real path to operate on. For a path that does not exist yet: realpath of the nearest existing ancestor joined with the remaining (validated) segments. */
  path: string;
  exists: boolean;
  /** The real path of the root that contains it. */
  root: string;
  /** True when `path` IS a configured root (tools refuse to delete or move a root). */
  isRoot: boolean;
}

export interface FilesystemPolicyOptions {
  /** Default: the port's platform; decides separators and case rules (tests of other OSes' path forms). */
  platform?: NodeJS.Platform;
  /** Absolute paths always denied (the config in use, the app's folders with tokens and keys), with everything below them. */
  protectedFiles?: readonly string[];
}

/** What the policy asks the computer; the home folder, the server's user and a folder's names come from the port when it can tell them. */
type Port = Pick<PolicyPort, 'platform' | 'realpath' | 'lstat'> & Partial<Pick<PolicyPort, 'baseEnvironment' | 'ownProcess' | 'listNames'>>;

type FilesystemConfig = Config['filesystem'];

/** `details.reason` of a PATH_NOT_ALLOWED denial, for callers and tests (the message is for people). */
export type DenialReason =
  'outside-roots' | 'symlink-escape' | 'root-unusable' | 'unresolvable' | 'protected-file' | 'secret' | 'git' | 'read-only' | 'holds-root';

type Deny = (message: string, reason: DenialReason) => Error;

export class FilesystemPolicy {
  private readonly platform: Platform;
  private readonly roots: RootList;
  private readonly denied: LinkedPatterns;
  /** Refused for writes only: places git runs code from. */
  private readonly writeDenied: LinkedPatterns;
  private readonly protectedPlaces: ProtectedPlaces;
  /** The filesystem rules (fs-rules.ts) as they apply here: the command sandbox applies the same ones. */
  readonly rules: readonly ActiveRule[];
  readonly facts: RuleFacts;

  constructor(
    private readonly config: FilesystemConfig,
    private readonly port: Port,
    options: FilesystemPolicyOptions = {},
  ) {
    this.platform = options.platform ?? port.platform;
    const home = port.baseEnvironment?.().HOME;
    this.facts = {
      platform: this.platform,
      ...(home ? { home } : {}),
      asRoot: port.ownProcess?.().uid === 0,
      protectedFiles: options.protectedFiles ?? [],
    };
    this.rules = activeRules(config, this.facts);
    this.roots = new RootList(config.roots, port, this.platform);
    const patterns = (face: 'deny' | 'deny-write') =>
      this.rules.filter((r) => r.rule.tools === face && r.rule.patterns).flatMap((r) => compilePatterns(r.patterns, r.rule.patterns!.origin, this.platform));
    this.denied = new LinkedPatterns(patterns('deny'), port, this.platform);
    this.writeDenied = new LinkedPatterns(patterns('deny-write'), port, this.platform);
    this.protectedPlaces = new ProtectedPlaces(this.rules, this.platform);
  }

  /** Whether any write can be granted at all (filesystem.write). */
  get writesAllowed(): boolean {
    return this.config.write;
  }

  /** Human list of roots for messages, e.g. "/a (read-only), /b". */
  describeRoots(): string {
    return this.roots.describe();
  }

  async resolve(input: string, access: Access, operation: string): Promise<ResolvedPath> {
    const lexical = await this.lexicalPath(input, access, operation);
    return this.check(lexical, await locatePath(this.port, this.platform, lexical), access, operation);
  }

  /**
   * For operations on a directory entry itself (fs.delete, fs.move): a final symlink is the
   * entry, not what it points to, so removing or renaming a link never touches its target,
   * wherever that is. The parent is resolved like any path; the entry's own name and place are
   * checked like any path too.
   */
  async resolveEntry(input: string, access: Access, operation: string): Promise<ResolvedPath> {
    const lexical = await this.lexicalPath(input, access, operation);
    const stat = await this.port.lstat(lexical).catch(() => null);
    let located: Located;
    if (stat?.type === 'symlink') {
      const flavor = pathFlavor(this.platform);
      const parent = await locatePath(this.port, this.platform, flavor.dirname(lexical));
      located = parent.ok ? { ok: true, path: flavor.join(parent.path, flavor.basename(lexical)), exists: true } : parent;
    } else {
      located = await locatePath(this.port, this.platform, lexical);
    }
    const resolved = await this.check(lexical, located, access, operation);
    if (access === 'write') this.refuseRootsAt(lexical, resolved.path, operation);
    // Moving or deleting an entry whose name a deny pattern relies on would unprotect what is below it.
    const pattern = this.ancestorHit(resolved.path);
    if (pattern) {
      throw denial(
        operation,
        `${show(lexical)} holds paths protected by the ${describeOrigin(pattern)} pattern "${pattern.source}", so it cannot be moved or deleted through these tools`,
        pattern.origin === 'git' ? 'git' : 'secret',
      );
    }
    return resolved;
  }

  /** Grants and input checks, then the absolute, lexically normalized path (relative: under the first root). */
  private async lexicalPath(input: string, access: Access, operation: string): Promise<string> {
    if (access === 'read' && !this.config.read) {
      throw adapterError('CAPABILITY_DISABLED', operation, 'reading files is turned off (filesystem.read is false)');
    }
    if (access === 'write' && !this.config.write) {
      throw adapterError('CAPABILITY_DISABLED', operation, 'writing files is turned off (filesystem.write is false)');
    }
    if (this.roots.list.length === 0) {
      throw adapterError('CAPABILITY_DISABLED', operation, 'no filesystem roots are configured (filesystem.roots is empty)');
    }
    const problem = inputProblem(input);
    if (problem) throw adapterError('INVALID_INPUT', operation, problem);

    await this.roots.refresh();
    let absolute = input;
    if (isRelativeInput(input, this.platform)) {
      const first = this.roots.list[0]!;
      if (first.real === undefined) {
        throw denial(
          operation,
          `${show(input)} is relative, and relative paths resolve against the first root ${first.shown}, which ${first.unusable}`,
          'root-unusable',
        );
      }
      absolute = pathFlavor(this.platform).join(first.real, input);
    }
    const normalized = normalizeAbsolute(absolute, this.platform);
    if (!normalized.ok) throw adapterError('INVALID_INPUT', operation, `${show(input)}: ${normalized.reason}`);
    return normalized.path;
  }

  /**
   * A move, delete or overwrite must not touch a configured root or an entry holding one: with
   * roots /R and /R/x/ro (read-only), moving /R/x away, changing the copy and moving it back
   * would change the read-only root, and deleting /R/x would delete it.
   */
  private refuseRootsAt(lexical: string, real: string, operation: string): void {
    for (const root of this.roots.list) {
      for (const form of [root.lexical, root.real]) {
        if (form === undefined || ![lexical, real].some((target) => foldedInside(form, target, this.platform))) continue;
        const same = [lexical, real].some((target) => foldedInside(target, form, this.platform));
        throw denial(
          operation,
          same
            ? `${show(lexical)} is the configured root ${root.shown}, which cannot be moved, replaced or deleted`
            : `${show(lexical)} holds the configured root ${root.shown}, so it cannot be moved, replaced or deleted (that would change what the root holds)`,
          'holds-root',
        );
      }
    }
  }

  /** Everything decided about a located path: root containment, protected files, secrets, read-only roots. */
  private async check(lexical: string, located: Located, access: Access, operation: string): Promise<ResolvedPath> {
    const deny = (message: string, reason: DenialReason) => denial(operation, message, reason);
    const shown = show(lexical);
    if (!located.ok)
      throw located.invalid ? adapterError('INVALID_INPUT', operation, `${shown} ${located.reason}`) : deny(`${shown} ${located.reason}`, 'unresolvable');

    const root = this.roots.containing(located.path);
    if (root === undefined) throw this.outsideError(lexical, shown, deny);
    const rootReal = root.real!;

    await Promise.all([this.protectedPlaces.refresh(this.port), this.denied.refresh(), this.writeDenied.refresh()]);
    this.applyRules(lexical, located.path, root, access, shown, deny);
    const isRoot = relativeSegments(located.path, rootReal, this.platform)?.length === 0;
    // The kernel naming the very path just checked needs no second look: the rules are a function of the path.
    const confirm = (real: string) => (real === located.path ? undefined : this.confirm(real, access, shown, deny));
    return { path: located.path, exists: located.exists, root: rootReal, isRoot, confirm };
  }

  /**
   * The re-check of an opened object (GuardedPath.confirm): the kernel's path of what was
   * opened must pass every rule again, with nothing resolved anew.
   */
  private confirm(realPath: string, access: Access, shown: string, deny: Deny): void {
    const normalized = normalizeAbsolute(realPath, this.platform);
    if (!normalized.ok) throw deny(`${shown} resolves to a path that cannot be checked`, 'unresolvable');
    const root = this.roots.containing(normalized.path);
    if (root === undefined) {
      throw deny(
        `${shown} changed after it was checked: it now leads to ${show(normalized.path)}, outside the allowed roots (${this.describeRoots()})`,
        'symlink-escape',
      );
    }
    this.applyRules(normalized.path, normalized.path, root, access, shown, deny);
  }

  /** Protected files, secret and deny patterns, git's code files, read-only roots: on the requested spelling and on the real path. */
  private applyRules(lexical: string, real: string, root: Root, access: Access, shown: string, deny: Deny): void {
    const guarded = this.protectedPlaces.hit(lexical, real, access === 'write');
    if (guarded) {
      const { hit, entry } = guarded;
      const what = entry.why ? `${entry.lexical}, which ${entry.why}` : "this server's own configuration or token file";
      throw deny(
        hit === 'inside'
          ? entry.why
            ? `${shown} is in ${what}; no tool may access it`
            : `${shown} is ${what}, which no tool may access`
          : `${shown} contains ${what}, so it cannot be changed through these tools`,
        'protected-file',
      );
    }

    const pattern = this.deniedBy(lexical, real, access);
    if (pattern) {
      const why =
        pattern.origin === 'built-in'
          ? `is protected by the secret pattern "${pattern.source}" (filesystem.protectSecrets)`
          : pattern.origin === 'deny'
            ? `matches the deny pattern "${pattern.source}" (filesystem.deny)`
            : `is where git runs code from on the next git command ("${pattern.source}"): tools may read it but not write it (filesystem.allowGitHookWrites)`;
      throw deny(`${shown} ${why}`, pattern.origin === 'git' ? 'git' : 'secret');
    }

    if (access === 'write' && root.readOnly) {
      const writable = this.roots.list.filter((r) => !r.readOnly && r.lexical !== undefined).map(describeRoot);
      const where = writable.length > 0 ? `writable roots: ${writable.join(', ')}` : 'no root is writable';
      throw deny(`${shown} is in the read-only root ${root.shown}; ${where}`, 'read-only');
    }
  }

  /** Whether a real path lies in any configured root (writable or not): where a tool or command could have placed a file. */
  async insideAnyRoot(real: string): Promise<boolean> {
    await this.roots.refresh();
    const normalized = normalizeAbsolute(real, this.platform);
    return (
      normalized.ok &&
      this.roots.list.some((root) => [root.lexical, root.real].some((form) => form !== undefined && foldedInside(normalized.path, form, this.platform)))
    );
  }

  /** Whether a path as written (links not followed) lies in a writable root: any link below that root may be a tool's. */
  async insideWritableRoot(path: string): Promise<boolean> {
    await this.roots.refresh();
    const normalized = normalizeAbsolute(path, this.platform);
    return (
      this.config.write &&
      normalized.ok &&
      this.roots.list.some(
        (root) => !root.readOnly && [root.lexical, root.real].some((form) => form !== undefined && foldedInside(normalized.path, form, this.platform)),
      )
    );
  }

  /** Where the absolute deny paths naming one place whole really are (linked-patterns.ts): what the command sandbox hides besides them. */
  async deniedPlaces(): Promise<string[]> {
    await this.denied.settled();
    return this.denied.wholePlaces();
  }

  /** The roots that resolve, as real paths, and whether tools may write in them: what the command sandbox binds. */
  async usableRoots(): Promise<Array<{ path: string; writable: boolean }>> {
    await this.roots.refresh();
    return this.roots.list.flatMap((root) => (root.real === undefined ? [] : [{ path: root.real, writable: this.config.write && !root.readOnly }]));
  }

  /**
   * For listings: whether a child name is a protected secret, so fs.list can hide it. Given
   * the listed directory (as resolved), multi-segment patterns and protected files count too;
   * without it, only patterns that can match a single name do.
   */
  isProtectedName(name: string, parent?: ResolvedPath): boolean {
    const flavor = pathFlavor(this.platform);
    if (name === '' || name === '.' || name === '..' || name.includes(flavor.sep) || name.includes('/')) return true;
    if (parent === undefined) return findMatch(this.denied.current, { relative: [name] }) !== undefined;
    const child = flavor.join(parent.path, name);
    if (this.spellings(child).some((spelling) => findMatch(this.denied.current, wholePath(spelling, this.platform)))) return true;
    return this.protectedPlaces.holds(child);
  }

  /**
   * Whether the rules protect this absolute path (a secret, filesystem.deny, this app's files; for
   * writing, git's code too), judged by its spelling alone: for paths another program reports,
   * such as git's lists of changed files, whose answers must leave them out.
   */
  protects(path: string, access: Access): boolean {
    const normalized = normalizeAbsolute(path, this.platform);
    if (!normalized.ok) return true;
    const p = normalized.path;
    if (this.deniedBy(p, p, access)) return true;
    return this.protectedPlaces.holds(p);
  }

  private outsideError(lexical: string, shown: string, deny: (message: string, reason: DenialReason) => Error): Error {
    const roots = this.describeRoots();
    const lexicallyIn = this.roots.list.find((r) => [r.lexical, r.real].some((form) => form !== undefined && isInside(lexical, form, this.platform)));
    if (lexicallyIn?.real !== undefined) {
      return deny(`${shown} resolves through a symlink to a location outside the allowed roots (${roots})`, 'symlink-escape');
    }
    if (lexicallyIn !== undefined) {
      return deny(`${shown} is under the root ${lexicallyIn.shown}, which ${lexicallyIn.unusable}; allowed roots: ${roots}`, 'root-unusable');
    }
    return deny(`${shown} is outside the allowed roots (${roots})`, 'outside-roots');
  }

  private ancestorHit(real: string): SecretPattern | undefined {
    const patterns = [...this.denied.current, ...this.writeDenied.current];
    if (patterns.length === 0) return undefined;
    for (const spelling of this.spellings(real)) {
      const hit = findAncestorMatch(patterns, wholePath(spelling, this.platform));
      if (hit) return hit;
    }
    return undefined;
  }

  /** The pattern a path matches: a deny pattern, or for a write also one of git's code. */
  private deniedBy(lexical: string, real: string, access: Access): SecretPattern | undefined {
    return this.patternHit(this.denied.current, lexical, real) ?? (access === 'write' ? this.patternHit(this.writeDenied.current, lexical, real) : undefined);
  }

  /** On the real path, the requested spelling (a link named `.env` counts) and the real path spelled through a linked root (as a deny pattern may be). */
  private patternHit(patterns: readonly SecretPattern[], lexical: string, real: string): SecretPattern | undefined {
    if (patterns.length === 0) return undefined;
    for (const target of new Set([...this.spellings(real), lexical])) {
      const hit = findMatch(patterns, wholePath(target, this.platform));
      if (hit) return hit;
    }
    return undefined;
  }

  /** A real path, and the same path below each root reached through a link, as spelled through it. */
  private spellings(real: string): string[] {
    return [real, ...this.roots.spelledThrough(real)];
  }
}

function describeOrigin(pattern: SecretPattern): string {
  return pattern.origin === 'built-in' ? 'secret' : pattern.origin === 'deny' ? 'deny' : 'git code';
}

function denial(operation: string, message: string, reason: DenialReason): Error {
  return adapterError('PATH_NOT_ALLOWED', operation, message, { reason });
}

/** Paths in messages: bounded length, no control characters. */
function show(p: string): string {
  const clean = p.replace(/[\x00-\x1f\x7f]/g, '?');
  return clean.length > 240 ? `${clean.slice(0, 240)}...` : clean;
}
