/**
 * Windows programs the adapter runs are started by absolute path from the system directory
 * (`%SystemRoot%\System32\...`), never by whatever a PATH lookup finds first.
 */
import path from 'node:path';

export function system32(...parts: string[]): string {
  const systemRoot = process.env.SystemRoot ?? process.env.windir ?? 'C:\\Windows';
  return path.win32.join(systemRoot, 'System32', ...parts);
}

/** Windows PowerShell 5.1, which every supported Windows ships. */
export function windowsPowerShell(): string {
  return system32('WindowsPowerShell', 'v1.0', 'powershell.exe');
}
