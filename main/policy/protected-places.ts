/**
 * Places no tool may touch, whatever the patterns say: this app's own files (its config, token
 * and keys) and each absolute place a deny rule names (fs-rules.ts), with everything below them.
 * Matched on both the spelling and the real path, the real path found once it exists.
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { normalizeAbsolute, type Platform } from './path-compare.js';
import { foldedInside, foldedSegments, isTempOf, startsWith } from './path-fold.js';
import { locatePath } from './path-locate.js';
import type { ActiveRule } from './fs-rules.js';

export interface ProtectedPlace {
  lexical: string;
  real?: string;
  /** Why no tool may touch it, for the denial (default: this server's configuration or token). */
  why?: string;
}

export class ProtectedPlaces {
  private readonly places: ProtectedPlace[];

  constructor(
    rules: readonly ActiveRule[],
    private readonly platform: Platform,
  ) {
    this.places = rules
      .filter((r) => r.rule.tools === 'deny')
      .flatMap((r) =>
        r.places.map((place) => {
          const normalized = normalizeAbsolute(place, platform);
          // Silently dropping one would leave the token readable: refuse to build the policy instead.
          if (!normalized.ok) throw new Error(`protected file ${place} is not an absolute path`);
          // The app's own files are named as such; every other place says why it is protected.
          return r.rule.id === 'app-files' ? { lexical: normalized.path } : { lexical: normalized.path, why: r.rule.why };
        }),
      );
  }

  /** Finds the real path of each place not found yet. */
  async refresh(port: Pick<PolicyPort, 'realpath' | 'lstat'>): Promise<void> {
    if (this.places.every((p) => p.real !== undefined)) return;
    await Promise.all(
      this.places.map(async (p) => {
        if (p.real !== undefined) return;
        const located = await locatePath(port, this.platform, p.lexical);
        if (located.ok) p.real = located.path;
      }),
    );
  }

  /** Whether the path is a protected place or inside one, by its spelling alone. */
  holds(path: string): boolean {
    return this.places.some((p) => [p.lexical, p.real].some((form) => form !== undefined && foldedInside(path, form, this.platform)));
  }

  /** 'inside' when the target is (under) a protected place; 'contains' when a write target holds one. */
  hit(lexical: string, real: string, write: boolean): { hit: 'inside' | 'contains'; entry: ProtectedPlace } | undefined {
    const spellings = lexical === real ? [foldedSegments(real, this.platform)] : [foldedSegments(lexical, this.platform), foldedSegments(real, this.platform)];
    for (const p of this.places) {
      for (const form of p.real === undefined || p.real === p.lexical ? [p.lexical] : [p.lexical, p.real]) {
        const guarded = foldedSegments(form, this.platform);
        for (const target of spellings) {
          if (startsWith(target, guarded) || isTempOf(target, guarded)) return { hit: 'inside', entry: p };
          // Moving or deleting a directory that holds the token would carry it out of reach.
          if (write && startsWith(guarded, target)) return { hit: 'contains', entry: p };
        }
      }
    }
    return undefined;
  }
}
