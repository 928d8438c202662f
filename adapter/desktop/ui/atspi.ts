/**
 * Linux accessibility: AT-SPI over D-Bus with @jellybrick/dbus-next (a maintained fork of
 * dbus-next: pure JavaScript, one persistent connection, no process per call). The AT-SPI bus
 * address comes from AT_SPI_BUS_ADDRESS or from org.a11y.Bus.GetAddress on the session bus.
 * Calls for one level of the tree are sent together (pipelined), so a 200-element window costs
 * a few round trips per level, not one per attribute.
 */
import type * as DbusNext from '@jellybrick/dbus-next';
import type { Message as DbusMessage, MessageBus } from '@jellybrick/dbus-next';
import { adapterError } from '../../contract/errors.js';
import { mapLimit } from '../../process/map-limit.js';
import type { ScreenPoint, ScreenRect } from '../../contract/geometry.js';
import type { AccessibilityProvider, NativeNode, NativeSnapshot, NativeSnapshotRequest } from './accessibility-provider.js';
import { commonRole, decodeStates, NUMBER_VALUE_ROLES, TEXT_VALUE_ROLES } from './atspi-model.js';
import type { NativeWindow } from '../../contract/ui.js';

type Dbus = typeof DbusNext;

const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const COMPONENT = 'org.a11y.atspi.Component';
const ACTION = 'org.a11y.atspi.Action';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
const REGISTRY = 'org.a11y.atspi.Registry';
const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const NULL_PATH = '/org/a11y/atspi/null';
const COORD_SCREEN = 0;
const CALL_TIMEOUT_MS = 3000;
const IN_FLIGHT = 48;
const MAX_VALUE_CHARS = 500;

type Ref = [bus: string, path: string];

interface Fetched {
  node: NativeNode;
  childRefs: Ref[];
  active: boolean;
  defunct: boolean;
}

const encodeRef = ([bus, path]: Ref) => `${bus}|${path}`;
function decodeRef(ref: string): Ref {
  const at = ref.indexOf('|');
  return [ref.slice(0, at), ref.slice(at + 1)];
}

export class AtspiProvider implements AccessibilityProvider {
  private dbus: Dbus | undefined;
  private bus: MessageBus | undefined;
  private busFailed: string | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async snapshot(request: NativeSnapshotRequest, operation: string): Promise<NativeSnapshot> {
    const bus = await this.connect(operation);
    const apps = await this.children(bus, [REGISTRY, ROOT_PATH]).catch((error: unknown) => {
      throw this.failed(operation, error);
    });
    const windows: Array<Fetched & { app: string }> = [];
    await mapLimit(apps, 8, async (appRef) => {
      const app = await this.fetch(bus, appRef).catch(() => undefined);
      if (!app) return;
      const fetched = await mapLimit(app.childRefs, IN_FLIGHT, (ref) => this.fetch(bus, ref).catch(() => undefined));
      for (const w of fetched) if (w && w.node.showing && !w.defunct) windows.push({ ...w, app: app.node.name });
    });
    const chosen = chooseWindows(windows, request);
    if (chosen.length === 0) {
      return {
        windows: [],
        roots: [],
        unfetched: 0,
        hint:
          apps.length === 0
            ? 'no application is on the accessibility bus: GTK and Qt apps register when at-spi2 is running; Chromium and Electron apps need --force-renderer-accessibility (or ACCESSIBILITY_ENABLED=1)'
            : request.scope === 'display'
              ? 'no window of an accessible application is on this display'
              : 'no accessible window is showing',
      };
    }
    let budget = request.fetchNodes;
    let unfetched = 0;
    const roots: NativeNode[] = [];
    for (const { win } of chosen) {
      const walked = await this.walk(bus, win, request.fetchDepth, Math.max(0, budget));
      budget -= walked.fetched;
      unfetched += walked.unfetched;
      roots.push(win.node);
    }
    return { windows: chosen.map((c) => c.window), roots, unfetched };
  }

  async bounds(ref: string, operation: string): Promise<ScreenRect> {
    const bus = await this.connect(operation);
    const address = decodeRef(ref);
    let words: number[];
    let rect: number[];
    try {
      [words, rect] = await Promise.all([
        this.call(bus, address, ACCESSIBLE, 'GetState').then((m) => m.body[0] as number[]),
        this.call(bus, address, COMPONENT, 'GetExtents', 'u', [COORD_SCREEN]).then((m) => m.body[0] as number[]),
      ]);
    } catch (error) {
      throw adapterError('NOT_FOUND', operation, `the element is gone (${dbusReason(error)}); take a new ui.snapshot`);
    }
    const states = decodeStates(words);
    const [x = 0, y = 0, width = 0, height = 0] = rect;
    if (states.defunct) throw adapterError('NOT_FOUND', operation, 'the element is gone (its application removed it); take a new ui.snapshot');
    if (!states.showing || width <= 0 || height <= 0) {
      throw adapterError('NOT_FOUND', operation, 'the element is no longer on screen (hidden, collapsed or scrolled away); take a new ui.snapshot');
    }
    return { x, y, width, height };
  }

