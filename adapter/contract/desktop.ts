/**
 * Screen, input and accessibility operations behind the seam. All coordinates are
 * physical pixels of the virtual desktop (every monitor; the X11 root window, top-left origin).
 * Plain TypeScript: the MCP tools own the public schemas.
 *
 * For an adapter author: a remote adapter implements DesktopOps whole, on the machine it acts
 * on. A new kind of session on this computer (Wayland) does not: it is a backend under
 * adapter/desktop/ (desktop-backend.ts says what a backend provides), and the local DesktopOps
 * keeps doing the rest (coordinate spaces, element targets, typing plans, bounds and timeouts).
 */
import type { ScreenPoint, ScreenRect, ScreenSize } from './geometry.js';
import type { UiFindOptions, UiFindResult, UiSnapshot, UiSnapshotOptions } from './ui.js';

export type ImageFormat = 'png' | 'jpeg';
export type MouseButton = 'left' | 'right' | 'middle';

/** One monitor: where it sits in the virtual desktop, in physical pixels. */
export interface DisplayInfo extends ScreenRect {
  index: number;
  /** Physical pixels per logical point (2 on a Retina display); 1 where the OS does not scale coordinates (X11). */
  scaleFactor: number;
  primary: boolean;
  name: string;
}

export interface DisplayList {
  /** The virtual desktop every coordinate is defined against. */
  desktop: ScreenSize;
  displays: DisplayInfo[];
}

/**
 * A coordinate space the caller's x/y are in: `width` x `height` units spread over `area`
 * (physical pixels; the whole desktop when omitted). screen.capture returns the space of its image.
 */
export interface CoordinateSpace extends ScreenSize {
  area?: ScreenRect;
}

export interface CaptureOptions {
  /** Physical pixels; relative to the display when `display` is given, else to the whole desktop. */
  region?: ScreenRect;
  /** Index of a monitor (see listDisplays); omitted means the whole desktop. */
  display?: number;
  /** Instead of region/display: a rectangle in desktop pixels or in `space` (e.g. read from an earlier capture). */
  zoom?: { rect: ScreenRect; space?: CoordinateSpace };
  format: ImageFormat;
  /** The image is downscaled (never upscaled) to fit every limit, keeping the aspect ratio. */
  maxWidth: number;
  maxHeight: number;
  maxPixels: number;
  /** JPEG quality 1-100; ignored for PNG. */
  quality?: number;
  /** Draw the mouse pointer into the image. */
  drawPointer?: boolean;
}

export interface Capture {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
  format: ImageFormat;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  /** width / originalWidth: image pixel = (screen pixel - area origin) * scale. */
  scale: number;
  /** The captured area in physical desktop pixels. */
  area: ScreenRect;
  /** Pass this as `space` to act on a point read from the image. */
  space: Required<CoordinateSpace>;
  /** The display the area lies on (the one holding its centre). */
  display: number;
  /** Where the pointer is, when drawn: desktop pixels and image pixels (null when outside the image). */
  pointer?: { x: number; y: number; inImage: ScreenPoint | null };
}

export interface PointerTarget {
  x: number;
  y: number;
  space?: CoordinateSpace;
}

/** An element of an earlier ui.snapshot / ui.find: acted on at its current bounds. */
export interface ElementTarget {
  element: string;
  snapshotHandle: string;
}

export type Target = PointerTarget | ElementTarget;

export type Modifier = 'ctrl' | 'alt' | 'shift' | 'cmd';

/** The physical point an action used, and the display it is on. */
export interface PointerResult extends ScreenPoint {
  display: number;
  /** The element acted on, with the bounds it had at that moment. */
  element?: { id: string; bounds: ScreenRect };
}

/** Moves made in order: where each reached, and why the next one failed (the rest were not made). */
export interface PointerMoves {
  reached: PointerResult[];
  failure?: unknown;
}

export interface ClickOptions {
  /** Omitted: click where the pointer is. */
  target?: Target;
  button: MouseButton;
  clicks: 1 | 2 | 3;
  /** Held down during the click. */
  modifiers: Modifier[];
}

export interface ClickResult extends PointerResult {
  button: MouseButton;
  clicks: number;
  modifiers: Modifier[];
}

export type ScrollUnit = 'clicks' | 'lines' | 'pixels';

export interface ScrollOptions {
  target?: Target;
  /** Positive scrolls down / right. */
  dx: number;
  dy: number;
  unit: ScrollUnit;
}

export interface ScrollResult extends PointerResult {
  /** Wheel clicks sent on each axis (positive: down / right). */
  clicks: ScreenPoint;
}

export interface DragOptions {
  /** At least two points: press at the first, move through the others, release at the last. */
  path: PointerTarget[];
  button: MouseButton;
  /** Pause between points so apps see each move. */
  stepDelayMs: number;
}

export interface DragResult {
  button: MouseButton;
  /** The physical points passed through. */
  path: ScreenPoint[];
  start: PointerResult;
  end: PointerResult;
}

export interface ButtonOptions {
  action: 'down' | 'up';
  target?: PointerTarget;
  button: MouseButton;
}

export interface ButtonResult extends PointerResult {
  action: 'down' | 'up';
  button: MouseButton;
}

export interface TypeOptions {
  /** Click this element first (to focus it), then type. */
  target?: ElementTarget;
}

