/** Picks the accessibility provider for the platform: AX on macOS, UI Automation on Windows, AT-SPI elsewhere. */
import type { AccessibilityProvider } from './accessibility-provider.js';

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
