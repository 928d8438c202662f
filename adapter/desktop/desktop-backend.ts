/**
 * What a desktop backend provides for one kind of session: the screen, the pointer, the keyboard
 * and the clipboard, and its windows where it can. The local DesktopOps
 * does the rest over these, the same for every backend: coordinate spaces and bounds checks,
 * which display a point is on, element targets (through the accessibility provider), typing
 * plans, the timing of clicks, wheel clicks and drags (pointer-actions.ts), paste bookkeeping,
 * timeouts and the worker process.
 *
 * Every point and size here is a physical pixel of the virtual desktop; a backend converts to
 * what its OS works in (nut-js on a Retina Mac works in points). Expected failures are thrown as
 * adapterError naming `operation`.
 *
 * The backends: nut/ (nut-js, every platform), x11/ (the X11 protocol: the clipboard and the
 * windows in the worker, the pointer in the server process) and wlroots/ (a Wayland compositor's
 * own protocols), chosen by load-desktop-backend.ts.
 */
import type {
  ClipboardContent,
  ClipboardReadOptions,
  ClipboardWrite,
  DesktopBackendInfo,
  DisplayInfo,
  WindowAction,
  WindowPlacement,
} from '../contract/desktop.js';
import type { ScreenPoint, ScreenRect, ScreenSize } from '../contract/geometry.js';
import type { PointerStep } from './pointer-actions.js';

/** Screen pixels as a backend grabs them. */
export interface RawFrame {
  /** BGRA (as nut-js returns it on every platform; the alpha byte is not meaningful), or packed RGB when `rgb` (grim's PPM). */
  data: Buffer;
  rgb?: boolean;
  width: number;
  height: number;
  /** Bytes per row (may include padding). */
  byteWidth: number;
}

export interface ScreenBackend {
  /** The whole virtual desktop. */
  size(): Promise<ScreenSize>;
  /** Physical pixels per logical point of the main display (2 on a Retina display; 1 where the OS does not scale). */
  scaleFactor(): Promise<number>;
  /** The pixels of `area` (inside the desktop), or of the whole desktop when it is omitted. */
  grab(area?: ScreenRect): Promise<RawFrame>;
  /** The monitors, when the backend knows them itself (else RandR or the whole desktop, displays.ts). */
  displays?(): Promise<Array<Omit<DisplayInfo, 'index'>>>;
}

export interface PointerBackend {
  /** Whether buttons and the wheel work (on X11: the server has XTest); moving and reading always do. */
  readonly canPress: boolean;
  /** The whole desktop as the pointer sees it (what its points are checked against). */
  desktop(): Promise<ScreenSize>;
  position(operation: string): Promise<ScreenPoint>;
  /** Moves to `point` (inside the desktop); resolves with where the pointer is then. */
  moveTo(point: ScreenPoint, operation: string): Promise<ScreenPoint>;
  /** Moves to each point in turn, sent at once; where the pointer was after each (or why that one failed). Optional: else moveTo each. */
  moveToEach?(points: readonly ScreenPoint[], operation: string): Promise<Array<PromiseSettledResult<ScreenPoint>>>;
  /** Plays the steps with their delays; a button the steps pressed is released when a later step fails. */
  play(steps: readonly PointerStep[], operation: string): Promise<void>;
}

/** A pointer with a connection of its own, written as plain protocol (nothing native), so the server process may drive it. */
export interface InProcessPointer extends PointerBackend {
  readonly closed: boolean;
  close(): void;
}

/** Keys by the names keys.ts parses ("ctrl", "shift", "a", "f5", "enter"...), modifiers first. */
export interface KeyboardBackend {
  /** Presses the keys together and releases them. */
  tap(keys: readonly string[], operation: string): Promise<void>;
  /** Presses the keys, runs `action`, and releases them whatever happens. */
  hold(keys: readonly string[], operation: string, action: () => Promise<void>): Promise<void>;
  /** Types printable ASCII (what typing-plan.ts leaves to the keyboard as text). */
  type(text: string): Promise<void>;
}

/**
 * How a paste went: the focused app read the text ('fetched'); another client took the
 * clipboard before anything read it ('lost'); nothing read it in time ('unread'); or the
 * backend cannot see reads and gave the app a moment instead ('unconfirmed').
 */
export type PasteOutcome = 'fetched' | 'lost' | 'unread' | 'unconfirmed';

export interface PasteTimes {
  /** How long the app may take to read the text after ctrl+v. */
  waitMs: number;
  /** After it read the text, how long it must ask nothing more for the paste to be done. */
  quietMs: number;
}

export interface ClipboardBackend {
  /** Puts `text` on the clipboard, calls `press` (which presses ctrl+v), and waits until the app has read it. */
  paste(text: string, press: () => Promise<void>, times: PasteTimes, operation: string): Promise<PasteOutcome>;
  /** What the clipboard holds, bounded; absent where the backend cannot read it. */
  read?(options: ClipboardReadOptions, operation: string): Promise<ClipboardContent>;
  /** Puts text or a PNG on the clipboard, kept until another program takes it. */
  write?(content: ClipboardWrite, operation: string): Promise<void>;
}

/** A top-level window, for backends that can list them. */
export interface BackendWindow {
  /** The backend's own id for it. */
  id: string;
  app: string;
  title: string;
  pid: number | null;
  bounds: ScreenRect | null;
  focused: boolean;
  minimized: boolean;
  maximized: boolean;
  /** The display's name, for a backend that knows where a window is but not its bounds. */
  displayName?: string;
}

/** Listing and arranging top-level windows: an optional capability. */
export interface WindowBackend {
  list(operation: string): Promise<BackendWindow[]>;
  /** Asks the window manager; resolves once it did (or after a short wait: a window manager may ignore a request). */
  act(id: string, action: WindowAction, operation: string): Promise<void>;
  moveResize(id: string, placement: WindowPlacement, operation: string): Promise<void>;
}

export interface DesktopBackend {
  readonly screen: ScreenBackend;
  readonly pointer: PointerBackend;
  readonly keyboard: KeyboardBackend;
  readonly clipboard: ClipboardBackend;
  readonly windows?: WindowBackend;
}

/** One backend as the loader sees it: decided from the environment alone, so nothing native loads to choose. */
export interface BackendChoice {
  /** Whether this backend serves the session `env` names. */
  serves(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean;
  /** Its name and what it cannot do in the session `env` names. */
  info(env: NodeJS.ProcessEnv): DesktopBackendInfo;
  /** Why the session it serves must not be used, or undefined. */
  problem?(env: NodeJS.ProcessEnv): string | undefined;
  /** The backend, in the desktop worker (it may load native code). */
  load(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<DesktopBackend>;
  /** A pointer the server process may drive itself; rejects when it cannot connect. */
  inProcessPointer?(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<InProcessPointer>;
}
