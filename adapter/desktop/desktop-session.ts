/**
 * WorkerOps over the session's desktop backend and accessibility provider: what the desktop
 * worker serves. Runs ONLY inside the worker, where the backend may load native code.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ButtonOptions,
  ButtonResult,
  Capture,
  CaptureOptions,
  ClickResult,
  ClipboardContent,
  ClipboardReadOptions,
  ClipboardWrite,
  DisplayInfo,
  DisplayList,
  DragOptions,
  DragResult,
  KeyOptions,
  KeyResult,
  Modifier,
  MouseButton,
  PointerResult,
  PointerTarget,
  ScrollResult,
  TypeResult,
  UiInvokeResult,
  WindowAction,
  WindowActionResult,
  WindowInfo,
  WindowPlacement,
} from '../contract/desktop.js';
import { adapterError } from '../contract/errors.js';
import type { ScreenRect, ScreenSize } from '../contract/geometry.js';
import { captureArea, displayAt, fitWithin, rectToPhysical } from './coordinates.js';
import type { BackendWindow, DesktopBackend, PasteTimes, WindowBackend } from './desktop-backend.js';
import { DisplayLayout } from './display-layout.js';
import { encodeFrame } from './image-encoder.js';
import { parseKeyCombo } from './keys.js';
import { loadDesktopBackend } from './load-desktop-backend.js';
import { requireMacGrant } from './mac-permissions.js';
import { PointerControl } from './pointer-control.js';
import { scrollClicks } from './scroll-units.js';
import { planTyping } from './typing-plan.js';
import { actionDone, placementDone } from './window-settle.js';
import type { AccessibilityProvider, NativeSnapshot } from './ui/accessibility-provider.js';
import { loadAccessibilityProvider } from './ui/load-accessibility-provider.js';
import { OPERATION_NAMES as OP, type RefTarget, type WorkerOps, type WorkerSnapshotRequest, type WorkerTarget } from './worker-protocol.js';

/** How long an app may take to read the clipboard after ctrl+v before input.type says it pasted nothing. */
const PASTE_WAIT_MS = 3000;
/** After the app read the text, how long it must ask nothing more before the next keystrokes (Chromium reads twice, ~20 ms apart). */
const PASTE_QUIET_MS = 120;
const PASTE_TIMES: PasteTimes = { waitMs: PASTE_WAIT_MS, quietMs: PASTE_QUIET_MS };
/** After clicking an element to focus it, before typing. */
const FOCUS_SETTLE_MS = 60;

export class DesktopSession implements WorkerOps {
  private readonly layout: DisplayLayout;
  private readonly pointer: PointerControl;
  private a11y: AccessibilityProvider | undefined;

  constructor(
    private readonly backend: DesktopBackend,
    private readonly platform: NodeJS.Platform,
  ) {
    this.layout = new DisplayLayout(platform, process.env, backend.screen.displays && (() => backend.screen.displays!()));
    this.pointer = new PointerControl(backend.pointer, {
      displays: (desktop) => this.displays(desktop),
      elementBounds: async (ref, operation) => (await this.accessibility()).bounds(ref, operation),
      keyboard: backend.keyboard,
    });
  }

  /** The backend for this process's session (loads nut-js, which opens the display). */
  static async load(platform: NodeJS.Platform = process.platform): Promise<DesktopSession> {
    return new DesktopSession(await loadDesktopBackend(platform, process.env), platform);
  }

  async listDisplays(): Promise<DisplayList> {
    const desktop = await this.screenSize();
    return { desktop, displays: await this.displays(desktop, true) };
  }

  async captureScreen(options: CaptureOptions): Promise<Capture> {
    requireMacGrant('screen', OP.captureScreen, this.platform);
    const screen = await this.screenSize();
    const displays = await this.displays(screen, true);
    const area = options.zoom
      ? rectToPhysical(options.zoom.rect, options.zoom.space, screen, OP.captureScreen)
      : captureArea(options, screen, displays, OP.captureScreen);
    const whole = area.x === 0 && area.y === 0 && area.width === screen.width && area.height === screen.height;
    const image = await this.backend.screen.grab(whole ? undefined : area);
    const fit = fitWithin(image.width, image.height, options.maxWidth, options.maxHeight, options.maxPixels);
    let pointer: Capture['pointer'];
    if (options.drawPointer) {
      const at = await this.backend.pointer.position(OP.captureScreen);
      const inside = at.x >= area.x && at.y >= area.y && at.x < area.x + area.width && at.y < area.y + area.height;
      const inImage = inside ? { x: Math.floor((at.x - area.x) * fit.scale), y: Math.floor((at.y - area.y) * fit.scale) } : null;
      pointer = { ...at, inImage };
    }
    const data = await encodeFrame(image, fit.width, fit.height, options.format, options.quality, pointer?.inImage ?? undefined);
    return {
      data,
      mimeType: options.format === 'png' ? 'image/png' : 'image/jpeg',
      format: options.format,
      width: fit.width,
      height: fit.height,
      originalWidth: image.width,
      originalHeight: image.height,
      scale: fit.scale,
      area,
      space: { width: fit.width, height: fit.height, area },
      display: displayAt({ x: area.x + Math.floor(area.width / 2), y: area.y + Math.floor(area.height / 2) }, displays),
      ...(pointer ? { pointer } : {}),
    };
  }

