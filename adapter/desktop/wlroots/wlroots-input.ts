/**
 * Pointer and keyboard on a wlroots compositor (sway, Hyprland, river...), as a virtual pointer
 * (wlr-virtual-pointer-unstable-v1) and a virtual keyboard (virtual-keyboard-unstable-v1) of
 * the compositor's seat: the events reach whatever window is under the pointer or focused, as a
 * real device's would. Wayland tells no client where the pointer is, so its position is where
 * this pointer last put it. Each action ends with a roundtrip: once it resolves, the compositor
 * has handled every event.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { adapterError } from '../../contract/errors.js';
import type { MouseButton } from '../../contract/desktop.js';
import type { ScreenPoint } from '../../contract/geometry.js';
import type { KeyboardBackend, PointerBackend } from '../desktop-backend.js';
import type { PointerStep } from '../pointer-actions.js';
import { usKeystroke } from '../typing-plan.js';
import type { WaylandConnection } from './wayland-connection.js';
import type { WlrootsOutputs } from './wlroots-outputs.js';
import { buildKeymap, EXTRA_CAPACITY, MODIFIER_KEYS, type Keymap } from './xkb-keymap.js';

/** Linux input event codes of the buttons. */
const BUTTON_CODES: Record<MouseButton, number> = { left: 0x110, right: 0x111, middle: 0x112 };
const WHEEL_SOURCE = 0;
/** One wheel click is 15 units of axis motion (libinput's convention). */
const WHEEL_CLICK = 15;
const KEYMAP_FORMAT_XKB_V1 = 1;
const now = () => Date.now() >>> 0;
/** The keymap's named keys: a character among them needs no extra key. */
const BASE = buildKeymap();

export function wlrootsPointer(connection: WaylandConnection, outputs: WlrootsOutputs, seat: number | undefined): PointerBackend {
  const manager = connection.bind('zwlr_virtual_pointer_manager_v1', 2);
  if (manager === undefined) throw new Error('the compositor has no virtual pointer (wlr-virtual-pointer-unstable-v1)');
  const pointer = connection.newId();
  connection.request(manager, 0, [{ u: seat ?? 0 }, { u: pointer }]);
  let at: ScreenPoint = { x: 0, y: 0 };
  const frame = () => connection.request(pointer, 4);
  const moveTo = (point: ScreenPoint) => {
    const desktop = outputs.size();
    connection.request(pointer, 1, [{ u: now() }, { u: point.x }, { u: point.y }, { u: desktop.width }, { u: desktop.height }]);
    frame();
    at = { x: point.x, y: point.y };
  };
  return {
    canPress: true,
    desktop: async () => outputs.size(),
    position: async () => ({ ...at }),
    async moveTo(point) {
      moveTo(point);
      await connection.roundtrip();
      return { ...at };
    },
    async play(steps: readonly PointerStep[], operation: string) {
      const held = new Set<MouseButton>();
      try {
        for (const step of steps) {
          if (step.delayMs > 0) {
            await connection.roundtrip();
            await sleep(step.delayMs);
          }
          if (step.kind === 'move') moveTo(step.point);
          else if (step.kind === 'wheel') {
            const axis = step.axis === 'y' ? 0 : 1;
            connection.request(pointer, 5, [{ u: WHEEL_SOURCE }]);
            connection.request(pointer, 7, [{ u: now() }, { u: axis }, { f: WHEEL_CLICK * step.direction }, { i: step.direction }]);
            frame();
          } else {
            connection.request(pointer, 2, [{ u: now() }, { u: BUTTON_CODES[step.button] }, { u: step.kind === 'press' ? 1 : 0 }]);
            frame();
            if (step.kind === 'press') held.add(step.button);
            else held.delete(step.button);
          }
        }
        await connection.roundtrip();
      } catch (error) {
        for (const button of held) {
          try {
            connection.request(pointer, 2, [{ u: now() }, { u: BUTTON_CODES[button] }, { u: 0 }]);
          } catch {
            // the connection is gone: the compositor released the device's buttons with it
          }
        }
        throw adapterError('OS_ERROR', operation, `the compositor did not take the pointer events: ${(error as Error).message}`);
      }
    },
  };
}

