/**
 * A minimal client of the X11 core protocol (little-endian) over a Unix socket: the handshake,
 * requests whose last one has a reply, errors, events for listeners, and the root window's size
 * kept current from ConfigureNotify events. Pure JavaScript, so nothing native runs in the
 * server process.
 */
import net from 'node:net';
import { localX11Address, readCookie, untrustedSocket, type X11Cookie } from './x11-address.js';

export interface X11Screen {
  root: number;
  width: number;
  height: number;
}

/** What the setup reply tells beyond the screen: how to name new resources, and the largest request. */
interface X11Setup {
  screen: X11Screen;
  idBase: number;
  idMask: number;
  maxRequestBytes: number;
}

interface Pending {
  /** Sequence number of the request whose reply ends this exchange. */
  last: number;
  /** How many requests the exchange sent (an error for any of them fails it). */
  count: number;
  resolve(reply: Buffer): void;
  reject(error: Error): void;
  failed?: Error;
}

const EVENT_CONFIGURE_NOTIFY = 22;
const GENERIC_EVENT = 35;
const CW_EVENT_MASK = 0x800;
const STRUCTURE_NOTIFY_MASK = 0x20000;
const OPCODE_CHANGE_WINDOW_ATTRIBUTES = 2;
/** Our replies are 32 bytes; anything claiming more than this is not an X server we can talk to. */
const MAX_PACKET_BYTES = 1024 * 1024;

const pad4 = (n: number) => (4 - (n % 4)) % 4;

export class X11Error extends Error {
  constructor(
    message: string,
    /** The X error code (BadValue = 2, ...) when the server refused a request. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'X11Error';
  }
}

export class X11Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private sequence = 0;
  private readonly pending: Pending[] = [];
  private readonly listeners = new Set<(event: Buffer) => void>();
  private closedBy: Error | undefined;
  private lastId = 0;
  readonly screen: X11Screen;
  /** The largest request the server accepts, in bytes. */
  readonly maxRequestBytes: number;

  private constructor(
    private readonly socket: net.Socket,
    private readonly setup: X11Setup,
  ) {
    this.screen = setup.screen;
    this.maxRequestBytes = setup.maxRequestBytes;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.close(new X11Error(`the X connection failed: ${error.message}`)));
    socket.on('close', () => this.close(new X11Error('the X server closed the connection')));
    socket.unref(); // an idle connection must not keep the server alive
  }

