/**
 * The accessibility tree as the tools see it, the same on every platform: elements with a
 * common role name, name, value, states and bounds in physical desktop pixels, named by short
 * element ids that stay valid for one snapshot handle.
 *
 * For an adapter author: DesktopOps.uiSnapshot and uiFind answer in these shapes; keep native
 * handles inside the adapter (hand out element ids, and resolve them when an ElementTarget
 * comes back), and keep maxDepth, maxNodes and maxResults.
 */
import type { ScreenRect } from './geometry.js';

/** States reported when present (absent means false). */
export type UiState =
  | 'focused'
  | 'focusable'
  | 'enabled'
  | 'checked'
  | 'mixed'
  | 'selected'
  | 'expanded'
  | 'collapsed'
  | 'pressed'
  | 'editable'
  | 'readonly'
  | 'multiline'
  | 'required'
  | 'invalid';

export interface NativeWindow {
  app: string;
  name: string;
  bounds: ScreenRect | null;
  /** How the window was picked: the OS's active window, the one under the pointer, or the largest. */
  chosenBy: 'active' | 'pointer' | 'largest' | 'display';
}

export interface UiElement {
  id: string;
  role: string;
  name: string;
  value?: string;
  states: UiState[];
  bounds: ScreenRect | null;
  children?: UiElement[];
}

export interface UiSnapshotOptions {
  scope: 'window' | 'display';
  display?: number;
  maxDepth: number;
  maxNodes: number;
  /** Keep only elements whose role, name or value contains this (case-insensitive), with their ancestors. */
  text?: string;
}

export interface UiTruncation {
  /** Elements left out because the tree was deeper than maxDepth. */
  byDepth: number;
  /** Elements left out because maxNodes was reached (or the provider's fetch limit). */
  byCount: number;
}

export interface UiSnapshot {
  snapshotHandle: string;
  scope: 'window' | 'display';
  windows: NativeWindow[];
  elements: UiElement[];
  nodeCount: number;
  truncated: UiTruncation;
  /** Elements the text filter removed. */
  filteredOut: number;
  hint?: string;
}

export interface UiFindOptions {
  role?: string;
  name?: string;
  scope: 'window' | 'display';
  display?: number;
  maxResults: number;
}

export interface UiFindResult {
  snapshotHandle: string;
  windows: NativeWindow[];
  /** Flat: matching elements without children. */
  matches: UiElement[];
  /** More matched than maxResults. */
  truncated: boolean;
  /** Elements searched. */
  searched: number;
  hint?: string;
}