/** The virtual keyboard, and how it types any text: characters its keymap lacks are added to it first. */
export interface WlrootsKeyboard extends KeyboardBackend {
  typeText(text: string): Promise<void>;
}

export function wlrootsKeyboard(connection: WaylandConnection, seat: number | undefined): WlrootsKeyboard {
  const manager = connection.bind('zwp_virtual_keyboard_manager_v1', 1);
  if (manager === undefined || seat === undefined) throw new Error('the compositor has no virtual keyboard (virtual-keyboard-unstable-v1) or no seat');
  const keyboard = connection.newId();
  connection.request(manager, 0, [{ u: seat }, { u: keyboard }]);
  let keymap: Keymap | undefined;
  const useKeymap = (next: Keymap) => {
    const bytes = Buffer.from(`${next.text}\0`, 'utf8');
    const file = connection.memoryFile('chatgpt-mcp-keymap', bytes);
    try {
      connection.request(keyboard, 0, [{ u: KEYMAP_FORMAT_XKB_V1 }, { fd: file.fd }, { u: bytes.length }]);
    } finally {
      file.close();
    }
    keymap = next;
  };
  useKeymap(BASE);
  let mods = 0;
  const key = (code: number, down: boolean) => connection.request(keyboard, 1, [{ u: now() }, { u: code }, { u: down ? 1 : 0 }]);
  const setMods = (next: number) => {
    mods = next;
    connection.request(keyboard, 2, [{ u: mods }, { u: 0 }, { u: 0 }, { u: 0 }]);
  };
  const code = (name: string, operation: string) => {
    const found = keymap!.code(name);
    if (found === undefined) throw adapterError('INVALID_INPUT', operation, `the virtual keyboard has no key "${name}"`);
    return found;
  };
  const press = (names: readonly string[], operation: string) => {
    for (const name of names) {
      key(code(name, operation), true);
      const modifier = MODIFIER_KEYS[name as keyof typeof MODIFIER_KEYS];
      if (modifier) setMods(mods | modifier.mask);
    }
  };
  const release = (names: readonly string[], operation: string) => {
    for (const name of [...names].reverse()) {
      key(code(name, operation), false);
      const modifier = MODIFIER_KEYS[name as keyof typeof MODIFIER_KEYS];
      if (modifier) setMods(mods & ~modifier.mask);
    }
  };
  const tap = async (keys: readonly string[], operation: string) => {
    press(keys, operation);
    release(keys, operation);
    await connection.roundtrip();
  };
  return {
    tap,
    async hold(keys, operation, action) {
      press(keys, operation);
      await connection.roundtrip();
      try {
        await action();
      } finally {
        release(keys, operation);
        await connection.roundtrip();
      }
    },
    async type(text) {
      for (const char of text) {
        const stroke = usKeystroke(char);
        await tap(stroke.shift ? ['shift', stroke.key] : [stroke.key], 'input.type');
      }
    },
    async typeText(text) {
      const chars = [...text];
      for (let start = 0; start < chars.length;) {
        // the characters of the next stretch that no key names, as many as fit in one keymap
        const chunk = new Set<string>();
        let end = start;
        for (; end < chars.length; end++) {
          const char = chars[end]!;
          if (BASE.code(char) !== undefined) continue;
          if (!chunk.has(char) && chunk.size === EXTRA_CAPACITY) break;
          chunk.add(char);
        }
        if ([...chunk].some((char) => !keymap!.extras.has(char))) useKeymap(buildKeymap(chunk));
        for (const char of chars.slice(start, end)) {
          const c = code(char, 'input.type');
          key(c, true);
          key(c, false);
        }
        await connection.roundtrip();
        start = end;
      }
    },
  };
}
