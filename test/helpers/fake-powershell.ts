/**
 * A stand-in for Windows PowerShell where the product looks for it (SystemRoot's
 * System32\WindowsPowerShell\v1.0\powershell.exe, adapter/os/system-root.ts), as a shell script:
 * Windows scripts' Node sides run on Linux and macOS against what it records and answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { makeTempDir, removeDir } from './temp.js';

/** Writes `script` (sh, after its #! line) as powershell.exe under `dir`: the SystemRoot to point at it. */
export function fakePowerShell(dir: string, script: string): string {
  const folder = path.join(dir, 'Windows', 'System32', 'WindowsPowerShell', 'v1.0');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'powershell.exe'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return path.join(dir, 'Windows');
}

/** The script PowerShell was given, decoded from the -EncodedCommand among `args` (preamble included). */
export function decodedScript(args: readonly string[]): string {
  const at = args.indexOf('-EncodedCommand');
  if (at < 0) throw new Error(`no -EncodedCommand in ${args.join(' ')}`);
  return Buffer.from(args[at + 1]!, 'base64').toString('utf16le');
}

/** A variable in the server's environment that no helper may inherit (its environment is short). */
export const PLANTED_SECRET = 'CHATGPT_MCP_PLANTED_SECRET';

/**
 * In a describe block: the stand-in from `script(dir)` made SystemRoot's PowerShell for its tests,
 * a secret planted in this process's environment, and both put back after. Answers the folder.
 */
export function useFakePowerShell(prefix: string, script: (dir: string) => string): () => string {
  let dir = '';
  const saved = process.env.SystemRoot;
  beforeAll(() => {
    dir = makeTempDir(prefix);
    process.env.SystemRoot = fakePowerShell(dir, script(dir));
    process.env[PLANTED_SECRET] = 'planted';
  });
  afterAll(() => {
    delete process.env[PLANTED_SECRET];
    if (saved === undefined) delete process.env.SystemRoot;
    else process.env.SystemRoot = saved;
    removeDir(dir);
  });
  return () => dir;
}