  /** Connects and completes the handshake; the root window of `screenIndex` is watched for size changes. */
  static open(socketPath: string, screenIndex: number, cookie: X11Cookie | undefined, timeoutMs: number): Promise<X11Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ path: socketPath });
      let received = Buffer.alloc(0);
      const fail = (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const timer = setTimeout(() => fail(new X11Error(`the X server did not answer the handshake within ${timeoutMs} ms`)), timeoutMs);
      socket.once('error', (error) => fail(new X11Error(`could not connect to the X server: ${error.message}`)));
      socket.on('connect', () => socket.write(handshake(cookie)));
      const onData = (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.length < 8) return;
        const total = 8 + received.readUInt16LE(6) * 4;
        if (received.length < total) return;
        socket.off('data', onData);
        socket.removeAllListeners('error');
        clearTimeout(timer);
        let setup: X11Setup;
        try {
          setup = parseSetup(received.subarray(0, total), screenIndex);
        } catch (error) {
          fail(error as Error);
          return;
        }
        const connection = new X11Connection(socket, setup);
        if (received.length > total) connection.receive(received.subarray(total));
        connection.watchRoot();
        resolve(connection);
      };
      socket.on('data', onData);
    });
  }

  /** Connects to the display `env` names; rejects with the reason when it is not a local X display we can trust and reach. */
  static async openLocal(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<X11Connection> {
    const address = localX11Address(env.DISPLAY);
    if (!address) throw new X11Error(`DISPLAY=${env.DISPLAY ?? ''} is not a local X display`);
    const untrusted = untrustedSocket(address.socketPath);
    if (untrusted) throw new X11Error(untrusted);
    return X11Connection.open(address.socketPath, address.screen, readCookie(env, address.display), timeoutMs);
  }

  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  /** The sequence number the next request will have (16 bits, as in replies and events). */
  get nextSequence(): number {
    return (this.sequence + 1) & 0xffff;
  }

  /** A new resource id (window, pixmap...) of this connection's range. */
  newId(): number {
    const { idBase, idMask } = this.setup;
    const step = idMask & -idMask; // the mask's lowest bit
    const next = (this.lastId + step) & idMask;
    if (next === 0) throw new X11Error('this X connection has used all its resource ids');
    this.lastId = next;
    return (idBase | next) >>> 0;
  }

  /** Calls `listener` with every event (32 bytes, a copy) but the root's ConfigureNotify; returns the function that stops it. */
  onEvent(listener: (event: Buffer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sends requests (each a whole request with its length field set) of which only the last has
   * a reply, and resolves with that reply. An X error for any of them rejects instead.
   */
  exchange(requests: readonly Buffer[], timeoutMs: number): Promise<Buffer> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    this.sequence = (this.sequence + requests.length) & 0xffff;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.close(new X11Error(`the X server did not answer within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
      this.socket.ref(); // keep the process alive while waiting for the reply
      this.pending.push({
        last: this.sequence,
        count: requests.length,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.write(requests.length === 1 ? requests[0]! : Buffer.concat(requests));
    });
  }

  /** Runs `send` (exchanges) with the socket corked: what it writes leaves in one write. */
  together<T>(send: () => T): T {
    this.socket.cork();
    try {
      return send();
    } finally {
      this.socket.uncork();
    }
  }

  close(reason: Error = new X11Error('the X connection was closed')): void {
    if (this.closedBy) return;
    this.closedBy = reason;
    this.buffer = Buffer.alloc(0);
    this.socket.destroy();
    for (const pending of this.pending.splice(0)) pending.reject(reason);
  }

  /** StructureNotify on the root: the server then reports every change of its size (RandR resizes it). */
  private watchRoot(): void {
    const request = Buffer.alloc(16);
    request.writeUInt8(OPCODE_CHANGE_WINDOW_ATTRIBUTES, 0);
    request.writeUInt16LE(4, 2);
    request.writeUInt32LE(this.screen.root, 4);
    request.writeUInt32LE(CW_EVENT_MASK, 8);
    request.writeUInt32LE(STRUCTURE_NOTIFY_MASK, 12);
    this.sequence = (this.sequence + 1) & 0xffff;
    this.socket.write(request);
  }

  private receive(chunk: Buffer): void {
    if (this.closedBy) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let at = 0;
    while (this.buffer.length - at >= 32) {
      const kind = this.buffer[at]! & 0x7f;
      const size = kind === 1 || kind === GENERIC_EVENT ? 32 + this.buffer.readUInt32LE(at + 4) * 4 : 32;
      if (size > MAX_PACKET_BYTES) {
        this.close(new X11Error(`the X server sent a packet of ${size} bytes; the connection was closed`));
        return;
      }
      if (this.buffer.length - at < size) break;
      const packet = this.buffer.subarray(at, at + size);
      at += size;
      if (kind === 0) this.failed(packet);
      else if (kind === 1) this.replied(packet);
      else if (kind === EVENT_CONFIGURE_NOTIFY && packet.readUInt32LE(8) === this.screen.root) {
        this.screen.width = packet.readUInt16LE(20);
        this.screen.height = packet.readUInt16LE(22);
      } else for (const listener of this.listeners) listener(Buffer.from(packet));
    }
    this.buffer = at === this.buffer.length ? Buffer.alloc(0) : Buffer.from(this.buffer.subarray(at));
    if (this.pending.length === 0) this.socket.unref();
  }

  private replied(packet: Buffer): void {
    const sequence = packet.readUInt16LE(2);
    const index = this.pending.findIndex((p) => p.last === sequence);
    if (index < 0) return;
    const [pending] = this.pending.splice(index, 1);
    if (pending!.failed) pending!.reject(pending!.failed);
    else pending!.resolve(Buffer.from(packet));
  }

  /** An error names the request's sequence number: it fails the exchange that request belongs to. */
  private failed(packet: Buffer): void {
    const sequence = packet.readUInt16LE(2);
    const code = packet[1]!;
    const pending = this.pending.find((p) => ((p.last - sequence) & 0xffff) < p.count);
    if (!pending) return; // a request that expected no answer (watching the root)
    pending.failed ??= new X11Error(`the X server refused the request (X error ${code}, request ${packet[10]})`, code);
    if (sequence === pending.last) {
      this.pending.splice(this.pending.indexOf(pending), 1);
      pending.reject(pending.failed);
    }
  }
}

/** A request whose body is 32-bit words (`detail` in the header's second byte). */
export function wordRequest(opcode: number, words: readonly number[], detail = 0): Buffer {
  const request = Buffer.alloc(4 + words.length * 4);
  request.writeUInt8(opcode, 0);
  request.writeUInt8(detail, 1);
  request.writeUInt16LE(1 + words.length, 2);
  words.forEach((word, i) => request.writeUInt32LE(word, 4 + i * 4));
  return request;
}

/** A request naming something (InternAtom, QueryExtension): the name's length, two unused bytes, then the name. */
export function nameRequest(opcode: number, name: string): Buffer {
  const bytes = Buffer.from(name, 'latin1');
  const request = Buffer.alloc(8 + bytes.length + pad4(bytes.length));
  request.writeUInt8(opcode, 0);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt16LE(bytes.length, 4);
  bytes.copy(request, 8);
  return request;
}

function handshake(cookie: X11Cookie | undefined): Buffer {
  const name = Buffer.from(cookie?.name ?? '', 'latin1');
  const data = cookie?.data ?? Buffer.alloc(0);
  const out = Buffer.alloc(12 + name.length + pad4(name.length) + data.length + pad4(data.length));
  out.writeUInt8(0x6c, 0); // 'l': little-endian
  out.writeUInt16LE(11, 2);
  out.writeUInt16LE(0, 4);
  out.writeUInt16LE(name.length, 6);
  out.writeUInt16LE(data.length, 8);
  name.copy(out, 12);
  data.copy(out, 12 + name.length + pad4(name.length));
  return out;
}

/** The setup reply: refused (with the server's reason) or the root window and size of one screen, and the id range. */
function parseSetup(reply: Buffer, screenIndex: number): X11Setup {
  const status = reply[0];
  if (status !== 1) {
    const reason = status === 0 ? reply.toString('latin1', 8, 8 + reply[1]!) : reply.toString('latin1', 8).replace(/\0+$/, '');
    throw new X11Error(`the X server refused the connection: ${reason.trim() || 'no reason given'}`);
  }
  const vendorLength = reply.readUInt16LE(24);
  const screens = reply[28]!;
  const formats = reply[29]!;
  if (screenIndex >= screens) throw new X11Error(`the X server has ${screens} screen(s), not screen ${screenIndex}`);
  let at = 40 + vendorLength + pad4(vendorLength) + formats * 8;
  for (let i = 0; i < screenIndex; i++) {
    const depths = reply[at + 39]!;
    at += 40;
    for (let d = 0; d < depths; d++) at += 8 + reply.readUInt16LE(at + 2) * 24;
  }
  return {
    screen: { root: reply.readUInt32LE(at), width: reply.readUInt16LE(at + 20), height: reply.readUInt16LE(at + 22) },
    idBase: reply.readUInt32LE(12),
    idMask: reply.readUInt32LE(16),
    maxRequestBytes: reply.readUInt16LE(26) * 4,
  };
}
