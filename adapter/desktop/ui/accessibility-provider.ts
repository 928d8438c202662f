/**
 * The one interface the desktop worker uses for the accessibility tree, whatever the OS:
 * AT-SPI over D-Bus on Linux, the AX API (through JXA) on macOS, UI Automation (through
 * PowerShell) on Windows. A provider returns raw trees with native refs and re-reads an
 * element's current bounds from its ref when the caller acts on it.
 */
import type { ScreenRect } from '../desktop-ops.js';
import type { NativeSnapshot, NativeSnapshotRequest } from './ui-model.js';

export interface AccessibilityProvider {
  snapshot(request: NativeSnapshotRequest, operation: string): Promise<NativeSnapshot>;
  /** Where the element is now; NOT_FOUND when it is gone or no longer on screen. */
  bounds(ref: string, operation: string): Promise<ScreenRect>;
  close(): void;
}

/** `density`: physical pixels per point (macOS reports points). */
export async function loadAccessibilityProvider(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  density: () => Promise<number>,
): Promise<AccessibilityProvider> {
  if (platform === 'darwin') return new (await import('./ax-jxa.js')).AxProvider(density);
  if (platform === 'win32') return new (await import('./uia-powershell.js')).UiaProvider();
  return new (await import('./atspi.js')).AtspiProvider(env);
}