  /** AT-SPI's Action interface: GetActions names them, DoAction runs one in the application (no pointer, no focus change). */
  async invoke(ref: string, action: string | undefined, operation: string): Promise<{ done: string | undefined; actions: string[] }> {
    const bus = await this.connect(operation);
    const address = decodeRef(ref);
    // gone: NOT_FOUND. Not its place or SHOWING state: an action needs neither, and on Wayland
    // apps often know no screen place (GTK 4 reports its widgets VISIBLE but not SHOWING there)
    const words = await this.call(bus, address, ACCESSIBLE, 'GetState').then(
      (m) => m.body[0] as number[],
      (error: unknown) => {
        throw adapterError('NOT_FOUND', operation, `the element is gone (${dbusReason(error)}); take a new ui.snapshot`);
      },
    );
    if (decodeStates(words).defunct) throw adapterError('NOT_FOUND', operation, 'the element is gone (its application removed it); take a new ui.snapshot');
    let actions: string[];
    try {
      const reply = await this.call(bus, address, ACTION, 'GetActions');
      actions = (reply.body[0] as Array<[string, string, string]>).map(([name]) => String(name));
    } catch {
      return { done: undefined, actions: [] }; // no Action interface
    }
    const wanted = action?.trim().toLowerCase();
    const index = wanted === undefined ? (actions.length > 0 ? 0 : -1) : actions.findIndex((name) => name.toLowerCase() === wanted);
    if (index < 0) return { done: undefined, actions };
    let ran: boolean;
    try {
      ran = (await this.call(bus, address, ACTION, 'DoAction', 'i', [index])).body[0] === true;
    } catch (error) {
      throw adapterError('OS_ERROR', operation, `the application refused the "${actions[index]}" action (${dbusReason(error)})`);
    }
    if (!ran) throw adapterError('OS_ERROR', operation, `the application did not run the "${actions[index]}" action`);
    return { done: actions[index], actions };
  }

  close(): void {
    this.bus?.disconnect();
    this.bus = undefined;
  }

  /** Breadth-first, one level of calls in flight at a time; hidden subtrees are not fetched. */
  private async walk(bus: MessageBus, root: Fetched, maxDepth: number, maxNodes: number): Promise<{ fetched: number; unfetched: number }> {
    let fetched = 0;
    let unfetched = 0;
    let level: Fetched[] = [root];
    for (let depth = 1; level.length > 0; depth++) {
      const tasks: Array<{ parent: NativeNode; ref: Ref }> = [];
      for (const item of level) {
        for (const ref of item.childRefs) {
          if (depth > maxDepth || fetched >= maxNodes) {
            item.node.unfetchedChildren = (item.node.unfetchedChildren ?? 0) + 1;
            unfetched++;
          } else {
            fetched++;
            tasks.push({ parent: item.node, ref });
          }
        }
      }
      const results = await mapLimit(tasks, IN_FLIGHT, (task) => this.fetch(bus, task.ref).catch(() => undefined));
      const next: Fetched[] = [];
      results.forEach((result, i) => {
        if (!result || result.defunct) return; // gone while we walked
        tasks[i]!.parent.children.push(result.node);
        if (result.node.showing) next.push(result);
      });
      level = next;
    }
    return { fetched, unfetched };
  }

  private async fetch(bus: MessageBus, ref: Ref): Promise<Fetched> {
    const [roleName, name, words, childRefs, extents] = await Promise.all([
      this.call(bus, ref, ACCESSIBLE, 'GetRoleName').then((m) => String(m.body[0])),
      this.property(bus, ref, ACCESSIBLE, 'Name').then((v) => String(v ?? '')),
      this.call(bus, ref, ACCESSIBLE, 'GetState').then((m) => m.body[0] as number[]),
      this.children(bus, ref),
      this.call(bus, ref, COMPONENT, 'GetExtents', 'u', [COORD_SCREEN]).then(
        (m) => m.body[0] as number[],
        () => undefined,
      ),
    ]);
    const decoded = decodeStates(words);
    const role = commonRole(roleName);
    const bounds = extents && extents.length === 4 ? { x: extents[0]!, y: extents[1]!, width: extents[2]!, height: extents[3]! } : null;
    const node: NativeNode = { ref: encodeRef(ref), role, name: name.trim(), states: decoded.states, bounds, showing: decoded.showing, children: [] };
    const value = decoded.showing ? await this.value(bus, ref, role) : undefined;
    if (value !== undefined) node.value = value;
    return { node, childRefs, active: decoded.active, defunct: decoded.defunct };
  }