  async moveMouse(target: PointerTarget): Promise<PointerResult> {
    requireMacGrant('accessibility', OP.moveMouse, this.platform);
    return this.pointer.move(target, OP.moveMouse);
  }

  async click(options: { target?: WorkerTarget; button: MouseButton; clicks: 1 | 2 | 3; modifiers: Modifier[] }): Promise<ClickResult> {
    requireMacGrant('accessibility', OP.click, this.platform);
    return this.pointer.click(options.target, options.button, options.clicks, options.modifiers, OP.click);
  }

  async scroll(options: { target?: WorkerTarget; dx: number; dy: number; unit: 'clicks' | 'lines' | 'pixels' }): Promise<ScrollResult> {
    requireMacGrant('accessibility', OP.scroll, this.platform);
    return this.pointer.scroll(options.target, scrollClicks(options, OP.scroll), OP.scroll);
  }

  async drag(options: DragOptions): Promise<DragResult> {
    requireMacGrant('accessibility', OP.drag, this.platform);
    return this.pointer.drag(options.path, options.button, options.stepDelayMs, OP.drag);
  }

  async mouseButton(options: ButtonOptions): Promise<ButtonResult> {
    const operation = options.action === 'down' ? 'input.down' : 'input.up';
    requireMacGrant('accessibility', operation, this.platform);
    return this.pointer.button(options.action, options.target, options.button, operation);
  }

  async typeText(text: string, target?: RefTarget): Promise<TypeResult> {
    requireMacGrant('accessibility', OP.typeText, this.platform);
    const plan = planTyping(text, this.platform, OP.typeText);
    let element: TypeResult['element'];
    if (target) {
      element = (await this.pointer.click(target, 'left', 1, [], OP.typeText)).element;
      await sleep(FOCUS_SETTLE_MS);
    }
    const { keyboard } = this.backend;
    let done = 0;
    for (const step of plan.steps) {
      if (step.kind === 'key') await keyboard.tap(step.shift ? ['shift', step.key] : [step.key], OP.pressKeys);
      else if (step.kind === 'text') await keyboard.type(step.text);
      else await this.paste(step.text, done, plan.typedChars); // paste steps exist only on X11, where ctrl+v pastes
      done += step.kind === 'key' ? 1 : [...step.text].length;
    }
    return { typedChars: plan.typedChars, pastedChars: plan.pastedChars, ...(element ? { element } : {}) };
  }

  async pressKeys(combo: string, options: KeyOptions = { holdMs: 0 }): Promise<KeyResult> {
    requireMacGrant('accessibility', OP.pressKeys, this.platform);
    const parsed = parseKeyCombo(combo, OP.pressKeys);
    const keys = [...parsed.modifiers, parsed.key];
    if (options.holdMs <= 0) {
      await this.backend.keyboard.tap(keys, OP.pressKeys);
      return { keys: parsed.canonical, heldMs: 0 };
    }
    const started = performance.now();
    await this.backend.keyboard.hold(keys, OP.pressKeys, () => sleep(options.holdMs));
    return { keys: parsed.canonical, heldMs: Math.round(performance.now() - started) };
  }

  async cursor(): Promise<PointerResult> {
    return this.pointer.position(OP.cursor);
  }

  async screenSize(display?: number): Promise<ScreenSize> {
    const screen = await this.backend.screen.size();
    if (display === undefined) return screen;
    const rect: ScreenRect = captureArea({ display }, screen, await this.displays(screen, true), OP.screenSize);
    return { width: rect.width, height: rect.height };
  }

  async uiSnapshot(request: WorkerSnapshotRequest & { operation?: string }): Promise<NativeSnapshot> {
    const operation = request.operation ?? OP.uiSnapshot;
    requireMacGrant('accessibility', operation, this.platform);
    let displayRect: ScreenRect | undefined;
    if (request.scope === 'display') {
      const screen = await this.screenSize();
      displayRect = captureArea({ display: request.display ?? 0 }, screen, await this.displays(screen, true), operation);
    }
    const a11y = await this.accessibility();
    return a11y.snapshot(
      {
        scope: request.scope,
        displayRect,
        pointer: await this.backend.pointer.position(operation),
        fetchDepth: request.fetchDepth,
        fetchNodes: request.fetchNodes,
      },
      operation,
    );
  }

