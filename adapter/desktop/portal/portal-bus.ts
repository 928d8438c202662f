/**
 * xdg-desktop-portal over the session bus: plain method calls, and the portal's request
 * pattern (a call returns a Request object path at once; the answer comes later as that
 * object's Response signal, after whatever dialog the portal shows). The Request path is known
 * before the call (our unique name and a handle_token we choose), so the signal is awaited
 * from before the call is sent and none is missed.
 */
import type * as DbusNext from '@jellybrick/dbus-next';
import type { Message, MessageBus } from '@jellybrick/dbus-next';

export const PORTAL_NAME = 'org.freedesktop.portal.Desktop';
export const PORTAL_PATH = '/org/freedesktop/portal/desktop';
const REQUEST = 'org.freedesktop.portal.Request';
/** D-Bus's own default: a first call activates the portal and its backend, slow on a loaded machine. */
const CALL_TIMEOUT_MS = 25_000;

export class PortalError extends Error {
  override name = 'PortalError';
  constructor(
    message: string,
    /** The owner said no in the portal's dialog. */
    readonly declined = false,
    /** The Request's response code, when it answered other than 0 (success) or 1 (cancelled). */
    readonly response?: number,
  ) {
    super(message);
  }
}

type Vardict = Record<string, DbusNext.Variant>;

export class PortalBus {
  private counter = 0;
  private readonly waiting = new Map<string, (response: number, results: Record<string, unknown>) => void>();

  private constructor(
    private readonly dbus: typeof DbusNext,
    private readonly bus: MessageBus,
  ) {
    (bus as unknown as NodeJS.EventEmitter).on('message', (message: Message) => {
      if (message.interface !== REQUEST || message.member !== 'Response' || !message.path) return;
      const done = this.waiting.get(message.path);
      if (!done) return;
      this.waiting.delete(message.path);
      const [response, results] = message.body as [number, Vardict];
      done(response, unwrap(results ?? {}));
    });
    (bus as unknown as NodeJS.EventEmitter).on('error', () => undefined); // a broken bus fails the calls, not the worker
  }

  static async connect(address: string): Promise<PortalBus> {
    const dbus = await import('@jellybrick/dbus-next');
    const bus = dbus.sessionBus({ busAddress: address });
    const portal = new PortalBus(dbus, bus);
    await portal.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch', 's', [
      `type='signal',interface='${REQUEST}',member='Response'`,
    ]);
    return portal;
  }

  /** A portal option dictionary: strings, booleans and unsigned numbers as the portal spells them. */
  vardict(values: Record<string, string | boolean | number | undefined>): Vardict {
    const out: Vardict = {};
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const signature = typeof value === 'string' ? 's' : typeof value === 'boolean' ? 'b' : 'u';
      out[key] = new this.dbus.Variant(signature, value);
    }
    return out;
  }

  async call(destination: string, path: string, iface: string, member: string, signature = '', body: unknown[] = []): Promise<unknown[]> {
    const message = new this.dbus.Message({ destination, path, interface: iface, member, signature, body });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PortalError(`${iface}.${member} got no answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
    });
    try {
      const reply = await Promise.race([this.bus.call(message), timeout]);
      return reply?.body ?? [];
    } catch (error) {
      if (error instanceof PortalError) throw error;
      const e = error as { type?: string; text?: string; message?: string };
      throw new PortalError(`${iface}.${member} failed: ${e.type ? `${e.type}: ${e.text ?? ''}` : e.message}`.slice(0, 300));
    } finally {
      clearTimeout(timer);
    }
  }

  /** A portal method that answers through a Request: `body(options)` builds the arguments around the call's options. */
  async request(
    iface: string,
    member: string,
    signature: string,
    body: (options: Vardict) => unknown[],
    options: Record<string, string | boolean | number | undefined>,
    timeoutMs: number,
  ): Promise<Record<string, unknown>> {
    const token = `chatgpt_mcp_${process.pid}_${++this.counter}`;
    const sender = (this.bus.name ?? '').replace(/^:/, '').replace(/\./g, '_');
    const path = `${PORTAL_PATH}/request/${sender}/${token}`;
    const answer = new Promise<{ response: number; results: Record<string, unknown> }>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(path);
        reject(new PortalError(`the portal's ${member} got no answer within ${Math.round(timeoutMs / 1000)} s (a dialog nobody answered?)`));
      }, timeoutMs);
      this.waiting.set(path, (response, results) => {
        clearTimeout(timer);
        resolve({ response, results });
      });
    });
    try {
      await this.call(PORTAL_NAME, PORTAL_PATH, iface, member, signature, body(this.vardict({ ...options, handle_token: token })));
    } catch (error) {
      this.waiting.delete(path);
      throw error;
    }
    const { response, results } = await answer;
    if (response === 1) throw new PortalError(`the owner declined the portal's ${member} request (the dialog was cancelled)`, true);
    if (response !== 0) throw new PortalError(`the portal ended its ${member} request without an answer (response ${response})`, false, response);
    return results;
  }

  close(): void {
    this.bus.disconnect();
  }
}

/** Variants to plain values, all the way down (streams are arrays of [node, vardict]). */
function unwrap(value: unknown): Record<string, unknown> {
  const plain = (v: unknown): unknown => {
    if (v && typeof v === 'object' && 'signature' in v && 'value' in v) return plain((v as { value: unknown }).value);
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === 'object' && !Buffer.isBuffer(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
    return v;
  };
  return plain(value) as Record<string, unknown>;
}
