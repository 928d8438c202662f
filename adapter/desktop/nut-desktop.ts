/**
 * WorkerOps on nut-js, plus the accessibility provider. Runs ONLY inside the desktop worker:
 * loading nut-js opens the display and segfaults the process without one.
 *
 * Physical pixels: on macOS with a Retina display nut-js moves the pointer in points while
 * captures are in pixels; `density` converts (1 elsewhere).
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as NutJs from '@nut-tree-fork/nut-js';
import { adapterError } from '../contract/errors.js';
import { captureArea, displayAt, fitWithin, rectToPhysical, toPhysical } from './coordinates.js';
import type {
  ButtonOptions,
  ButtonResult,
  Capture,
  CaptureOptions,
  ClickResult,
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
} from '../contract/desktop.js';
import type { ScreenPoint, ScreenRect, ScreenSize } from '../contract/geometry.js';
import { DisplayLayout } from './display-layout.js';
import { encodeFrame } from './image-encoder.js';
import { nutKeyName, parseKeyCombo } from './keys.js';
import { requireMacGrant } from './mac-permissions.js';
import { scrollClicks } from './scroll-units.js';
import { clickSteps, dragSteps, wheelSteps, type PointerStep } from './pointer-actions.js';
import { planTyping } from './typing-plan.js';
import { loadAccessibilityProvider } from './ui/load-accessibility-provider.js';
import type { AccessibilityProvider, NativeSnapshot } from './ui/accessibility-provider.js';
import { localX11Address } from './x11/x11-address.js';
import { X11Clipboard, type PasteOutcome } from './x11/x11-clipboard.js';
import { X11Error } from './x11/x11-connection.js';
import { isRefTarget, OPERATION_NAMES as OP, type RefTarget, type WorkerOps, type WorkerSnapshotRequest, type WorkerTarget } from './worker-protocol.js';

type Nut = typeof NutJs;

/** How long an app may take to read the clipboard after ctrl+v before input.type says it pasted nothing. */
const PASTE_WAIT_MS = 3000;
/** After the app read the text, how long it must ask nothing more before the next keystrokes (Chromium reads twice, ~20 ms apart). */
const PASTE_QUIET_MS = 120;
/** Without our own clipboard owner (a remote display): a pause for the app to fetch it, and how often to read it back. */
const PASTE_SETTLE_MS = 50;
const CLIPBOARD_ATTEMPTS = 25;
const X11_TIMEOUT_MS = 5000;
/** After clicking an element to focus it, before typing. */
const FOCUS_SETTLE_MS = 60;

export class NutDesktop implements WorkerOps {
  private densityCache: number | undefined;
  private readonly layout: DisplayLayout;
  private a11y: AccessibilityProvider | undefined;
  private clipboard: Promise<X11Clipboard | undefined> | undefined;

  private constructor(
    private readonly nut: Nut,
    private readonly platform: NodeJS.Platform,
  ) {
    this.layout = new DisplayLayout(platform);
  }

  static load(platform: NodeJS.Platform = process.platform): NutDesktop {
    const nut = createRequire(import.meta.url)('@nut-tree-fork/nut-js') as Nut;
    // Defaults are 100 ms per mouse action and 300 ms per key: far too slow for a model's calls.
    nut.mouse.config.autoDelayMs = 0;
    nut.keyboard.config.autoDelayMs = 0;
    nut.providerRegistry.getMouse().setMouseDelay(0);
    nut.providerRegistry.getKeyboard().setKeyboardDelay(0);
    return new NutDesktop(nut, platform);
  }

  /**
   * Over a given nut-js-shaped object: for tests of what no machine here has (a Retina display's
   * points against pixels). Production code uses load().
   */
  static over(nut: Nut, platform: NodeJS.Platform): NutDesktop {
    return new NutDesktop(nut, platform);
  }

  async listDisplays(): Promise<DisplayList> {
    const desktop = await this.screenSize();
    return { desktop, displays: await this.displays(desktop, true) };
  }

