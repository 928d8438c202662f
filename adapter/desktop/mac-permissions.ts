/**
 * macOS privacy grants. Screen Recording and Accessibility are user grants (TCC), not
 * entitlements: without them capture returns only the wallpaper and input is silently dropped.
 * The worker checks them before each native call and fails with where to grant them.
 * The grant belongs to the app that runs the server (the tray app; for the headless server,
 * the terminal app). Uses the optional @nut-tree-fork/node-mac-permissions that nut-js
 * installs on macOS; without it the check is skipped.
 */
import { createRequire } from 'node:module';
import { adapterError } from '../contract/errors.js';

interface MacPermissions {
  getAuthStatus(type: 'screen' | 'accessibility'): string;
  askForScreenCaptureAccess(): void;
  askForAccessibilityAccess(): void;
}

export type MacGrant = 'screen' | 'accessibility';

const PANE: Record<MacGrant, string> = { screen: 'Screen Recording', accessibility: 'Accessibility' };
const granted = new Set<MacGrant>();
const asked = new Set<MacGrant>();
let permissions: MacPermissions | null | undefined;

function load(): MacPermissions | null {
  if (permissions === undefined) {
    try {
      permissions = createRequire(import.meta.url)('@nut-tree-fork/node-mac-permissions') as MacPermissions;
    } catch {
      permissions = null;
    }
  }
  return permissions;
}

export function requireMacGrant(grant: MacGrant, operation: string, platform: NodeJS.Platform = process.platform): void {
  if (platform !== 'darwin' || granted.has(grant)) return;
  const api = load();
  if (!api) return;
  const status = api.getAuthStatus(grant);
  if (status === 'authorized') {
    granted.add(grant);
    return;
  }
  // Asking once lists the app in System Settings so the owner only has to switch it on.
  if (status === 'not determined' && !asked.has(grant)) {
    asked.add(grant);
    if (grant === 'screen') api.askForScreenCaptureAccess();
    else api.askForAccessibilityAccess();
  }
  const restart = grant === 'screen' ? ', then restart it' : '';
  throw adapterError(
    'PRECONDITION_FAILED',
    operation,
    `macOS has not granted ${PANE[grant]} permission to this app (status: ${status}). Open System Settings > Privacy & Security > ${PANE[grant]} ` +
      `and turn it on for ChatGPT Computer MCP (or, for the headless server, for the terminal app that runs it)${restart}.`,
  );
}
