/**
 * Points and rectangles on the desktop, in physical pixels of the virtual desktop (every
 * monitor; the X11 root window, top-left origin): what desktop.ts and ui.ts both speak.
 * Types only; nothing to implement.
 */

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