  /** The accessibility action when the element has one (the pointer stays), else a click when the caller allows it. */
  async uiInvoke(target: RefTarget, action: string | undefined, allowClick: boolean): Promise<UiInvokeResult> {
    const operation = OP.uiInvoke;
    requireMacGrant('accessibility', operation, this.platform);
    const a11y = await this.accessibility();
    const invoked = a11y.invoke ? await a11y.invoke(target.ref, action, operation) : { done: undefined, actions: [] };
    if (invoked.done !== undefined) {
      const bounds = await a11y.bounds(target.ref, operation).catch(() => null);
      return { element: { id: target.id, bounds }, method: 'action', action: invoked.done, actions: invoked.actions };
    }
    const offers = invoked.actions.length ? `it offers ${invoked.actions.map((a) => JSON.stringify(a)).join(', ')}` : 'it offers no accessibility action';
    if (!allowClick) {
      throw adapterError(
        'PRECONDITION_FAILED',
        operation,
        `element ${target.id} has no ${action ? `"${action}" ` : ''}action (${offers}); pass allowClick: true to click its centre instead (that moves the pointer)`,
      );
    }
    const clicked = await this.pointer.click(target, 'left', 1, [], operation);
    return { element: { id: target.id, bounds: clicked.element?.bounds ?? null }, method: 'click', action: 'click', actions: invoked.actions };
  }

  async listWindows(): Promise<WindowInfo[]> {
    const windows = await this.windowBackend(OP.listWindows).list(OP.listWindows);
    return this.placed(windows);
  }

  async windowAction(id: string, action: WindowAction): Promise<WindowActionResult> {
    const operation = `window.${action}`;
    await this.windowBackend(operation).act(id, action, operation);
    const window = (await this.listWindows()).find((w) => w.id === id);
    return { id, action, window: window ?? null, done: actionDone(action, window) };
  }

  async moveResizeWindow(id: string, placement: WindowPlacement): Promise<WindowActionResult> {
    await this.windowBackend(OP.moveResizeWindow).moveResize(id, placement, OP.moveResizeWindow);
    const window = (await this.listWindows()).find((w) => w.id === id);
    return { id, action: 'move_resize', window: window ?? null, done: placementDone(placement, window) };
  }

  async readClipboard(options: ClipboardReadOptions): Promise<ClipboardContent> {
    const { clipboard } = this.backend;
    if (!clipboard.read) throw adapterError('PRECONDITION_FAILED', OP.readClipboard, 'this desktop backend cannot read the clipboard');
    return clipboard.read(options, OP.readClipboard);
  }

  async writeClipboard(content: ClipboardWrite): Promise<{ kind: 'text' | 'image'; bytes: number }> {
    const { clipboard } = this.backend;
    if (!clipboard.write) throw adapterError('PRECONDITION_FAILED', OP.writeClipboard, 'this desktop backend cannot write the clipboard');
    await clipboard.write(content, OP.writeClipboard);
    return 'text' in content ? { kind: 'text', bytes: Buffer.byteLength(content.text, 'utf8') } : { kind: 'image', bytes: content.image.length };
  }

  private windowBackend(operation: string): WindowBackend {
    if (this.backend.windows) return this.backend.windows;
    throw adapterError(
      'PRECONDITION_FAILED',
      operation,
      'this desktop backend cannot list or arrange windows (system.info says which backend serves the session)',
    );
  }

  /** Each window with the display holding its centre. */
  private async placed(windows: BackendWindow[]): Promise<WindowInfo[]> {
    const displays = await this.displays(await this.screenSize());
    return windows.map(({ displayName, ...w }) => ({
      ...w,
      display: w.bounds
        ? displayAt({ x: w.bounds.x + Math.floor(w.bounds.width / 2), y: w.bounds.y + Math.floor(w.bounds.height / 2) }, displays)
        : (displays.find((d) => d.name === displayName)?.index ?? null),
    }));
  }

  /** `fresh` for calls that name a display; pointer results may use a layout up to 2 s old. */
  private async displays(desktop: ScreenSize, fresh = false): Promise<DisplayInfo[]> {
    return this.layout.of(desktop, await this.backend.screen.scaleFactor(), fresh);
  }

  private async accessibility(): Promise<AccessibilityProvider> {
    this.a11y ??= await loadAccessibilityProvider(this.platform, process.env, () => this.backend.screen.scaleFactor());
    return this.a11y;
  }

  /**
   * Pastes `text` with ctrl+v, and waits until the focused app has read it and stopped asking:
   * the keystrokes after it, or the next paste, must not overtake it. `done` of `total`
   * characters are typed; a paste nobody read fails the call saying so.
   */
  private async paste(text: string, done: number, total: number): Promise<void> {
    const press = () => this.backend.keyboard.tap(['ctrl', 'v'], OP.pressKeys);
    const outcome = await this.backend.clipboard.paste(text, press, PASTE_TIMES, OP.typeText);
    if (outcome === 'fetched' || outcome === 'unconfirmed') return;
    const why =
      outcome === 'lost'
        ? 'another program took the clipboard before the focused window read it'
        : `the focused window did not read the clipboard within ${PASTE_WAIT_MS / 1000} s of ctrl+v (ctrl+v must paste there)`;
    throw adapterError(
      'OS_ERROR',
      OP.typeText,
      `the ${[...text].length} character(s) to paste from character ${done + 1} on (a line's non-ASCII part) did not arrive: ${why}. The ${done} character(s) before them were typed, the ${total - done - [...text].length} after them were not.`,
    );
  }
}
