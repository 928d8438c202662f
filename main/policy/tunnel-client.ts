/**
 * The tunnel client runs with the runtime key and reaches this computer's server with its
 * token, so it must be a program no tool can replace: like shell.exec's programs, one found in
 * (or really living in) a writable filesystem root is refused. The filesystem policy decides
 * what is writable; this module only asks it about both places.
 */
import type { FilesystemPolicy } from './filesystem.js';

const op = 'tunnel.client';

/** Why this client may not be run, or null when it may. */
export async function tunnelClientRefusal(
  files: FilesystemPolicy,
  client: { found: string; real: string },
  dirname: (p: string) => string,
): Promise<string | null> {
  for (const candidate of [dirname(client.found), client.real]) {
    const writable = await files.resolve(candidate, 'write', op).then(
      () => true,
      () => false,
    );
    if (writable) {
      return `${client.found} is inside a folder the model may write to (a writable filesystem root), so a tool could replace it; keep the tunnel client outside every writable root.`;
    }
  }
  return null;
}
