/**
 * The helper programs of the Wayland backends (grim, wl-copy, wl-paste), looked up in the
 * system's own folders only, never on PATH: a program a tool could write must not stand in for
 * them. They get the compositor's address and nothing else of the environment.
 */
import fs from 'node:fs';

const PLACES = ['/usr/bin', '/usr/local/bin', '/bin'];

export function findSystemProgram(name: string): string | undefined {
  return PLACES.map((dir) => `${dir}/${name}`).find((file) => fs.existsSync(file));
}

export function compositorEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return { WAYLAND_DISPLAY: env.WAYLAND_DISPLAY ?? '', XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR ?? '', PATH: '/usr/bin:/bin', LC_ALL: 'C' };
}
