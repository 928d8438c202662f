/**
 * The one interface the desktop worker uses for the accessibility tree, whatever the OS:
 * AT-SPI over D-Bus on Linux, the AX API (through JXA) on macOS, UI Automation (through
 * PowerShell) on Windows (load-accessibility-provider.ts picks one). A provider returns raw trees
 * whose nodes carry an opaque native `ref`, and re-reads an element's current bounds from its ref
 * when the caller acts on it; the snapshot registry swaps refs for short element ids, so native
 * handles never leave the adapter.
 */
import type { ScreenPoint, ScreenRect } from '../../contract/geometry.js';
import type { NativeWindow, UiState } from '../../contract/ui.js';

export interface AccessibilityProvider {
  snapshot(request: NativeSnapshotRequest, operation: string): Promise<NativeSnapshot>;
  /** Where the element is now; NOT_FOUND when it is gone or no longer on screen. */
  bounds(ref: string, operation: string): Promise<ScreenRect>;
  /**
   * Runs the element's accessibility action named `action` (its first one when omitted), so
   * nothing moves the pointer. `done` is the action run, undefined when it has no such action;
   * `actions` what it offers.
   */
  invoke?(ref: string, action: string | undefined, operation: string): Promise<{ done: string | undefined; actions: string[] }>;
  close(): void;
}

export interface NativeNode {
  /** Provider-specific address of the element (e.g. AT-SPI bus name + object path). */
  ref: string;
  role: string;
  name: string;
  value?: string;
  states: UiState[];
  /** Physical desktop pixels; null when the element reports none. */
  bounds: ScreenRect | null;
  /** False for elements the OS says are not on screen (their subtree is dropped). */
  showing: boolean;
  children: NativeNode[];
  /** Children that exist but were not fetched (the provider's own work limit). */
  unfetchedChildren?: number;
}

export interface NativeSnapshotRequest {
  scope: 'window' | 'display';
  /** For scope "display": the display's rectangle; windows intersecting it are included. */
  displayRect?: ScreenRect;
  /** Where the pointer is (to pick a window when none is active). */
  pointer?: ScreenPoint;
  /** How much to fetch at most (the shaper cuts further). */
  fetchDepth: number;
  fetchNodes: number;
}

export interface NativeSnapshot {
  windows: NativeWindow[];
  /** One root per window. */
  roots: NativeNode[];
  /** Nodes that exist but were not fetched (fetch limits). */
  unfetched: number;
  /** A hint when the tree is empty for a known reason (no application exposes accessibility...). */
  hint?: string;
}
