/** The compositor's socket: WAYLAND_DISPLAY as a path, or a name in XDG_RUNTIME_DIR (as libwayland finds it). */
export function waylandSocket(env: NodeJS.ProcessEnv): string | undefined {
  const display = env.WAYLAND_DISPLAY;
  if (!display) return undefined;
  if (display.startsWith('/')) return display;
  return env.XDG_RUNTIME_DIR ? `${env.XDG_RUNTIME_DIR}/${display}` : undefined;
}
