/**
 * Screen and input operations behind the seam (spec 7.2). All coordinates are physical screen
 * pixels of the whole desktop (every monitor), top-left origin. Plain TypeScript: the MCP
 * tools own the public schemas, the desktop client owns the worker process.
 */

export type ImageFormat = 'png' | 'jpeg';
export type MouseButton = 'left' | 'right' | 'middle';

export interface ScreenRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenPoint {
  x: number;
  y: number;
}

export interface ScreenSize {
  width: number;
  height: number;
}

export interface CaptureOptions {
  /** Physical pixels; relative to the display when `display` is given, else to the whole desktop. */
  region?: ScreenRect;
  /** Index of a monitor as the OS lists it; omitted means the whole desktop. */
  display?: number;
  format: ImageFormat;
  /** The image is downscaled (never upscaled) to fit both limits, keeping the aspect ratio. */
  maxWidth: number;
  maxHeight: number;
  /** JPEG quality 1-100; ignored for PNG. */
  quality?: number;
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
}

/** A coordinate space the caller's x/y are in (e.g. a downscaled capture), mapped onto the whole desktop. */
export type CoordinateSpace = ScreenSize;

export interface PointerTarget {
  x: number;
  y: number;
  space?: CoordinateSpace;
}

export interface ClickOptions {
  /** Both or neither; neither clicks where the pointer is. */
  x?: number;
  y?: number;
  space?: CoordinateSpace;
  button: MouseButton;
  double: boolean;
}

export interface ClickResult extends ScreenPoint {
  button: MouseButton;
  double: boolean;
}

export interface TypeResult {
  /** Characters (code points) entered in total. */
  typedChars: number;
  /** Of those, how many went through the clipboard-paste fallback. */
  pastedChars: number;
}

export interface KeyResult {
  /** The combination as pressed, in canonical form (e.g. "ctrl+shift+t"). */
  keys: string;
}

export interface DesktopOps {
  captureScreen(options: CaptureOptions): Promise<Capture>;
  /** Returns the physical point reached. */
  moveMouse(target: PointerTarget): Promise<ScreenPoint>;
  click(options: ClickOptions): Promise<ClickResult>;
  typeText(text: string): Promise<TypeResult>;
  /** A combination like "ctrl+shift+t", "cmd+space", "alt+f4", "enter" (case-insensitive). */
  pressKeys(combo: string): Promise<KeyResult>;
  /** Physical size of the whole desktop, or of one display. */
  screenSize(display?: number): Promise<ScreenSize>;
}
