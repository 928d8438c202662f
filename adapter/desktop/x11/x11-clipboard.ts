/**
 * The CLIPBOARD selection owned from our own X connection, for input.type's paste fallback.
 *
 * Owning it here, instead of handing the text to a forked xsel, shows when the focused app has
 * read the text after ctrl+v, so the next keystrokes (or the next paste) wait for exactly that.
 * An app may read more than once per paste: Chromium asks for TARGETS and the text, then again
 * some 20 ms later, and a paste whose owner changed in between came out empty or as the next
 * paste's text. So a paste is done once the text was read and the app then stays quiet.
 *
 * Served per ICCCM: TARGETS, then the text as UTF8_STRING (also for TEXT and text/plain;
 * charset=utf-8), or as STRING when it is Latin-1, or a PNG as image/png (clipboard.write).
 * Any client of the display may read it, as with every X11 clipboard. Until another client
 * takes the clipboard, it keeps the last content. Reading (clipboard.read) is x11-selection-read.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PasteOutcome, PasteTimes } from '../desktop-backend.js';
import { readSelection, type SelectionRead } from './x11-selection-read.js';
import { nameRequest, wordRequest, X11Connection, X11Error } from './x11-connection.js';

const OPCODE_CREATE_WINDOW = 1;
const OPCODE_INTERN_ATOM = 16;
const OPCODE_CHANGE_PROPERTY = 18;
const OPCODE_SET_SELECTION_OWNER = 22;
const OPCODE_GET_SELECTION_OWNER = 23;
const OPCODE_SEND_EVENT = 25;
const OPCODE_GET_INPUT_FOCUS = 43;
const EVENT_SELECTION_CLEAR = 29;
const EVENT_SELECTION_REQUEST = 30;
const EVENT_SELECTION_NOTIFY = 31;
const WINDOW_CLASS_INPUT_ONLY = 2;
/** Predefined atoms. */
const ATOM_ATOM = 4;
const ATOM_STRING = 31;
const NONE = 0;
const NAMES = ['CLIPBOARD', 'TARGETS', 'UTF8_STRING', 'TEXT', 'text/plain;charset=utf-8', 'image/png', 'INCR', 'CHATGPT_MCP_SELECTION'] as const;
type Atoms = Record<(typeof NAMES)[number], number>;

interface Offer {
  utf8?: Buffer;
  png?: Buffer;
  /** The same text as STRING (ISO Latin-1), when it has only such characters. */
  latin1: Buffer | undefined;
  /** Called after each answered request (`text`: the text itself was sent), while a paste waits. */
  answered?: (text: boolean) => void;
  /** Called when another client took the clipboard. */
  lost?: () => void;
}

/**
 * How long the clipboard's content must go unasked before a new one replaces it. Chromium's read
 * that inserts a paste came 122 ms after its first reads here once, and a paste whose content
 * changed before that read was lost. Only a paste or write right after another one waits.
 */
const SETTLE_MS = 400;
const SETTLE_MAX_MS = 2000;

const pad4 = (n: number) => (4 - (n % 4)) % 4;
const internAtom = (name: string) => nameRequest(OPCODE_INTERN_ATOM, name);
/** Time: CurrentTime. */
const setSelectionOwner = (window: number, selection: number) => wordRequest(OPCODE_SET_SELECTION_OWNER, [window, selection, 0]);
const getSelectionOwner = (selection: number) => wordRequest(OPCODE_GET_SELECTION_OWNER, [selection]);
const getInputFocus = () => wordRequest(OPCODE_GET_INPUT_FOCUS, []);

export class X11Clipboard {
  private offer: Offer | undefined;
  /** The sequence number of our last SetSelectionOwner: a SelectionClear from before it is about an older claim. */
  private claimed = 0;
  /** When an app last asked for our content (performance.now()). */
  private lastAsked = -Infinity;

  private constructor(
    private readonly connection: X11Connection,
    private readonly window: number,
    private readonly atoms: Atoms,
    private readonly timeoutMs: number,
  ) {
    connection.onEvent((event) => this.received(event));
  }

