import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../main/audit/audit-log.js';
import { auditFiles } from '../../main/audit/audit-files.js';
import { openLine } from '../../main/audit/audit-line.js';
import { verifyAuditLog } from '../../main/audit/audit-verify.js';
import { OwnedStateError } from '../../main/config/owned-state.js';
import type { ToolCallEvent } from '../../main/mcp/server.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const end = (tool: string, target: Record<string, unknown>, outcome: 'ok' | 'PATH_NOT_ALLOWED' = 'ok'): ToolCallEvent => ({
  phase: 'end',
  tool,
  exposed: tool.replace('.', '_'),
  id: 1,
  target,
  caller: { kind: 'host', name: 'test-host', version: '1.0' },
  client: 'test-host',
  durationMs: 2.5,
  outcome,
});

let dir: string;
beforeEach(() => {
  dir = path.join(makeTempDir(), 'audit');
});
afterEach(() => removeDir(path.dirname(dir)));

const open = (options: Partial<ConstructorParameters<typeof AuditLog>[0]> = {}) =>
  new AuditLog({ dir, maxFileBytes: 1 << 20, keepFiles: 2, secrets: [], ...options });

describe('AuditLog', () => {
  it('writes one sealed line per ended call, owner-only, and ignores start events', () => {
    const log = open();
    log.record({ ...end('fs.read', { path: '/a' }), phase: 'start' } as ToolCallEvent);
    log.record(end('fs.read', { path: '/a' }));
    log.record(end('fs.write', { path: '/b', content: 'the file text' }, 'PATH_NOT_ALLOWED'));
    log.close();
    const file = path.join(dir, 'audit.jsonl');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    const records = lines.map((line) => openLine(line)).map((o) => (o.ok ? o.record : null));
    expect(records[0]).toMatchObject({ seq: 1, tool: 'fs_read', args: { path: '/a' }, outcome: 'ok', prev: null, client: { kind: 'host', name: 'test-host' } });
    expect(records[1]).toMatchObject({ seq: 2, tool: 'fs_write', args: { path: '/b' }, outcome: 'PATH_NOT_ALLOWED', prev: records[0]!.hash });
    expect(lines[1]).not.toContain('the file text');
    expect(verifyAuditLog(dir)).toMatchObject({ ok: true, lines: 2, chains: 1 });
  });

  it('links a second writer to the log it finds, and verify follows both chains', () => {
    const first = open();
    const second = open();
    for (let i = 0; i < 5; i++) {
      first.record(end('fs.read', { path: `/f${i}` }));
      second.record(end('fs.list', { path: `/s${i}` }));
    }
    first.close();
    second.close();
    expect(verifyAuditLog(dir)).toMatchObject({ ok: true, lines: 10, chains: 2 });
  });

  it('scrubs the secrets it is given from every value', () => {
    const log = open({ secrets: ['tok-123456'] });
    log.record(end('shell.exec', { command: 'curl', args: ['-H', 'Bearer tok-123456'] }));
    log.close();
    const text = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    expect(text).not.toContain('tok-123456');
    expect(text).toContain('<redacted>');
  });

  it('rotates by size, keeps the bound, and the chain verifies across files', () => {
    const maxFileBytes = 64 * 1024;
    const log = open({ maxFileBytes, keepFiles: 2 });
    for (let i = 0; i < 2000; i++) log.record(end('fs.read', { path: `/folder/file-${i}.txt` }));
    log.close();
    const files = auditFiles(dir);
    expect(files.map((f) => path.basename(f))).toEqual(['audit.2.jsonl', 'audit.1.jsonl', 'audit.jsonl']);
    const total = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    expect(total).toBeLessThanOrEqual(3 * maxFileBytes);
    for (const f of files.slice(0, -1)) expect(fs.statSync(f).size).toBeGreaterThanOrEqual(maxFileBytes);
    // The oldest file starts mid-chain (its start was rotated away): still verifies.
    expect(verifyAuditLog(dir)).toMatchObject({ ok: true, files: 3 });
  });

  it('two writers sharing the log follow each other across rotations: no line lost, every chain verifies', () => {
    const maxFileBytes = 16 * 1024;
    const [first, second] = [open({ maxFileBytes, keepFiles: 20 }), open({ maxFileBytes, keepFiles: 20 })];
    for (let i = 0; i < 300; i++) {
      first.record(end('fs.read', { path: `/first/file-${i}.txt` }));
      second.record(end('fs.list', { path: `/second/folder-${i}` }));
    }
    first.close();
    second.close();
    const files = auditFiles(dir);
    expect(files.length).toBeGreaterThan(5);
    // A writer may add its next line to the file the other just rotated: one line past the bound at most.
    for (const f of files.slice(0, -1)) expect(fs.statSync(f).size).toBeLessThan(maxFileBytes + 1024);
    expect(verifyAuditLog(dir)).toMatchObject({ ok: true, lines: 600, chains: 2 });
  });

  it('leaves rotation to the writer holding the lock, and takes over a lock left by a dead one', () => {
    const log = open({ maxFileBytes: 64 * 1024, keepFiles: 2 });
    const lock = path.join(dir, 'rotating.lock');
    fs.mkdirSync(lock);
    for (let i = 0; i < 400; i++) log.record(end('fs.read', { path: `/folder/file-${i}.txt` }));
    expect(auditFiles(dir).map((f) => path.basename(f))).toEqual(['audit.jsonl']);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    log.record(end('fs.read', { path: '/after' }));
    log.close();
    expect(auditFiles(dir).map((f) => path.basename(f))).toEqual(['audit.1.jsonl', 'audit.jsonl']);
    expect(fs.existsSync(lock)).toBe(false);
    expect(verifyAuditLog(dir)).toMatchObject({ ok: true, lines: 401 });
  });

  it('refuses a log file another user could read, and a link in its place', () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'audit.jsonl');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(() => open()).toThrow(OwnedStateError);
    expect(() => open()).toThrow(/read or written by other users/);
    fs.rmSync(file);
    fs.symlinkSync('/etc/passwd', file);
    expect(() => open()).toThrow(/symbolic link/);
  });

  it('tells the owner once when writing fails, and the call goes on', () => {
    const told: string[] = [];
    const log = open({ onError: (message) => told.push(message) });
    log.close(); // the descriptor is gone: every write fails
    log.record(end('fs.read', { path: '/a' }));
    log.record(end('fs.read', { path: '/b' }));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/cannot write the audit log .*calls go unrecorded/);
  });
});
