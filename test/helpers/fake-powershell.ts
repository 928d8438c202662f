/**
 * A stand-in for Windows PowerShell where the product looks for it (SystemRoot's
 * System32\WindowsPowerShell\v1.0\powershell.exe, adapter/os/system-root.ts), as a shell script:
 * Windows scripts' Node sides run on Linux and macOS against what it records and answers.
 */
import fs from 'node:fs';
import path from 'node:path';

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
