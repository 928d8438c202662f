/**
 * A minimal Wayland client: the wire format (little-endian words: object id, size and opcode,
 * then arguments padded to 4 bytes), the registry's globals, binding them, a roundtrip through
 * wl_display.sync, and events handed to a listener per object. Written here because no
 * maintained Node Wayland client exists; messages that carry a file descriptor (a keymap) need
 * the unix-fd addon, through which every message is written so all stay in order.
 */
import net from 'node:net';
import { loadNativeAddon } from '../../os/native-addon.js';

export interface UnixFd {
  connect(path: string): number;
  send(fd: number, bytes: Buffer, fds: number[]): number;
  memfd(name: string, bytes: Buffer): number;
  close(fd: number): void;
}

/** One argument of a request: a 32-bit word, a signed word, a 24.8 fixed-point number, a string, or a file descriptor. */
export type WaylandArg = { u: number } | { i: number } | { f: number } | { s: string } | { fd: number };

export interface Global {
  name: number;
  interface: string;
  version: number;
}

export class WaylandError extends Error {
  override name = 'WaylandError';
}

const DISPLAY_ID = 1;
const MAX_MESSAGE_BYTES = 4096;

export class WaylandConnection {
  readonly globals: Global[] = [];
  private nextId = 2;
  private registry = 0;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly listeners = new Map<number, (opcode: number, body: Buffer) => void>();
  private failure: WaylandError | undefined;
  private readonly socket: net.Socket;

  private constructor(
    private readonly fdApi: UnixFd,
    private readonly fd: number,
  ) {
    this.socket = new net.Socket({ fd, readable: true, writable: false });
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (error) => this.fail(new WaylandError(`the Wayland connection failed: ${error.message}`)));
    this.socket.on('close', () => this.fail(new WaylandError('the compositor closed the Wayland connection')));
    this.socket.unref();
    this.listeners.set(DISPLAY_ID, (opcode, body) => {
      if (opcode === 0) this.fail(new WaylandError(`the compositor reported a protocol error: ${readString(body, 8).value} (code ${body.readUInt32LE(4)})`));
    });
  }

  /** Connects to the compositor's socket and reads its globals. */
  static async open(socketPath: string): Promise<WaylandConnection> {
    const fdApi = loadNativeAddon<UnixFd>('unix-fd');
    if (!fdApi) throw new WaylandError('the unix-fd addon is not built (npm run build on Linux with a C compiler): the Wayland backend needs it');
    let fd: number;
    try {
      fd = fdApi.connect(socketPath);
    } catch (error) {
      throw new WaylandError(`could not connect to the Wayland compositor at ${socketPath}: ${(error as Error).message}`);
    }
    const connection = new WaylandConnection(fdApi, fd);
    const registry = connection.newId();
    connection.listen(registry, (opcode, body) => {
      if (opcode !== 0) return;
      const name = body.readUInt32LE(0);
      const iface = readString(body, 4);
      connection.globals.push({ name, interface: iface.value, version: body.readUInt32LE(iface.end) });
    });
    connection.registry = registry;
    connection.request(DISPLAY_ID, 1, [{ u: registry }]);
    await connection.roundtrip();
    return connection;
  }

  get closed(): boolean {
    return this.failure !== undefined;
  }

  /** A memory file holding `bytes`, to pass in a request; the caller closes it once sent. */
  memoryFile(name: string, bytes: Buffer): { fd: number; close(): void } {
    const fd = this.fdApi.memfd(name, bytes);
    return { fd, close: () => this.fdApi.close(fd) };
  }

  /** Binds the global of `iface` (the first one, or the one `pick` chooses), at most at `version`; undefined when the compositor has none. */
  bind(iface: string, version: number, pick: (g: Global) => boolean = () => true): number | undefined {
    const global = this.globals.find((g) => g.interface === iface && pick(g));
    if (!global) return undefined;
    const id = this.newId();
    this.request(this.registry, 0, [{ u: global.name }, { s: iface }, { u: Math.min(version, global.version) }, { u: id }]);
    return id;
  }

  newId(): number {
    return this.nextId++;
  }

  listen(id: number, listener: (opcode: number, body: Buffer) => void): void {
    this.listeners.set(id, listener);
  }

  /** Stops listening to an object the compositor is done with. */
  forget(id: number): void {
    this.listeners.delete(id);
  }

  /** Sends one request; throws when the connection has failed. */
  request(id: number, opcode: number, args: WaylandArg[] = []): void {
    if (this.failure) throw this.failure;
    const parts: Buffer[] = [];
    const fds: number[] = [];
    for (const arg of args) {
      if ('fd' in arg) fds.push(arg.fd);
      else if ('s' in arg) {
        const bytes = Buffer.from(`${arg.s}\0`, 'utf8');
        const part = Buffer.alloc(4 + bytes.length + ((4 - (bytes.length % 4)) % 4));
        part.writeUInt32LE(bytes.length, 0);
        bytes.copy(part, 4);
        parts.push(part);
      } else {
        const word = Buffer.alloc(4);
        if ('u' in arg) word.writeUInt32LE(arg.u >>> 0, 0);
        else if ('i' in arg) word.writeInt32LE(arg.i | 0, 0);
        else word.writeInt32LE(Math.round(arg.f * 256), 0);
        parts.push(word);
      }
    }
    const body = Buffer.concat(parts);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(id, 0);
    header.writeUInt32LE(((8 + body.length) << 16) | opcode, 4);
    try {
      this.fdApi.send(this.fd, Buffer.concat([header, body]), fds);
    } catch (error) {
      this.fail(new WaylandError(`could not write to the compositor: ${(error as Error).message}`));
      throw this.failure;
    }
  }

  /** Resolves once the compositor has handled every request sent before it. */
  roundtrip(timeoutMs = 5000): Promise<void> {
    const callback = this.newId();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new WaylandError(`the compositor did not answer within ${timeoutMs} ms`)), timeoutMs);
      this.socket.ref();
      this.listen(callback, () => {
        clearTimeout(timer);
        this.listeners.delete(callback);
        this.socket.unref();
        resolve();
      });
      try {
        this.request(DISPLAY_ID, 0, [{ u: callback }]);
      } catch (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
  }

  close(): void {
    this.fail(new WaylandError('the Wayland connection was closed'));
  }

  private fail(error: WaylandError): void {
    if (this.failure) return;
    this.failure = error;
    this.socket.destroy(); // closes the descriptor
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let at = 0;
    while (this.buffer.length - at >= 8) {
      const id = this.buffer.readUInt32LE(at);
      const word = this.buffer.readUInt32LE(at + 4);
      const size = word >>> 16;
      if (size < 8 || size > MAX_MESSAGE_BYTES) return this.fail(new WaylandError(`the compositor sent a message of ${size} bytes`));
      if (this.buffer.length - at < size) break;
      this.listeners.get(id)?.(word & 0xffff, this.buffer.subarray(at + 8, at + size));
      at += size;
    }
    this.buffer = Buffer.from(this.buffer.subarray(at));
  }
}

/** A string argument at `at`: its value and where the next argument starts. */
export function readString(body: Buffer, at: number): { value: string; end: number } {
  const length = body.readUInt32LE(at);
  const value = body.toString('utf8', at + 4, at + 4 + Math.max(0, length - 1));
  return { value, end: at + 4 + length + ((4 - (length % 4)) % 4) };
}
