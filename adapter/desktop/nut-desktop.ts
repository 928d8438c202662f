/**
 * DesktopOps on nut-js. Runs ONLY inside the desktop worker: loading nut-js opens the display
 * and segfaults the process without one.
 *
 * Physical pixels: on macOS with a Retina display nut-js moves the pointer in points while
 * captures are in pixels; `density` converts (1 elsewhere).
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as NutJs from '@nut-tree-fork/nut-js';
import { adapterError } from '../errors.js';
import { captureArea, fitWithin, toPhysical } from './coordinates.js';
import type {
  Capture,
  CaptureOptions,
  ClickOptions,
  ClickResult,
  DesktopOps,
  KeyResult,
  MouseButton,
  PointerTarget,
  ScreenPoint,
  ScreenRect,
  ScreenSize,
  TypeResult,
} from './desktop-ops.js';
import { listDisplays } from './displays.js';
import { encodeFrame } from './image-encoder.js';
import { nutKeyName, parseKeyCombo, type Modifier } from './keys.js';
import { requireMacGrant } from './mac-permissions.js';
import { planTyping } from './typing-plan.js';
import { OPERATION_NAMES as OP } from './worker-protocol.js';

type Nut = typeof NutJs;

/** Lets the target app fetch the clipboard before the next keystrokes arrive (GTK pastes asynchronously). */
const PASTE_SETTLE_MS = 50;
const CLIPBOARD_ATTEMPTS = 25;

export class NutDesktop implements DesktopOps {
  private densityCache: number | undefined;

  private constructor(
    private readonly nut: Nut,
    private readonly platform: NodeJS.Platform,
  ) {}

  static load(platform: NodeJS.Platform = process.platform): NutDesktop {
    const nut = createRequire(import.meta.url)('@nut-tree-fork/nut-js') as Nut;
    // Defaults are 100 ms per mouse action and 300 ms per key: far too slow for a model's calls.
    nut.mouse.config.autoDelayMs = 0;
    nut.keyboard.config.autoDelayMs = 0;
    nut.providerRegistry.getMouse().setMouseDelay(0);
    nut.providerRegistry.getKeyboard().setKeyboardDelay(0);
    return new NutDesktop(nut, platform);
  }

  async captureScreen(options: CaptureOptions): Promise<Capture> {
    requireMacGrant('screen', OP.captureScreen, this.platform);
    const { nut } = this;
    const screen = await this.screenSize();
    const displays = options.display === undefined ? [] : await listDisplays(screen, this.platform);
    const area = captureArea(options, screen, displays, OP.captureScreen);
    const whole = area.x === 0 && area.y === 0 && area.width === screen.width && area.height === screen.height;
    const d = await this.density();
    const image = whole ? await nut.screen.grab() : await nut.screen.grabRegion(new nut.Region(area.x / d, area.y / d, area.width / d, area.height / d));
    const fit = fitWithin(image.width, image.height, options.maxWidth, options.maxHeight);
    const data = await encodeFrame(image, fit.width, fit.height, options.format, options.quality);
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
    };
  }

  async moveMouse(target: PointerTarget): Promise<ScreenPoint> {
    requireMacGrant('accessibility', OP.moveMouse, this.platform);
    const point = toPhysical(target, await this.screenSize(), OP.moveMouse);
    await this.setPointer(point);
    return point;
  }

  async click(options: ClickOptions): Promise<ClickResult> {
    requireMacGrant('accessibility', OP.click, this.platform);
    const { nut } = this;
    let point: ScreenPoint;
    if (options.x !== undefined && options.y !== undefined) {
      point = toPhysical({ x: options.x, y: options.y, space: options.space }, await this.screenSize(), OP.click);
      await this.setPointer(point);
    } else {
      const at = await nut.mouse.getPosition();
      const d = await this.density();
      point = { x: Math.round(at.x * d), y: Math.round(at.y * d) };
    }
    const button = BUTTONS[options.button](nut);
    if (options.double) await nut.mouse.doubleClick(button);
    else await nut.mouse.click(button);
    return { ...point, button: options.button, double: options.double };
  }

  async typeText(text: string): Promise<TypeResult> {
    requireMacGrant('accessibility', OP.typeText, this.platform);
    const plan = planTyping(text, this.platform, OP.typeText);
    for (const step of plan.steps) {
      if (step.kind === 'key') await this.tap(step.shift ? ['shift'] : [], step.key);
      else if (step.kind === 'text') await this.nut.keyboard.type(step.text);
      else {
        await this.setClipboard(step.text); // paste steps exist only on X11, where ctrl+v pastes
        await this.tap(['ctrl'], 'v');
        await sleep(PASTE_SETTLE_MS);
      }
    }
    return { typedChars: plan.typedChars, pastedChars: plan.pastedChars };
  }

  async pressKeys(combo: string): Promise<KeyResult> {
    requireMacGrant('accessibility', OP.pressKeys, this.platform);
    const parsed = parseKeyCombo(combo, OP.pressKeys);
    await this.tap(parsed.modifiers, parsed.key);
    return { keys: parsed.canonical };
  }

  async screenSize(display?: number): Promise<ScreenSize> {
    const { nut } = this;
    const d = await this.density();
    const screen = { width: Math.round((await nut.screen.width()) * d), height: Math.round((await nut.screen.height()) * d) };
    if (display === undefined) return screen;
    const rect: ScreenRect = captureArea({ display }, screen, await listDisplays(screen, this.platform), OP.screenSize);
    return { width: rect.width, height: rect.height };
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

  /** Presses modifiers + key together and releases them (libnut keyTap). */
  private async tap(modifiers: readonly Modifier[], key: string): Promise<void> {
    const keys = [...modifiers, key].map((name) => this.nut.Key[nutKeyName(name, this.platform) as keyof typeof NutJs.Key]);
    if (keys.some((k) => k === undefined)) throw adapterError('INVALID_INPUT', OP.pressKeys, `the key "${key}" is not available on ${this.platform}`);
    await this.nut.keyboard.type(...keys);
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