  /** Text of text fields, the number of sliders and the like; never anything for password fields (role "password"). */
  private async value(bus: MessageBus, ref: Ref, role: string): Promise<string | undefined> {
    try {
      if (TEXT_VALUE_ROLES.has(role)) {
        const text = String((await this.call(bus, ref, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, -1])).body[0] ?? '');
        return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
      }
      if (NUMBER_VALUE_ROLES.has(role)) {
        const current = await this.property(bus, ref, 'org.a11y.atspi.Value', 'CurrentValue');
        return typeof current === 'number' ? String(Math.round(current * 1000) / 1000) : undefined;
      }
    } catch {
      // the element does not implement the interface after all
    }
    return undefined;
  }

  private async children(bus: MessageBus, ref: Ref): Promise<Ref[]> {
    const reply = await this.call(bus, ref, ACCESSIBLE, 'GetChildren');
    return (reply.body[0] as Ref[]).filter(([, path]) => path !== NULL_PATH);
  }

  private async property(bus: MessageBus, ref: Ref, iface: string, name: string): Promise<unknown> {
    const reply = await this.call(bus, ref, PROPERTIES, 'Get', 'ss', [iface, name]);
    return (reply.body[0] as { value?: unknown } | undefined)?.value;
  }

  private call(bus: MessageBus, [destination, path]: Ref, iface: string, member: string, signature = '', body: unknown[] = []): Promise<DbusMessage> {
    const { Message } = this.dbus!;
    const reply = bus.call(new Message({ destination, path, interface: iface, member, signature, body }));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${iface}.${member} got no answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
    });
    return Promise.race([reply, timeout])
      .then((message) => {
        if (!message) throw new Error(`${iface}.${member} returned nothing`);
        return message;
      })
      .finally(() => clearTimeout(timer));
  }

  /** The AT-SPI bus, connected once and kept; a failed connection is retried on the next call. */
  private async connect(operation: string): Promise<MessageBus> {
    if (this.bus && !this.busFailed) return this.bus;
    this.close();
    this.busFailed = undefined;
    this.dbus ??= await import('@jellybrick/dbus-next');
    let address = this.env.AT_SPI_BUS_ADDRESS;
    if (!address) {
      if (!this.env.DBUS_SESSION_BUS_ADDRESS) {
        throw adapterError(
          'PRECONDITION_FAILED',
          operation,
          'the accessibility tree needs the desktop session bus: DBUS_SESSION_BUS_ADDRESS (or AT_SPI_BUS_ADDRESS) is not set for the server; start it inside the desktop session',
        );
      }
      const session = this.open(this.env.DBUS_SESSION_BUS_ADDRESS);
      try {
        const reply = await this.call(session, ['org.a11y.Bus', '/org/a11y/bus'], 'org.a11y.Bus', 'GetAddress');
        address = String(reply.body[0]);
      } catch (error) {
        throw adapterError(
          'PRECONDITION_FAILED',
          operation,
          `the AT-SPI accessibility bus is not available (${dbusReason(error)}); install at-spi2-core (at-spi-bus-launcher) or enable accessibility in the desktop settings`,
        );
      } finally {
        session.disconnect();
      }
    }
    this.bus = this.open(address);
    return this.bus;
  }

  private open(busAddress: string): MessageBus {
    const bus = this.dbus!.sessionBus({ busAddress });
    // A broken connection must fail calls, not crash the worker with an unhandled 'error' event.
    (bus as unknown as NodeJS.EventEmitter).on('error', (error: Error) => {
      if (bus === this.bus) this.busFailed = error.message;
    });
    return bus;
  }

  private failed(operation: string, error: unknown): Error {
    this.busFailed = dbusReason(error);
    return adapterError('OS_ERROR', operation, `the AT-SPI registry did not answer (${dbusReason(error)}); is at-spi2-registryd running?`);
  }
}

function dbusReason(error: unknown): string {
  const e = error as { type?: string; text?: string; message?: string };
  return (e?.type ? `${e.type}: ${e.text ?? ''}` : (e?.message ?? String(error))).split('\n')[0]!.slice(0, 200);
}

/** The focused window: the active one, else the largest under the pointer, else the largest; or every window on a display. */
export function chooseWindows<W extends { node: NativeNode; active: boolean; app: string }>(
  windows: W[],
  request: Pick<NativeSnapshotRequest, 'scope' | 'displayRect' | 'pointer'>,
): Array<{ window: NativeWindow; win: W }> {
  const describe = (win: W, chosenBy: NativeWindow['chosenBy']) => ({ window: { app: win.app, name: win.node.name, bounds: win.node.bounds, chosenBy }, win });
  const sized = windows.filter((w) => w.node.bounds && w.node.bounds.width > 0 && w.node.bounds.height > 0);
  if (request.scope === 'display') {
    const rect = request.displayRect;
    return sized.filter((w) => !rect || intersects(w.node.bounds!, rect)).map((w) => describe(w, 'display'));
  }
  const active = sized.find((w) => w.active);
  if (active) return [describe(active, 'active')];
  const area = (w: W) => w.node.bounds!.width * w.node.bounds!.height;
  const byArea = [...sized].sort((a, b) => area(b) - area(a));
  const pointer = request.pointer;
  const under = pointer ? byArea.find((w) => contains(w.node.bounds!, pointer)) : undefined;
  if (under) return [describe(under, 'pointer')];
  return byArea[0] ? [describe(byArea[0], 'largest')] : [];
}

const contains = (r: ScreenRect, p: ScreenPoint) => p.x >= r.x && p.y >= r.y && p.x < r.x + r.width && p.y < r.y + r.height;
const intersects = (a: ScreenRect, b: ScreenRect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
