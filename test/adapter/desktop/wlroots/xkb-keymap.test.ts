/** The virtual keyboard's keymap: a keycode per key name, modifiers mapped, extra characters as Unicode keysyms. */
import { describe, expect, it } from 'vitest';
import { buildKeymap, EXTRA_CAPACITY } from '../../../../adapter/desktop/wlroots/xkb-keymap.js';

describe('buildKeymap', () => {
  it('gives every key name a distinct evdev code, the modifiers their real modifier, and shifted symbols a second level', () => {
    const keymap = buildKeymap();
    const names = ['shift', 'ctrl', 'alt', 'cmd', 'a', 'z', '1', 'enter', 'f24', 'slash', 'numpad0', 'mediaplay'];
    const codes = names.map((n) => keymap.code(n));
    expect(codes.every((c) => typeof c === 'number' && c >= 1)).toBe(true);
    expect(new Set(codes).size).toBe(names.length);
    expect(keymap.text).toMatch(/modifier_map Shift \{ <K9> \};/);
    expect(keymap.text).toMatch(/modifier_map Mod4/);
    expect(keymap.text).toMatch(/\{ \[ 1, U0021 \] \}/); // shift+1 is "!"
    expect(keymap.text).toMatch(/\{ \[ a, A \] \}/);
    expect(keymap.code('é')).toBeUndefined();
  });

  it('adds extra characters as Unicode keysyms, each with a key of its own, up to the capacity', () => {
    const keymap = buildKeymap(['é', '✓', 'é']);
    expect(keymap.text).toMatch(/\{ \[ U00E9 \] \}/);
    expect(keymap.text).toMatch(/\{ \[ U2713 \] \}/);
    expect(keymap.code('é')).not.toBe(keymap.code('✓'));
    expect([...keymap.extras]).toEqual(['é', '✓']);
    const many = Array.from({ length: EXTRA_CAPACITY + 10 }, (_, i) => String.fromCodePoint(0x4e00 + i));
    const full = buildKeymap(many);
    expect(full.extras.size).toBe(EXTRA_CAPACITY);
    expect(full.code(many[EXTRA_CAPACITY - 1]!)! + 8).toBeLessThanOrEqual(255);
  });
});