export interface TypeResult {
  /** Characters (code points) entered in total. */
  typedChars: number;
  /** Of those, how many went through the clipboard-paste fallback. */
  pastedChars: number;
  /** The element clicked before typing. */
  element?: { id: string; bounds: ScreenRect };
}

export interface KeyOptions {
  /** Keep the combination pressed this long before releasing it (the OS repeats a held key). */
  holdMs: number;
}

export interface KeyResult {
  /** The combination as pressed, in canonical form (e.g. "ctrl+shift+t"). */
  keys: string;
  heldMs: number;
}

/** A top-level window as window.list shows it. */
export interface WindowInfo {
  /** The backend's id for it (an X11 window id in hex, a compositor's node id...). */
  id: string;
  title: string;
  /** The application (WM_CLASS on X11, app_id on Wayland). */
  app: string;
  pid: number | null;
  /** Physical desktop pixels; null when the window manager does not say. */
  bounds: ScreenRect | null;
  focused: boolean;
  minimized: boolean;
  maximized: boolean;
  /** The display holding the window's centre; null when it has no bounds. */
  display: number | null;
}

export type WindowAction = 'focus' | 'minimize' | 'maximize' | 'restore' | 'close';

/** A new place and/or size for a window; what is omitted stays. */
export interface WindowPlacement {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

export interface WindowActionResult {
  id: string;
  action: WindowAction | 'move_resize';
  /** The window as it is after the action (null once closed or gone). */
  window: WindowInfo | null;
  /** Whether the window shows the action done (a window manager may ignore or refuse a request). */
  done: boolean;
}

/** What the clipboard holds, as read: text, or a PNG image. */
export interface ClipboardContent {
  kind: 'text' | 'image' | 'empty';
  text?: string;
  image?: { data: Buffer; mimeType: 'image/png' };
  /** Bytes of the content before any cut. */
  bytes: number;
  /** Text was longer than maxBytes and was cut at a character boundary. */
  truncated: boolean;
  /** The formats the clipboard offered (MIME types and X11 target names). */
  formats: string[];
}

export interface ClipboardReadOptions {
  /** Which content to prefer when both are offered. */
  prefer: 'text' | 'image';
  /** Text beyond this is cut; an image beyond it is refused. */
  maxBytes: number;
}

export type ClipboardWrite = { text: string } | { image: Buffer };

export interface UiInvokeOptions {
  target: ElementTarget;
  /** The accessibility action to run (e.g. "press", "toggle"); the element's default one when omitted. */
  action?: string;
  /** When the element has no such action: click its centre instead (moves the pointer). */
  allowClick: boolean;
}

export interface UiInvokeResult {
  element: { id: string; bounds: ScreenRect | null };
  /** 'action': the accessibility API ran it and the pointer stayed; 'click': it was clicked. */
  method: 'action' | 'click';
  action: string;
  /** The actions the element offers. */
  actions: string[];
}

/** Which desktop backend serves the session, for system.info and screen.displays. */
export interface DesktopBackendInfo {
  /** x11, wayland-wlroots, nut-js... */
  name: string;
  /** What the backend cannot do here, in the owner's words. */
  limits: string[];
  /** What the OS itself granted, where it asks the owner (the Wayland portal's dialog). */
  granted?: string;
}

export interface DesktopOps {
  listDisplays(): Promise<DisplayList>;
  captureScreen(options: CaptureOptions): Promise<Capture>;
  moveMouse(target: PointerTarget): Promise<PointerResult>;
  /**
   * Moves in order, sent together where the pointer can (one wake-up of the display server for
   * them all, not one each): the points reached, up to the first move that failed and why.
   * Optional: without it a batch makes one moveMouse per move.
   */
  moveMouseMany?(targets: readonly PointerTarget[]): Promise<PointerMoves>;
  click(options: ClickOptions): Promise<ClickResult>;
  scroll(options: ScrollOptions): Promise<ScrollResult>;
  drag(options: DragOptions): Promise<DragResult>;
  mouseButton(options: ButtonOptions): Promise<ButtonResult>;
  typeText(text: string, options?: TypeOptions): Promise<TypeResult>;
  /** A combination like "ctrl+shift+t", "cmd+space", "alt+f4", "enter" (case-insensitive). */
  pressKeys(combo: string, options?: KeyOptions): Promise<KeyResult>;
  /** Where the pointer is. */
  cursor(): Promise<PointerResult>;
  /** A bounded pause; ends early (rejecting) when the signal aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<{ waitedMs: number }>;
  /** Physical size of the whole desktop, or of one display. */
  screenSize(display?: number): Promise<ScreenSize>;
  uiSnapshot(options: UiSnapshotOptions): Promise<UiSnapshot>;
  uiFind(options: UiFindOptions): Promise<UiFindResult>;
  /** Runs an element's accessibility action (the pointer stays), or clicks it when allowed and it has none. */
  uiInvoke(options: UiInvokeOptions): Promise<UiInvokeResult>;
  listWindows(): Promise<WindowInfo[]>;
  windowAction(id: string, action: WindowAction): Promise<WindowActionResult>;
  moveResizeWindow(id: string, placement: WindowPlacement): Promise<WindowActionResult>;
  readClipboard(options: ClipboardReadOptions): Promise<ClipboardContent>;
  writeClipboard(content: ClipboardWrite): Promise<{ kind: 'text' | 'image'; bytes: number }>;
  /** The backend serving the session and what it cannot do (nothing native loads to say so). */
  backendInfo(): Promise<DesktopBackendInfo>;
}