  async captureScreen(options: CaptureOptions): Promise<Capture> {
    requireMacGrant('screen', OP.captureScreen, this.platform);
    const { nut } = this;
    const screen = await this.screenSize();
    const displays = await this.displays(screen, true);
    const area = options.zoom
      ? rectToPhysical(options.zoom.rect, options.zoom.space, screen, OP.captureScreen)
      : captureArea(options, screen, displays, OP.captureScreen);
    const whole = area.x === 0 && area.y === 0 && area.width === screen.width && area.height === screen.height;
    const d = await this.density();
    const image = whole ? await nut.screen.grab() : await nut.screen.grabRegion(new nut.Region(area.x / d, area.y / d, area.width / d, area.height / d));
    const fit = fitWithin(image.width, image.height, options.maxWidth, options.maxHeight, options.maxPixels);
    let pointer: Capture['pointer'];
    if (options.drawPointer) {
      const at = await this.pointerPosition();
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
    return this.goTo(target, OP.moveMouse);
  }

  async click(options: { target?: WorkerTarget; button: MouseButton; clicks: 1 | 2 | 3; modifiers: Modifier[] }): Promise<ClickResult> {
    requireMacGrant('accessibility', OP.click, this.platform);
    const at = options.target ? await this.goTo(options.target, OP.click) : await this.here();
    await this.holding(options.modifiers, OP.click, () => this.play(clickSteps(options.button, options.clicks)));
    return { ...at, button: options.button, clicks: options.clicks, modifiers: options.modifiers };
  }

  async scroll(options: { target?: WorkerTarget; dx: number; dy: number; unit: 'clicks' | 'lines' | 'pixels' }): Promise<ScrollResult> {
    requireMacGrant('accessibility', OP.scroll, this.platform);
    const clicks = scrollClicks(options, OP.scroll);
    const at = options.target ? await this.goTo(options.target, OP.scroll) : await this.here();
    await this.play(wheelSteps(clicks));
    return { ...at, clicks };
  }

  async drag(options: DragOptions): Promise<DragResult> {
    requireMacGrant('accessibility', OP.drag, this.platform);
    const screen = await this.screenSize();
    // Every point is checked before the button goes down: a bad point must not leave a half-done drag.
    const path = options.path.map((p) => toPhysical(p, screen, OP.drag));
    await this.play(dragSteps(path, options.button, options.stepDelayMs));
    return { button: options.button, path, start: await this.located(path[0]!), end: await this.located(path[path.length - 1]!) };
  }

  async mouseButton(options: ButtonOptions): Promise<ButtonResult> {
    const operation = options.action === 'down' ? 'input.down' : 'input.up';
    requireMacGrant('accessibility', operation, this.platform);
    const at = options.target ? await this.goTo(options.target, operation) : await this.here();
    await this.play([{ kind: options.action === 'down' ? 'press' : 'release', button: options.button, delayMs: 0 }]);
    return { ...at, action: options.action, button: options.button };
  }

  async typeText(text: string, target?: RefTarget): Promise<TypeResult> {
    requireMacGrant('accessibility', OP.typeText, this.platform);
    const plan = planTyping(text, this.platform, OP.typeText);
    let element: TypeResult['element'];
    if (target) {
      const at = await this.goTo(target, OP.typeText);
      await this.nut.mouse.click(this.nut.Button.LEFT);
      await sleep(FOCUS_SETTLE_MS);
      element = at.element;
    }
    let done = 0;
    for (const step of plan.steps) {
      if (step.kind === 'key') await this.tap(step.shift ? ['shift'] : [], step.key);
      else if (step.kind === 'text') await this.nut.keyboard.type(step.text);
      else await this.paste(step.text, done, plan.typedChars); // paste steps exist only on X11, where ctrl+v pastes
      done += step.kind === 'key' ? 1 : [...step.text].length;
    }
    return { typedChars: plan.typedChars, pastedChars: plan.pastedChars, ...(element ? { element } : {}) };
  }

  async pressKeys(combo: string, options: KeyOptions = { holdMs: 0 }): Promise<KeyResult> {
    requireMacGrant('accessibility', OP.pressKeys, this.platform);
    const parsed = parseKeyCombo(combo, OP.pressKeys);
    if (options.holdMs <= 0) {
      await this.tap(parsed.modifiers, parsed.key);
      return { keys: parsed.canonical, heldMs: 0 };
    }
    const keys = this.nutKeys([...parsed.modifiers, parsed.key], OP.pressKeys);
    const started = performance.now();
    await this.nut.keyboard.pressKey(...keys);
    try {
      await sleep(options.holdMs);
    } finally {
      await this.nut.keyboard.releaseKey(...keys);
    }
    return { keys: parsed.canonical, heldMs: Math.round(performance.now() - started) };
  }

  async cursor(): Promise<PointerResult> {
    return this.here();
  }

  async screenSize(display?: number): Promise<ScreenSize> {
    const { nut } = this;
    const d = await this.density();
    const screen = { width: Math.round((await nut.screen.width()) * d), height: Math.round((await nut.screen.height()) * d) };
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
      { scope: request.scope, displayRect, pointer: await this.pointerPosition(), fetchDepth: request.fetchDepth, fetchNodes: request.fetchNodes },
      operation,
    );
  }

