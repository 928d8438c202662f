import { describe, expect, it } from 'vitest';
import { ActivityRing } from '../../main/tray/activity-ring.js';
import type { ActivityEntry } from '../../main/tray/bridge-api.js';

const start = (tool: string, id: number, target: Record<string, unknown> = {}) => ({ phase: 'start' as const, tool, id, target });
const end = (tool: string, id: number, outcome: 'ok' | 'PATH_NOT_ALLOWED' = 'ok', durationMs = 5, target: Record<string, unknown> = {}) => ({
  phase: 'end' as const,
  tool,
  id,
  target,
  durationMs,
  outcome,
});

describe('ActivityRing', () => {
  it('keeps only the newest N calls', () => {
    const ring = new ActivityRing(200);
    for (let i = 0; i < 250; i++) {
      ring.record(start('fs.read', i, { path: `/r/${i}` }));
      ring.record(end('fs.read', i));
    }
    const list = ring.list();
    expect(list).toHaveLength(200);
    expect(list[0]!.target).toBe('path=/r/50');
    expect(list.at(-1)!.target).toBe('path=/r/249');
    expect(ring.inFlight).toBe(0);
  });

  it('shows the name the client called the tool by (server.toolNames), the contract name without one', () => {
    const ring = new ActivityRing();
    ring.record({ ...start('fs.read', 1), exposed: 'fs_read' });
    ring.record({ ...end('fs.read', 1), exposed: 'fs_read' });
    ring.record(start('fs.list', 2));
    expect(ring.list().map((e) => [e.tool, e.outcome])).toEqual([
      ['fs_read', 'ok'],
      ['fs.list', 'running'],
    ]);
  });

  it('pairs ends with starts by tool and request id, first in first out', () => {
    const ring = new ActivityRing();
    ring.record(start('fs.read', 1, { path: '/a' }));
    ring.record(start('fs.read', 1, { path: '/b' })); // another HTTP request reusing id 1
    ring.record(start('fs.list', 1, { path: '/c' }));
    expect(ring.inFlight).toBe(3);
    ring.record(end('fs.read', 1, 'PATH_NOT_ALLOWED', 2));
    const list = ring.list();
    expect(list.map((e) => [e.target, e.outcome, e.durationMs])).toEqual([
      ['path=/a', 'PATH_NOT_ALLOWED', 2],
      ['path=/b', 'running', null],
      ['path=/c', 'running', null],
    ]);
  });

  it('still records an end whose start it never saw', () => {
    const ring = new ActivityRing(
      10,
      () => [],
      () => new Date('2026-01-01T00:00:01.000Z'),
    );
    ring.record(end('shell.exec', 7, 'ok', 1000, { command: 'git' }));
    expect(ring.list()).toEqual([
      { seq: 1, time: '2026-01-01T00:00:00.000Z', tool: 'shell.exec', target: 'command=git', client: null, outcome: 'ok', durationMs: 1000 },
    ]);
  });

  it('records which client made the call, as one clean line', () => {
    const ring = new ActivityRing();
    ring.record({ ...start('fs.read', 1), client: 'ChatGPT' });
    ring.record({ ...end('fs.read', 1), client: 'ChatGPT' });
    ring.record({ ...start('fs.read', 2), client: 'Evil\u202eName\nnext' });
    ring.record(start('fs.read', 3));
    expect(ring.list().map((e) => e.client)).toEqual(['ChatGPT', 'Evil?Name next', null]);
  });

  it('tells subscribers about every change and survives a throwing one', () => {
    const ring = new ActivityRing();
    const seen: ActivityEntry[] = [];
    ring.subscribe(() => {
      throw new Error('broken listener');
    });
    const off = ring.subscribe((entry) => seen.push(entry));
    ring.record(start('system.info', 1));
    ring.record(end('system.info', 1));
    off();
    ring.record(start('system.info', 2));
    expect(seen.map((e) => e.outcome)).toEqual(['running', 'ok']);
  });

  it('hands out copies', () => {
    const ring = new ActivityRing();
    ring.record(start('fs.read', 1, { path: '/a' }));
    ring.list()[0]!.target = 'changed';
    expect(ring.list()[0]!.target).toBe('path=/a');
  });

  it('redacts contents, output, env and tokens from the target summary', () => {
    const ring = new ActivityRing(10, () => ['s3cr3t-token-value']);
    ring.record(start('fs.write', 1, { path: '/notes/s3cr3t-token-value.txt', content: 'file body', mode: 'create' }));
    ring.record(start('shell.exec', 2, { command: 'env', args: ['-i'], env: { A: 'b' }, stdout: 'out', token: 'x', apiKey: 'k', password: 'p' }));
    const [write, exec] = ring.list();
    expect(write!.target).toBe('path=/notes/<redacted>.txt mode=create');
    expect(exec!.target).toBe('command=env args=-i');
  });
});
