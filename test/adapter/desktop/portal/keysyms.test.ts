/** Keysyms for the RemoteDesktop portal: the key names' X keysyms, and any character as its own. */
import { describe, expect, it } from 'vitest';
import { charKeysym, keysymOf } from '../../../../adapter/desktop/portal/keysyms.js';

describe('keysyms', () => {
  it('names keys as X does', () => {
    expect([keysymOf('enter'), keysymOf('ctrl'), keysymOf('a'), keysymOf('f1'), keysymOf('f24'), keysymOf('numpad7')]).toEqual([
      0xff0d, 0xffe3, 0x61, 0xffbe, 0xffd5, 0xffb7,
    ]);
    expect(keysymOf('nosuchkey')).toBeUndefined();
  });

  it('types ASCII and Latin-1 as themselves, anything else as 0x01000000 + its code point', () => {
    expect([charKeysym('A'), charKeysym('é'), charKeysym('✓'), charKeysym('😀')]).toEqual([0x41, 0xe9, 0x1002713, 0x101f600]);
  });
});
