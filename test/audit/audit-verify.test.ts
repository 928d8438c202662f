import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../main/audit/audit-log.js';
import { verifyAuditLog } from '../../main/audit/audit-verify.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = path.join(makeTempDir(), 'audit');
});
afterEach(() => removeDir(path.dirname(dir)));

const open = () => new AuditLog({ dir, maxFileBytes: 1 << 20, keepFiles: 2, secrets: [] });

describe('verifyAuditLog', () => {
  const fill = (count: number) => {
    const log = open();
    for (let i = 0; i < count; i++) log.record({ phase: 'end', tool: 'fs.read', id: i, target: { path: `/p${i}` }, durationMs: 1, outcome: 'ok' });
    log.close();
    return path.join(dir, 'audit.jsonl');
  };
  const lines = (file: string) => fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const write = (file: string, all: string[]) => fs.writeFileSync(file, `${all.join('\n')}\n`);

  it('names a deleted line', () => {
    const file = fill(10);
    const all = lines(file);
    all.splice(4, 1);
    write(file, all);
    const result = verifyAuditLog(dir);
    expect(result.ok).toBe(false);
    expect(result.problem).toMatchObject({ line: 5 });
    expect(result.problem!.message).toMatch(/audit\.jsonl line 5: 1 line\(s\) of chain \w+ were cut between audit\.jsonl line 4 and it/);
  });

  it('names an edited line, re-hashed or not', () => {
    const file = fill(10);
    const all = lines(file);
    all[6] = all[6]!.replace('/p6', '/elsewhere');
    write(file, all);
    expect(verifyAuditLog(dir).problem).toMatchObject({ line: 7, message: expect.stringMatching(/line 7: its text does not match its hash/) });

    // Re-sealed by someone who knows the format: its successor still names it.
    const record = JSON.parse(all[6]!) as Record<string, unknown>;
    delete record.hash;
    const body = JSON.stringify(record);
    all[6] = `${body.slice(0, -1)},"hash":"${createHash('sha256').update(body).digest('hex')}"}`;
    write(file, all);
    expect(verifyAuditLog(dir).problem).toMatchObject({ line: 7, message: expect.stringMatching(/line 7: edited \(re-hashed, but audit\.jsonl line 8 links/) });
  });

  it('names a line that is not an audit line', () => {
    const file = fill(3);
    fs.appendFileSync(file, 'hello\n');
    expect(verifyAuditLog(dir).problem).toMatchObject({ line: 4, message: expect.stringMatching(/not a sealed audit line/) });
  });

  it('passes an empty or missing log', () => {
    expect(verifyAuditLog(dir)).toMatchObject({ ok: true, lines: 0, files: 0 });
  });
});
