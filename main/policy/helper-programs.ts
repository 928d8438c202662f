/**
 * Programs the server itself runs to do its work faster (ripgrep for fs.search): found on the
 * server's PATH through the adapter's port, and never one inside a configured root, where a
 * tool or a command could have put a program of that name. Looked up once.
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { FilesystemPolicy } from './filesystem.js';

export class HelperPrograms {
  private ripgrepPath: Promise<string | null> | undefined;

  constructor(
    private readonly port: Pick<PolicyPort, 'findExecutable' | 'baseEnvironment'>,
    private readonly files: FilesystemPolicy,
    /** fs.search may use ripgrep (tests turn it off to exercise the built-in engine). */
    private readonly useRipgrep = true,
  ) {}

  ripgrep(): Promise<string | null> {
    if (!this.useRipgrep) return Promise.resolve(null);
    this.ripgrepPath ??= this.find('rg');
    return this.ripgrepPath;
  }

  private async find(name: string): Promise<string | null> {
    const env = this.port.baseEnvironment();
    const found = await this.port.findExecutable(name, env.PATH ?? env.Path).catch(() => null);
    if (!found) return null;
    const planted = await Promise.all([found.found, found.real].map((candidate) => this.files.insideAnyRoot(candidate)));
    return planted.some(Boolean) ? null : found.real;
  }
}
