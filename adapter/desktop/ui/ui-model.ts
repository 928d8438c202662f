/**
 * The accessibility tree as the tools see it, the same on every platform: elements with a
 * common role name, name, value, states and bounds in physical desktop pixels. Providers (AT-SPI,
 * AX, UI Automation) produce NativeNodes carrying an opaque `ref`; the snapshot registry swaps
 * refs for short element ids, so native handles never leave the adapter.
 */
import type { ScreenPoint, ScreenRect } from '../desktop-ops.js';

/** States reported when present (absent means false). */
export const UI_STATES = [
  'focused',
  'focusable',
  'enabled',
  'checked',
  'mixed',
  'selected',
  'expanded',
  'collapsed',
  'pressed',
  'editable',
  'readonly',
  'multiline',
  'required',
  'invalid',
] as const;
export type UiState = (typeof UI_STATES)[number];

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

export interface NativeWindow {
  app: string;
  name: string;
  bounds: ScreenRect | null;
  /** How the window was picked: the OS's active window, the one under the pointer, or the largest. */
  chosenBy: 'active' | 'pointer' | 'largest' | 'display';
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
