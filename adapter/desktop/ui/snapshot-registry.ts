/**
 * Snapshot handles (continuity only through a handle the caller passes back, never hidden state). Each
 * ui.snapshot / ui.find stores the native refs of the elements it returned under a fresh opaque
 * handle; input.* later turns {snapshotHandle, element} back into the ref. Process-wide, not per
 * client, and bounded: the oldest snapshot is dropped beyond `maxSnapshots`, and a snapshot
 * expires after `ttlMs`. Native refs never leave the adapter.
 */
import { randomBytes } from 'node:crypto';
import { adapterError } from '../../contract/errors.js';
import type { UiElement } from '../../contract/ui.js';
import type { ShapedNode } from './ui-tree.js';

export const MAX_SNAPSHOTS = 32;
export const SNAPSHOT_TTL_MS = 30 * 60_000;
const HANDLE = /^snap_[A-Za-z0-9_-]{16}$/;

interface Entry {
  refs: Map<string, string>;
  expires: number;
}

export interface RegistryOptions {
  maxSnapshots?: number;
  ttlMs?: number;
  now?: () => number;
}

export class SnapshotRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly maxSnapshots: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: RegistryOptions = {}) {
    this.maxSnapshots = options.maxSnapshots ?? MAX_SNAPSHOTS;
    this.ttlMs = options.ttlMs ?? SNAPSHOT_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Gives every node an id (e1, e2... in document order) and stores the refs under a new handle. */
  store(roots: ShapedNode[], flat = false): { snapshotHandle: string; elements: UiElement[] } {
    this.expire();
    const refs = new Map<string, string>();
    const convert = (node: ShapedNode): UiElement => {
      const id = `e${refs.size + 1}`;
      refs.set(id, node.ref);
      const element: UiElement = { id, role: node.role, name: node.name, states: node.states, bounds: node.bounds };
      if (node.value !== undefined) element.value = node.value;
      if (!flat && node.children.length > 0) element.children = node.children.map(convert);
      return element;
    };
    const elements = roots.map(convert);
    const snapshotHandle = `snap_${randomBytes(12).toString('base64url')}`;
    this.entries.set(snapshotHandle, { refs, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxSnapshots) this.entries.delete(this.entries.keys().next().value as string);
    return { snapshotHandle, elements };
  }

  /** The native ref of an element, or NOT_FOUND / INVALID_INPUT saying what to do instead. */
  resolve(snapshotHandle: string, element: string, operation: string): string {
    if (!HANDLE.test(snapshotHandle)) {
      throw adapterError('INVALID_INPUT', operation, 'snapshotHandle must be the snapshotHandle returned by ui.snapshot or ui.find (snap_...)');
    }
    this.expire();
    const entry = this.entries.get(snapshotHandle);
    if (!entry) {
      throw adapterError(
        'NOT_FOUND',
        operation,
        `snapshot ${snapshotHandle} is unknown or expired (the server keeps the last ${this.maxSnapshots} snapshots for ${Math.round(this.ttlMs / 60_000)} minutes); take a new ui.snapshot`,
      );
    }
    const ref = entry.refs.get(element);
    if (ref === undefined) {
      throw adapterError('NOT_FOUND', operation, `element "${element}" is not in snapshot ${snapshotHandle} (its ids are e1 to e${entry.refs.size})`);
    }
    return ref;
  }

  private expire(): void {
    const now = this.now();
    for (const [handle, entry] of this.entries) if (entry.expires <= now) this.entries.delete(handle);
  }
}
