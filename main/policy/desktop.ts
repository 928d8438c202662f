/**
 * The desktop rules, built once per config: which desktop families are granted (every screen,
 * input and ui tool is listed only under `desktop.hostDisplayAccess` plus its own flag), and
 * where a screen capture may be saved. Saving is an owner option (`desktop.saveCaptures`) and
 * the file goes through the filesystem policy like any write; this is the only place the
 * desktop tools ask it.
 */
import { adapterError } from '../../adapter/contract/errors.js';
import type { Config } from '../config/schema.js';
import type { FilesystemPolicy, ResolvedPath } from './filesystem.js';

export type DesktopFamily = 'screen' | 'input';

/** Whether the tools of a family are exposed: the master grant and the family's own flag. */
export function desktopAllows(config: Readonly<Config>, family: DesktopFamily): boolean {
  return config.desktop.hostDisplayAccess && config.desktop[family];
}

const EXTENSIONS: Record<'png' | 'jpeg', readonly string[]> = { png: ['.png'], jpeg: ['.jpg', '.jpeg'] };

export class DesktopPolicy {
  constructor(
    private readonly config: Readonly<Config>,
    private readonly filesystem: Pick<FilesystemPolicy, 'resolve'>,
  ) {}

  /** The real path a capture may be written to: a new file with the format's extension inside a writable root. */
  async captureFile(requested: string, format: 'png' | 'jpeg', operation: string): Promise<ResolvedPath> {
    if (!this.config.desktop.saveCaptures) {
      throw adapterError(
        'CAPABILITY_DISABLED',
        operation,
        'saving captures to files is turned off (desktop.saveCaptures is false); the image is returned in the result instead',
      );
    }
    const allowed = EXTENSIONS[format];
    if (!allowed.some((ext) => requested.toLowerCase().endsWith(ext))) {
      throw adapterError('INVALID_INPUT', operation, `a ${format.toUpperCase()} capture is saved to a file ending in ${allowed.join(' or ')}`);
    }
    const resolved = await this.filesystem.resolve(requested, 'write', operation);
    if (resolved.exists) throw adapterError('ALREADY_EXISTS', operation, `${resolved.path} already exists; choose a new file name for the capture`);
    return resolved;
  }
}
