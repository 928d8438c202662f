/**
 * Reads the CLIPBOARD selection per ICCCM: ConvertSelection of TARGETS onto our own window, then
 * of the preferred target (UTF8_STRING, STRING or image/png), each answered by a SelectionNotify
 * once the owner wrote the property, which GetProperty then reads and deletes. One GetProperty
 * reply at most: content an owner hands over incrementally (INCR, for transfers larger than one
 * request) is refused as too large, which bounds what a read costs.
 */
import { wordRequest, type X11Connection, X11Error } from './x11-connection.js';

const OPCODE_GET_PROPERTY = 20;
const OPCODE_GET_ATOM_NAME = 17;
const OPCODE_CONVERT_SELECTION = 24;
const OPCODE_GET_INPUT_FOCUS = 43;
const EVENT_SELECTION_NOTIFY = 31;
const ATOM_STRING = 31;
/** The connection refuses packets over 1 MiB: a property reply stays under it. */
const MAX_PROPERTY_BYTES = 1024 * 1024 - 64;

/** The atoms a read names (the clipboard owner's connection interned them). */
export type Atoms = Record<'CLIPBOARD' | 'TARGETS' | 'UTF8_STRING' | 'image/png' | 'INCR' | 'CHATGPT_MCP_SELECTION', number>;

export interface SelectionRead {
  /** The target names the owner offered. */
  formats: string[];
  kind: 'text' | 'image' | 'empty';
  data: Buffer;
  /** Bytes of the whole content (more than data holds when it was cut). */
  bytes: number;
}

export async function readSelection(
  connection: X11Connection,
  window: number,
  atoms: Atoms,
  prefer: 'text' | 'image',
  maxBytes: number,
  timeoutMs: number,
): Promise<SelectionRead> {
  const targets = await convert(connection, window, atoms, atoms.TARGETS, 64 * 1024, timeoutMs);
  if (!targets) return { formats: [], kind: 'empty', data: Buffer.alloc(0), bytes: 0 };
  const offered = Array.from({ length: Math.floor(targets.data.length / 4) }, (_, i) => targets.data.readUInt32LE(i * 4));
  const formats = await Promise.all(offered.slice(0, 64).map((atom) => atomName(connection, atom, timeoutMs)));
  const text = offered.includes(atoms.UTF8_STRING) ? atoms.UTF8_STRING : offered.includes(ATOM_STRING) ? ATOM_STRING : undefined;
  const image = offered.includes(atoms['image/png']) ? atoms['image/png'] : undefined;
  const target = prefer === 'image' ? (image ?? text) : (text ?? image);
  if (target === undefined) return { formats, kind: 'empty', data: Buffer.alloc(0), bytes: 0 };
  const read = await convert(connection, window, atoms, target, Math.min(maxBytes, MAX_PROPERTY_BYTES), timeoutMs);
  if (!read) return { formats, kind: 'empty', data: Buffer.alloc(0), bytes: 0 };
  if (read.type === atoms.INCR) {
    throw new X11Error('the clipboard content is larger than one X request (the owner offers it incrementally), more than clipboard.read takes');
  }
  // STRING is Latin-1: re-encode it as UTF-8 like the rest
  const data = target === ATOM_STRING ? Buffer.from(read.data.toString('latin1'), 'utf8') : read.data;
  return { formats, kind: target === image ? 'image' : 'text', data, bytes: read.data.length + read.after };
}

/** Asks the owner for `target` and reads what it wrote; undefined when it refused (or nobody owns the clipboard). */
async function convert(
  connection: X11Connection,
  window: number,
  atoms: Atoms,
  target: number,
  maxBytes: number,
  timeoutMs: number,
): Promise<{ type: number; data: Buffer; after: number } | undefined> {
  const property = atoms.CHATGPT_MCP_SELECTION;
  let stop: () => void = () => undefined;
  const notified = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new X11Error(`the program owning the clipboard did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = connection.onEvent((event) => {
      if ((event[0]! & 0x7f) !== EVENT_SELECTION_NOTIFY || event.readUInt32LE(8) !== window || event.readUInt32LE(16) !== target) return;
      stop();
      resolve(event.readUInt32LE(20));
    });
    stop = () => {
      clearTimeout(timer);
      off();
    };
  });
  try {
    await connection.exchange(
      [wordRequest(OPCODE_CONVERT_SELECTION, [window, atoms.CLIPBOARD, target, property, 0]), wordRequest(OPCODE_GET_INPUT_FOCUS, [])],
      timeoutMs,
    );
  } catch (error) {
    stop();
    throw error;
  }
  if ((await notified) === 0) return undefined;
  const words = Math.ceil(maxBytes / 4) + 1;
  const reply = await connection.exchange([wordRequest(OPCODE_GET_PROPERTY, [window, property, 0, 0, words], 1)], timeoutMs);
  const format = reply[1]!;
  const length = reply.readUInt32LE(16) * (format / 8 || 1);
  const data = Buffer.from(reply.subarray(32, 32 + Math.min(length, maxBytes)));
  const after = reply.readUInt32LE(12) + Math.max(0, length - maxBytes);
  return { type: reply.readUInt32LE(8), data, after };
}

async function atomName(connection: X11Connection, atom: number, timeoutMs: number): Promise<string> {
  const reply = await connection.exchange([wordRequest(OPCODE_GET_ATOM_NAME, [atom])], timeoutMs);
  return reply.toString('latin1', 32, 32 + reply.readUInt16LE(8));
}
