/** Hints name the CLI the way the owner runs it. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHint, cliName, detectCliName, publicCliHint, setCliName } from '../main/command-name.js';
import { makeTempDir, removeDir } from './helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => {
  setCliName('chatgpt-mcp');
  removeDir(dir);
});

describe('the CLI name in hints', () => {
  it('is "node <path>" from a clone, relative to the working folder when inside it', () => {
    const script = path.join(dir, 'out', 'main', 'cli.js');
    expect(detectCliName(script, { PATH: '' }, dir)).toBe('node out/main/cli.js');
    expect(detectCliName(script, { PATH: '' }, '/')).toBe(`node ${script.slice(1)}`);
    expect(detectCliName(script, { PATH: '' }, path.join(dir, 'elsewhere'))).toBe(`node ${script}`);
    expect(detectCliName('/a b/cli.js', { PATH: '' }, '/tmp')).toBe('node "/a b/cli.js"');
  });

  it.skipIf(process.platform === 'win32')('is "chatgpt-mcp" through the bin link, or when that link on PATH leads to this file (npm link)', () => {
    const script = path.join(dir, 'out', 'main', 'cli.js');
    fs.mkdirSync(path.dirname(script), { recursive: true });
    fs.writeFileSync(script, '');
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(script, path.join(bin, 'chatgpt-mcp'));
    expect(detectCliName(path.join(bin, 'chatgpt-mcp'), { PATH: '' }, dir)).toBe('chatgpt-mcp');
    expect(detectCliName(script, { PATH: bin }, dir)).toBe('chatgpt-mcp');
    // A chatgpt-mcp on PATH that is another install does not count.
    const other = path.join(dir, 'other.js');
    fs.writeFileSync(other, '');
    expect(detectCliName(other, { PATH: bin }, dir)).toBe('node other.js');
  });

  it('never tells a stranger the owner’s folders in an answer anyone may read (a 401, the OAuth pages)', () => {
    setCliName('node /home/alex/src/chatgpt-computer-mcp/out/main/cli.js');
    expect(publicCliHint('token show')).toBe('"node …/out/main/cli.js token show"');
    expect(cliHint('token show')).toBe('"node /home/alex/src/chatgpt-computer-mcp/out/main/cli.js token show"');
    setCliName('node out/main/cli.js');
    expect(publicCliHint('token show')).toBe('"node out/main/cli.js token show"');
    setCliName('chatgpt-mcp');
    expect(publicCliHint('oauth approve')).toBe('"chatgpt-mcp oauth approve"');
  });

  it('is set once and quoted in hints', () => {
    expect(cliName()).toBe('chatgpt-mcp');
    setCliName('node out/main/cli.js');
    expect(cliHint('token show')).toBe('"node out/main/cli.js token show"');
  });
});