  /** Moves to a point or to an element's current centre; returns where, on which display. */
  private async goTo(target: WorkerTarget, operation: string): Promise<PointerResult> {
    const screen = await this.screenSize();
    let point: ScreenPoint;
    let element: PointerResult['element'];
    if (isRefTarget(target)) {
      const bounds = await (await this.accessibility()).bounds(target.ref, operation);
      point = { x: bounds.x + Math.floor(bounds.width / 2), y: bounds.y + Math.floor(bounds.height / 2) };
      if (point.x < 0 || point.y < 0 || point.x >= screen.width || point.y >= screen.height) {
        throw adapterError(
          'NOT_FOUND',
          operation,
          `element ${target.id} is outside the desktop now (centre ${point.x},${point.y}); scroll it into view and take a new ui.snapshot`,
        );
      }
      element = { id: target.id, bounds };
    } else {
      point = toPhysical(target, screen, operation);
    }
    await this.setPointer(point);
    const at = await this.located(point, screen);
    return element ? { ...at, element } : at;
  }

  private async here(): Promise<PointerResult> {
    return this.located(await this.pointerPosition());
  }

  private async located(point: ScreenPoint, screen?: ScreenSize): Promise<PointerResult> {
    return { ...point, display: displayAt(point, await this.displays(screen ?? (await this.screenSize()))) };
  }

  private async pointerPosition(): Promise<ScreenPoint> {
    const at = await this.nut.mouse.getPosition();
    const d = await this.density();
    return { x: Math.round(at.x * d), y: Math.round(at.y * d) };
  }

  /** `fresh` for calls that name a display; pointer results may use a layout up to 2 s old. */
  private async displays(desktop: ScreenSize, fresh = false): Promise<DisplayInfo[]> {
    return this.layout.of(desktop, await this.density(), fresh);
  }

  private async accessibility(): Promise<AccessibilityProvider> {
    this.a11y ??= await loadAccessibilityProvider(this.platform, process.env, () => this.density());
    return this.a11y;
  }

  /** Runs `action` with the modifiers held, releasing them whatever happens. */
  private async holding(modifiers: readonly Modifier[], operation: string, action: () => Promise<void>): Promise<void> {
    if (modifiers.length === 0) return action();
    const keys = this.nutKeys(modifiers, operation);
    await this.nut.keyboard.pressKey(...keys);
    try {
      await action();
    } finally {
      await this.nut.keyboard.releaseKey(...keys);
    }
  }

  /**
   * Pastes `text` with ctrl+v, then waits until the focused app has read it and stopped asking:
   * the keystrokes after it, or the next paste, must not overtake it. `done` of `total`
   * characters are typed; a paste nobody read fails the call saying so.
   */
  private async paste(text: string, done: number, total: number): Promise<void> {
    const press = () => this.tap(['ctrl'], 'v');
    const clipboard = await this.ownClipboard();
    if (!clipboard) {
      await this.setClipboard(text);
      await press();
      await sleep(PASTE_SETTLE_MS);
      return;
    }
    let outcome: PasteOutcome;
    try {
      outcome = await clipboard.paste(text, press, { waitMs: PASTE_WAIT_MS, quietMs: PASTE_QUIET_MS });
    } catch (error) {
      if (!(error instanceof X11Error)) throw error;
      throw adapterError('OS_ERROR', OP.typeText, `the clipboard could not take the text to paste: ${error.message}`);
    }
    if (outcome === 'fetched') return;
    const why =
      outcome === 'lost'
        ? 'another program took the clipboard before the focused window read it'
        : `the focused window did not read the clipboard within ${PASTE_WAIT_MS / 1000} s of ctrl+v (ctrl+v must paste there)`;
    throw adapterError(
      'OS_ERROR',
      OP.typeText,
      `${[...text].length} non-ASCII character(s) from character ${done + 1} on were not pasted: ${why}. The ${done} character(s) before them were typed, the ${total - done - [...text].length} after them were not.`,
    );
  }

