import { describe, expect, test } from 'vitest';
import { SnapshotRegistry } from '../../../../adapter/desktop/ui/snapshot-registry.js';
import type { ShapedNode } from '../../../../adapter/desktop/ui/ui-tree.js';

const leaf = (ref: string, name: string, children: ShapedNode[] = []): ShapedNode => ({ ref, role: 'button', name, states: [], bounds: null, children });

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('SnapshotRegistry', () => {
  test('ids in document order; native refs stay inside and resolve back', () => {
    const registry = new SnapshotRegistry();
    const { snapshotHandle, elements } = registry.store([leaf(':1.5|/a', 'A', [leaf(':1.5|/b', 'B')]), leaf(':1.5|/c', 'C')]);
    expect(snapshotHandle).toMatch(/^snap_[A-Za-z0-9_-]{16}$/);
    expect(elements).toEqual([
      { id: 'e1', role: 'button', name: 'A', states: [], bounds: null, children: [{ id: 'e2', role: 'button', name: 'B', states: [], bounds: null }] },
      { id: 'e3', role: 'button', name: 'C', states: [], bounds: null },
    ]);
    expect(JSON.stringify(elements)).not.toContain('/a');
    expect(registry.resolve(snapshotHandle, 'e2', 'input.click')).toBe(':1.5|/b');
    expect(refusal(() => registry.resolve(snapshotHandle, 'e4', 'input.click'))).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('its ids are e1 to e3'),
    });
  });

  test('handles are unguessable and distinct; a malformed one is INVALID_INPUT', () => {
    const registry = new SnapshotRegistry();
    const a = registry.store([leaf('x', 'x')]).snapshotHandle;
    const b = registry.store([leaf('x', 'x')]).snapshotHandle;
    expect(a).not.toBe(b);
    expect(refusal(() => registry.resolve('proc_1', 'e1', 'input.type'))).toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('bounded: the oldest snapshot goes first, and snapshots expire', () => {
    let now = 1000;
    const registry = new SnapshotRegistry({ maxSnapshots: 2, ttlMs: 60_000, now: () => now });
    const first = registry.store([leaf('1', 'one')]).snapshotHandle;
    const second = registry.store([leaf('2', 'two')]).snapshotHandle;
    const third = registry.store([leaf('3', 'three')]).snapshotHandle;
    expect(registry.size).toBe(2);
    expect(refusal(() => registry.resolve(first, 'e1', 'input.click'))).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('unknown or expired'),
    });
    expect(registry.resolve(second, 'e1', 'input.click')).toBe('2');
    now += 60_000;
    expect(refusal(() => registry.resolve(third, 'e1', 'input.click')).code).toBe('NOT_FOUND');
    expect(registry.size).toBe(0);
  });

  test('flat stores (ui.find) drop children', () => {
    const { elements } = new SnapshotRegistry().store([leaf('a', 'A', [leaf('b', 'B')])], true);
    expect(elements).toEqual([{ id: 'e1', role: 'button', name: 'A', states: [], bounds: null }]);
  });
});
