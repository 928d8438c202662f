/**
 * Windows programs the adapter runs are started by absolute path from the system directory
 * (`%SystemRoot%\System32\...`), never by whatever a PATH lookup finds first.
 */
import path from 'node:path';

/** `env` names the system directory (SystemRoot); tests elsewhere give a folder of stand-ins. */
export function system32(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const systemRoot = env.SystemRoot ?? env.windir ?? 'C:\\Windows';
  return path.join(systemRoot, 'System32', file);
}

/** Windows PowerShell 5.1, which every supported Windows ships. */
export function windowsPowerShell(env: NodeJS.ProcessEnv = process.env): string {
  return system32(path.join('WindowsPowerShell', 'v1.0', 'powershell.exe'), env);
}
