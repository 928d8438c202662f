/**
 * The configured roots: as the owner wrote them, and where they really are once they resolve. A
 * root that does not exist yet becomes usable when it appears; one that appears later inside
 * another root is taken only where its spelling says it is.
 */
import type { Config } from '../config/schema.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { isInside, normalizeAbsolute, pathFlavor, relativeSegments, splitPath, type Platform } from './path-compare.js';
import { foldedInside, foldedSame } from './path-fold.js';
import { errorCode, NOT_FOUND } from './path-locate.js';

export interface Root {
  /** As the owner wrote it, for messages. */
  shown: string;
  /** Normalized configured path, or undefined when it is not a valid absolute path here. */
  lexical: string | undefined;
  readOnly: boolean;
  /** Real path once it resolved to a directory (cached: roots are fixed for the process). */
  real?: string;
  /** Why it is not usable, from the last attempt. */
  unusable?: string;
}

export class RootList {
  readonly list: Root[];
  /** Roots that resolve at the first look are the owner's; later ones must not come through a link planted in another root. */
  private firstLookDone = false;

  constructor(
    roots: Config['filesystem']['roots'],
    private readonly port: Pick<PolicyPort, 'realpath' | 'lstat'>,
    private readonly platform: Platform,
  ) {
    this.list = roots.map((root) => {
      const [configured, readOnly] = typeof root === 'string' ? [root, false] : [root.path, root.readOnly];
      const normalized = normalizeAbsolute(configured, platform);
      return normalized.ok
        ? { shown: configured, lexical: normalized.path, readOnly }
        : { shown: configured, lexical: undefined, readOnly, unusable: 'is not a valid absolute path on this system' };
    });
  }

  /** Human list of roots for messages, e.g. "/a (read-only), /b". */
  describe(): string {
    if (this.list.length === 0) return 'none configured';
    return this.list.map(describeRoot).join(', ');
  }

  /** The deepest usable root containing the real path (nested roots: the inner one rules). */
  containing(real: string): Root | undefined {
    let best: Root | undefined;
    let depth = -1;
    for (const root of this.list) {
      if (root.real === undefined || !isInside(real, root.real, this.platform)) continue;
      const d = splitPath(root.real, this.platform).segments.length;
      if (d > depth) [best, depth] = [root, d];
    }
    return best;
  }

  /** The real path as spelled below each root that is not where it really is (a root reached through a link). */
  spelledThrough(real: string): string[] {
    const out: string[] = [];
    for (const root of this.list) {
      if (root.real === undefined || root.lexical === undefined || root.lexical === root.real) continue;
      const below = relativeSegments(real, root.real, this.platform);
      if (below !== undefined) out.push(pathFlavor(this.platform).join(root.lexical, ...below));
    }
    return out;
  }

  /**
   * Realpaths roots that have not resolved yet; a root created after startup becomes usable.
   * One that appears later inside another root must be a plain directory: a symlink planted
   * there (by a tool that can write the outer root) would otherwise aim the root anywhere.
   */
  async refresh(): Promise<void> {
    const late = this.firstLookDone;
    this.firstLookDone = true;
    if (this.list.every((root) => root.real !== undefined || root.lexical === undefined)) return;
    await Promise.all(
      this.list.map(async (root) => {
        if (root.real !== undefined || root.lexical === undefined) return;
        try {
          const real = await this.port.realpath(root.lexical);
          const stat = await this.port.lstat(real);
          const normalized = normalizeAbsolute(real, this.platform);
          if (stat?.type !== 'directory') root.unusable = stat ? 'is not a directory' : 'does not exist';
          else if (!normalized.ok) root.unusable = 'does not resolve to a usable path';
          else if (late && this.insideAnotherRoot(root) && !(await this.realDirectoryInsideAnotherRoot(root, normalized.path))) {
            root.unusable = 'appeared after the server started as a link inside another root, so it is not used (restart the server to accept it)';
          } else {
            root.real = normalized.path;
            delete root.unusable;
          }
        } catch (error) {
          root.unusable = NOT_FOUND.has(errorCode(error)) ? 'does not exist' : `cannot be opened (${errorCode(error) || 'error'})`;
        }
      }),
    );
  }

  /**
   * A late root is taken only where its spelling says it is: its real path must be the other
   * root's real path plus the names below that root's spelling (a linked parent of both, as in
   * roots [L, L/docs] with L a link, is fine). A link planted in its place or in a folder on the
   * way, even one to a decoy inside the root, aims it elsewhere and is refused; so is a folder
   * swapped for a link between the two lookups (the lstat).
   */
  private async realDirectoryInsideAnotherRoot(root: Root, real: string): Promise<boolean> {
    const flavor = pathFlavor(this.platform);
    const where = this.list.some((other) => {
      if (other === root || other.real === undefined) return false;
      return [other.lexical, other.real].some((form) => {
        const below = form === undefined ? undefined : relativeSegments(root.lexical!, form, this.platform);
        return below !== undefined && foldedSame(real, flavor.join(other.real!, ...below), this.platform);
      });
    });
    return where && (await this.port.lstat(root.lexical!))?.type === 'directory';
  }

  private insideAnotherRoot(root: Root): boolean {
    return this.list.some(
      (other) => other !== root && [other.lexical, other.real].some((form) => form !== undefined && foldedInside(root.lexical!, form, this.platform)),
    );
  }
}

export function describeRoot(root: Root): string {
  const notes = [root.readOnly ? 'read-only' : undefined, root.real === undefined ? root.unusable : undefined].filter(Boolean);
  return notes.length > 0 ? `${root.shown} (${notes.join(', ')})` : root.shown;
}
