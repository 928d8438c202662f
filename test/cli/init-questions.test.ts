/** config init's questions: each answer checked when given, asked again when wrong, the others kept. */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askInitAnswers, checkFolders, checkPrograms, programsWarning } from '../../main/cli/init-questions.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let home: string;
beforeEach(() => {
  home = makeTempDir();
  fs.mkdirSync(path.join(home, 'projects'));
  fs.mkdirSync(path.join(home, 'docs'));
  fs.writeFileSync(path.join(home, 'notes.txt'), '');
});
afterEach(() => removeDir(home));

const kind = (target: string) => {
  try {
    return fs.statSync(target).isDirectory() ? ('directory' as const) : ('other' as const);
  } catch {
    return 'missing' as const;
  }
};

/** Answers the questions one line at a time, as a person types them, and keeps what was shown. */
async function converse(lines: string[]): Promise<{ answers: Awaited<ReturnType<typeof askInitAnswers>>; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => {
    shown += chunk;
    // Each question is answered once it has been asked (a prompt ends without a newline).
    if (/[:\]] $/.test(shown) && lines.length) input.write(`${lines.shift()}\n`);
  });
  const answers = await askInitAnswers({ input, output, kind, home, platform: 'linux' });
  return { answers, shown };
}

describe('config init questions', () => {
  it('expands ~, asks again after a relative or missing folder or a file, and keeps the earlier answers', async () => {
    const { answers, shown } = await converse(['projects', '~/nope', '~/notes.txt', '~/projects, ~', '~/docs', 'rg']);
    expect(answers).toEqual({ roots: [path.join(home, 'projects'), home], readOnlyRoots: [path.join(home, 'docs')], commands: ['rg'] });
    expect(shown).toContain(`projects: give the whole path, like ${path.join(home, 'projects')} (or ~/projects)`);
    expect(shown).toContain(`${path.join(home, 'nope')} does not exist: create it first, or name another folder`);
    expect(shown).toContain(`${path.join(home, 'notes.txt')} is a file, not a folder`);
    expect(shown.match(/Folders to share read-only/g)).toHaveLength(1);
  });

  it('warns about programs that run any code, as config check does, and keeps them only when told to', async () => {
    const { answers, shown } = await converse(['', '', 'bash, rg', 'n', 'python -c', 'rg', '']);
    expect(answers.commands).toEqual(['rg']);
    expect(shown).toContain('warning: shell.allowedCommands: bash can run any code they are given');
    expect(shown).toContain('"python -c": one program name per entry, without arguments');
    const kept = await converse(['', '', 'bash', 'y']);
    expect(kept.answers.commands).toEqual(['bash']);
  });

  it('checks flags the same way (config init --root ~/x)', () => {
    expect(checkFolders(['~/projects'], home, kind)).toEqual({ ok: [path.join(home, 'projects')] });
    expect(checkFolders(['rel'], home, kind)).toHaveProperty('error');
    expect(checkPrograms(['npm test'])).toHaveProperty('error');
    expect(programsWarning(['*'], 'linux')).toMatch(/^shell\.allowedCommands is \["\*"\]: Any program/);
    expect(programsWarning(['rg', 'git'], 'linux')).toMatch(/git can run any code/);
    expect(programsWarning(['rg'], 'linux')).toBeNull();
  });
});
