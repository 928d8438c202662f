/**
 * AT-SPI's vocabulary, decoded: the state set (two 32-bit words, one bit per AtspiStateType)
 * and role names ("push button") mapped to the common role names every provider reports. Pure
 * data, tested on values read from a real Chromium.
 */
import type { UiState } from '../../contract/ui.js';
import { GENERIC_ROLE } from './ui-tree.js';

/** AtspiStateType bit numbers (at-spi2-core atspi-constants.h). */
const BIT = {
  active: 1,
  checked: 4,
  collapsed: 5,
  defunct: 6,
  editable: 7,
  enabled: 8,
  expanded: 10,
  focusable: 11,
  focused: 12,
  multiLine: 17,
  pressed: 20,
  selected: 23,
  sensitive: 24,
  showing: 25,
  visible: 30,
  indeterminate: 32,
  required: 33,
  invalidEntry: 36,
  readOnly: 43,
} as const;

const REPORTED: Array<[UiState, number]> = [
  ['focused', BIT.focused],
  ['focusable', BIT.focusable],
  ['enabled', BIT.enabled],
  ['checked', BIT.checked],
  ['mixed', BIT.indeterminate],
  ['selected', BIT.selected],
  ['expanded', BIT.expanded],
  ['collapsed', BIT.collapsed],
  ['pressed', BIT.pressed],
  ['editable', BIT.editable],
  ['readonly', BIT.readOnly],
  ['multiline', BIT.multiLine],
  ['required', BIT.required],
  ['invalid', BIT.invalidEntry],
];

export interface DecodedStates {
  states: UiState[];
  /** On screen as far as the toolkit knows (SHOWING and VISIBLE). */
  showing: boolean;
  active: boolean;
  defunct: boolean;
}

export function decodeStates(words: readonly number[]): DecodedStates {
  const has = (bit: number) => (((words[bit >> 5] ?? 0) >>> (bit & 31)) & 1) === 1;
  return {
    states: REPORTED.filter(([, bit]) => has(bit)).map(([name]) => name),
    showing: has(BIT.showing) && has(BIT.visible),
    active: has(BIT.active),
    defunct: has(BIT.defunct),
  };
}

/** AT-SPI role name -> common role. Unlisted names pass through with spaces removed. */
const ROLES: Record<string, string> = {
  'push button': 'button',
  'toggle button': 'togglebutton',
  'check box': 'checkbox',
  'radio button': 'radio',
  'check menu item': 'menuitemcheckbox',
  'radio menu item': 'menuitemradio',
  'menu item': 'menuitem',
  'menu bar': 'menubar',
  'popup menu': 'menu',
  'combo box': 'combobox',
  entry: 'textbox',
  'password text': 'password',
  text: 'textbox',
  'spin button': 'spinbutton',
  'page tab': 'tab',
  'page tab list': 'tablist',
  'list item': 'listitem',
  'list box': 'listbox',
  'tree item': 'treeitem',
  'tree table': 'treegrid',
  'table cell': 'cell',
  'table row': 'row',
  'column header': 'columnheader',
  'row header': 'rowheader',
  'tool bar': 'toolbar',
  'status bar': 'status',
  'scroll bar': 'scrollbar',
  'progress bar': 'progressbar',
  'level bar': 'meter',
  'document web': 'document',
  'document frame': 'document',
  'document text': 'document',
  static: 'text',
  label: 'text',
  paragraph: 'paragraph',
  heading: 'heading',
  image: 'image',
  icon: 'image',
  frame: 'window',
  window: 'window',
  dialog: 'dialog',
  alert: 'alert',
  'tool tip': 'tooltip',
  panel: GENERIC_ROLE,
  section: GENERIC_ROLE,
  filler: GENERIC_ROLE,
  unknown: GENERIC_ROLE,
  'redundant object': GENERIC_ROLE,
  invalid: GENERIC_ROLE,
  'scroll pane': GENERIC_ROLE,
  viewport: GENERIC_ROLE,
};

export function commonRole(atspiRole: string): string {
  const role = atspiRole.trim().toLowerCase();
  return ROLES[role] ?? role.replace(/\s+/g, '');
}

/** Roles whose text is read as the value (through the Text interface). */
export const TEXT_VALUE_ROLES = new Set(['textbox', 'combobox', 'searchbox']);
/** Roles whose number is read as the value (through the Value interface). */
export const NUMBER_VALUE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter', 'dial']);