  /** Connects to the local display `env` names and makes the (unmapped) window that owns the clipboard. */
  static async connect(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<X11Clipboard> {
    const connection = await X11Connection.openLocal(env, timeoutMs);
    try {
      const replies = await Promise.all(NAMES.map((name) => connection.exchange([internAtom(name)], timeoutMs)));
      const atoms = Object.fromEntries(NAMES.map((name, i) => [name, replies[i]!.readUInt32LE(8)])) as Atoms;
      const window = connection.newId();
      await connection.exchange([createWindow(window, connection.screen.root), getInputFocus()], timeoutMs);
      return new X11Clipboard(connection, window, atoms, timeoutMs);
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  /**
   * Puts `text` on the clipboard, calls `press` (which presses ctrl+v), and resolves 'fetched'
   * once an app has read the text and then asked nothing for `quietMs` (at most `waitMs` more).
   * 'lost' when another client took the clipboard before anything read the text (taking it after
   * a read is what clipboard managers do to keep it, and is no loss); 'unread' when nothing read the text
   * within `waitMs` (ctrl+v does not paste in that window). A clipboard manager that copies
   * every new content counts as an app that read it.
   */
  async paste(text: string, press: () => Promise<void>, times: PasteTimes): Promise<PasteOutcome> {
    const utf8 = Buffer.from(text, 'utf8');
    if (24 + utf8.length > this.connection.maxRequestBytes) {
      throw new X11Error(`the text is ${utf8.length} bytes; this X server takes at most ${this.connection.maxRequestBytes - 24} in one request`);
    }
    const offer: Offer = { utf8, latin1: /^[\u0000-\u00ff]*$/.test(text) ? Buffer.from(text, 'latin1') : undefined };
    await this.settled();
    this.offer = offer;
    this.claimed = this.connection.nextSequence;
    const owner = await this.connection.exchange(
      [setSelectionOwner(this.window, this.atoms.CLIPBOARD), getSelectionOwner(this.atoms.CLIPBOARD)],
      this.timeoutMs,
    );
    if (owner.readUInt32LE(8) !== this.window) return 'lost';
    const timers: NodeJS.Timeout[] = [];
    const outcome = new Promise<PasteOutcome>((resolve) => {
      const done = (result: PasteOutcome) => {
        timers.forEach(clearTimeout);
        offer.answered = offer.lost = undefined;
        resolve(result);
      };
      let read = false;
      let quiet: NodeJS.Timeout | undefined;
      timers.push(setTimeout(() => done('unread'), times.waitMs));
      offer.answered = (text) => {
        if (!read && !text) return;
        if (!read) {
          read = true;
          timers.forEach(clearTimeout);
          timers.push(setTimeout(() => done('fetched'), times.waitMs)); // an app that never stops asking
        }
        clearTimeout(quiet);
        timers.push((quiet = setTimeout(() => done('fetched'), times.quietMs)));
      };
      // taken after it read the text: a clipboard manager keeping what was copied, which then
      // serves the same text; the quiet wait runs on
      offer.lost = () => read || done('lost');
    });
    try {
      await press();
    } catch (error) {
      timers.forEach(clearTimeout);
      throw error;
    }
    return outcome;
  }

  /** Puts text or a PNG on the clipboard (clipboard.write); it stays there until another client takes it. */
  async write(content: { text: string } | { image: Buffer }): Promise<void> {
    const bytes = 'text' in content ? Buffer.from(content.text, 'utf8') : content.image;
    if (24 + bytes.length > this.connection.maxRequestBytes) {
      throw new X11Error(
        `the content is ${bytes.length} bytes; this X server takes at most ${this.connection.maxRequestBytes - 24} in one request (larger transfers are not offered)`,
      );
    }
    await this.settled();
    this.offer =
      'text' in content
        ? { utf8: bytes, latin1: /^[\u0000-\u00ff]*$/.test(content.text) ? Buffer.from(content.text, 'latin1') : undefined }
        : { png: bytes, latin1: undefined };
    this.claimed = this.connection.nextSequence;
    const owner = await this.connection.exchange(
      [setSelectionOwner(this.window, this.atoms.CLIPBOARD), getSelectionOwner(this.atoms.CLIPBOARD)],
      this.timeoutMs,
    );
    if (owner.readUInt32LE(8) !== this.window) throw new X11Error('another program took the clipboard at once');
  }

  /** What the clipboard holds (ours or another client's), as TARGETS and then the preferred content, at most `maxBytes`. */
  read(prefer: 'text' | 'image', maxBytes: number): Promise<SelectionRead> {
    return readSelection(this.connection, this.window, this.atoms, prefer, maxBytes, this.timeoutMs);
  }

  close(): void {
    this.connection.close();
  }

  /** Waits until nothing asked for the current content for SETTLE_MS (at most SETTLE_MAX_MS). */
  private async settled(): Promise<void> {
    const until = performance.now() + SETTLE_MAX_MS;
    let wait: number;
    while ((wait = Math.min(this.lastAsked + SETTLE_MS, until) - performance.now()) > 0) await sleep(wait);
  }

  private received(event: Buffer): void {
    const kind = event[0]! & 0x7f;
    if (kind === EVENT_SELECTION_REQUEST) {
      if (this.offer) this.lastAsked = performance.now();
      void this.answer(event);
    } else if (kind === EVENT_SELECTION_CLEAR && event.readUInt32LE(8) === this.window && event.readUInt32LE(12) === this.atoms.CLIPBOARD) {
      // an event carries the sequence number of the last request the server had read from us
      if (((event.readUInt16LE(2) - this.claimed) & 0xffff) >= 0x8000) return;
      const offer = this.offer;
      this.offer = undefined;
      offer?.lost?.();
    }
  }

  /** Answers a SelectionRequest: the property is written on the requestor's window, then SelectionNotify tells it so. */
  private async answer(event: Buffer): Promise<void> {
    const [time, requestor, selection, target] = [4, 12, 16, 20].map((at) => event.readUInt32LE(at)) as [number, number, number, number];
    const property = event.readUInt32LE(24) || target; // None: an obsolete client, use the target (ICCCM 2.2)
    const offer = selection === this.atoms.CLIPBOARD ? this.offer : undefined;
    const data = offer && this.data(offer, target);
    const notify = sendEvent(requestor, selectionNotify(time, requestor, selection, target, data ? property : NONE));
    const requests = data ? [changeProperty(requestor, property, data.type, data.format, data.bytes), notify] : [notify];
    try {
      // the reply after them means the server has queued the event: keystrokes sent after that reach the app after the paste
      await this.connection.exchange([...requests, getInputFocus()], this.timeoutMs);
    } catch {
      return; // the requestor's window is gone: nobody to answer
    }
    offer?.answered?.(data?.text === true);
  }

  private data(offer: Offer, target: number): { type: number; format: 8 | 32; bytes: Buffer; text: boolean } | undefined {
    const { atoms } = this;
    if (target === atoms.TARGETS) {
      const text = offer.utf8 ? [atoms.UTF8_STRING, atoms.TEXT, atoms['text/plain;charset=utf-8']] : [];
      const targets = [atoms.TARGETS, ...text, ...(offer.latin1 ? [ATOM_STRING] : []), ...(offer.png ? [atoms['image/png']] : [])];
      const bytes = Buffer.alloc(targets.length * 4);
      targets.forEach((atom, i) => bytes.writeUInt32LE(atom, i * 4));
      return { type: ATOM_ATOM, format: 32, bytes, text: false };
    }
    if (offer.png && target === atoms['image/png']) return { type: target, format: 8, bytes: offer.png, text: true };
    if (!offer.utf8) return undefined;
    if (target === atoms.UTF8_STRING || target === atoms.TEXT) return { type: atoms.UTF8_STRING, format: 8, bytes: offer.utf8, text: true };
    if (target === atoms['text/plain;charset=utf-8']) return { type: target, format: 8, bytes: offer.utf8, text: true };
    if (target === ATOM_STRING && offer.latin1) return { type: ATOM_STRING, format: 8, bytes: offer.latin1, text: true };
    return undefined; // MULTIPLE, TIMESTAMP, images...: refused, the requestor falls back to a target it was offered
  }
}

/** An InputOnly window, never mapped: something to own the selection and receive its requests. */
function createWindow(window: number, parent: number): Buffer {
  const request = Buffer.alloc(32);
  request.writeUInt8(OPCODE_CREATE_WINDOW, 0);
  request.writeUInt8(0, 1); // depth: InputOnly windows take 0
  request.writeUInt16LE(8, 2);
  request.writeUInt32LE(window, 4);
  request.writeUInt32LE(parent, 8);
  request.writeUInt16LE(1, 16); // width
  request.writeUInt16LE(1, 18); // height
  request.writeUInt16LE(WINDOW_CLASS_INPUT_ONLY, 22);
  return request; // visual CopyFromParent, no attributes
}

function changeProperty(window: number, property: number, type: number, format: 8 | 32, bytes: Buffer): Buffer {
  const request = Buffer.alloc(24 + bytes.length + pad4(bytes.length));
  request.writeUInt8(OPCODE_CHANGE_PROPERTY, 0);
  request.writeUInt8(0, 1); // Replace
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt32LE(window, 4);
  request.writeUInt32LE(property, 8);
  request.writeUInt32LE(type, 12);
  request.writeUInt8(format, 16);
  request.writeUInt32LE(bytes.length / (format / 8), 20);
  bytes.copy(request, 24);
  return request;
}

function selectionNotify(time: number, requestor: number, selection: number, target: number, property: number): Buffer {
  const event = Buffer.alloc(32);
  event.writeUInt8(EVENT_SELECTION_NOTIFY, 0);
  event.writeUInt32LE(time, 4);
  event.writeUInt32LE(requestor, 8);
  event.writeUInt32LE(selection, 12);
  event.writeUInt32LE(target, 16);
  event.writeUInt32LE(property, 20);
  return event;
}

function sendEvent(destination: number, event: Buffer): Buffer {
  const request = Buffer.alloc(44);
  request.writeUInt8(OPCODE_SEND_EVENT, 0);
  request.writeUInt8(0, 1); // propagate: no
  request.writeUInt16LE(11, 2);
  request.writeUInt32LE(destination, 4);
  request.writeUInt32LE(0, 8); // event mask: none, so it goes to the window's creator
  event.copy(request, 12);
  return request;
}