  /** Our own clipboard owner on a local X display; undefined where there is none (a remote display: xsel serves it). */
  private async ownClipboard(): Promise<X11Clipboard | undefined> {
    const current = await this.clipboard;
    if (current && !current.closed) return current;
    if (!localX11Address(process.env.DISPLAY)) return undefined;
    this.clipboard = X11Clipboard.connect(process.env, X11_TIMEOUT_MS).catch(() => undefined);
    return this.clipboard;
  }

  /**
   * On X11 the clipboard is served by a forked xsel that takes the selection a moment after
   * setContent returns; pasting before that pastes the old content. Read back until it is ours.
   */
  private async setClipboard(text: string): Promise<void> {
    await this.nut.clipboard.setContent(text);
    for (let attempt = 0; attempt < CLIPBOARD_ATTEMPTS; attempt++) {
      if ((await this.nut.clipboard.getContent()) === text) return;
      await sleep(20);
    }
    throw adapterError(
      'OS_ERROR',
      OP.typeText,
      'the clipboard did not take the text to paste, so non-ASCII characters cannot be typed (on Linux the clipboard needs xsel, bundled with nut-js, and a running X server)',
    );
  }

  private nutKeys(names: readonly string[], operation: string): NutJs.Key[] {
    return names.map((name) => {
      const key = this.nut.Key[nutKeyName(name, this.platform) as keyof typeof NutJs.Key];
      if (key === undefined) throw adapterError('INVALID_INPUT', operation, `the key "${name}" is not available on ${this.platform}`);
      return key;
    });
  }

  /** Presses modifiers + key together and releases them (libnut keyTap). */
  private async tap(modifiers: readonly Modifier[], key: string): Promise<void> {
    await this.nut.keyboard.type(...this.nutKeys([...modifiers, key], OP.pressKeys));
  }

  /** Plays the steps in time; a button the steps pressed is released when a later step fails. */
  private async play(steps: readonly PointerStep[]): Promise<void> {
    const { mouse } = this.nut;
    const pressed = new Set<MouseButton>();
    try {
      for (const step of steps) {
        if (step.delayMs > 0) await sleep(step.delayMs);
        switch (step.kind) {
          case 'move':
            await this.setPointer(step.point);
            break;
          case 'press':
            await mouse.pressButton(BUTTONS[step.button](this.nut));
            pressed.add(step.button);
            break;
          case 'release':
            await mouse.releaseButton(BUTTONS[step.button](this.nut));
            pressed.delete(step.button);
            break;
          case 'wheel':
            if (step.axis === 'y') await (step.direction > 0 ? mouse.scrollDown(1) : mouse.scrollUp(1));
            else await (step.direction > 0 ? mouse.scrollRight(1) : mouse.scrollLeft(1));
        }
      }
    } catch (error) {
      for (const button of pressed) await mouse.releaseButton(BUTTONS[button](this.nut)).catch(() => undefined);
      throw error;
    }
  }

  private async setPointer(point: ScreenPoint): Promise<void> {
    const d = await this.density();
    await this.nut.mouse.setPosition(new this.nut.Point(point.x / d, point.y / d));
  }

  /** Physical pixels per pointer unit: a 1x1-point capture is 2x2 pixels on Retina. */
  private async density(): Promise<number> {
    if (this.densityCache === undefined) {
      if (this.platform !== 'darwin') this.densityCache = 1;
      else {
        // The size of a capture is right even before Screen Recording is granted (only content is hidden).
        this.densityCache = (await this.nut.screen.grabRegion(new this.nut.Region(0, 0, 1, 1))).pixelDensity.scaleX || 1;
      }
    }
    return this.densityCache;
  }
}

const BUTTONS: Record<MouseButton, (nut: Nut) => NutJs.Button> = {
  left: (nut) => nut.Button.LEFT,
  right: (nut) => nut.Button.RIGHT,
  middle: (nut) => nut.Button.MIDDLE,
};
