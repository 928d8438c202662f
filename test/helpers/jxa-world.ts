/**
 * A stand-in for what our JXA scripts talk to on a Mac, written from Apple's published
 * interfaces: System Events' processes, their windows and UI elements (AX attributes, actions,
 * buttons; a missing attribute throws, as it does there; element collections are called for
 * their elements or indexed for one), the window server's list (CGWindowListCopyWindowInfo's
 * dictionaries) and the frontmost app. The real script runs against it in a V8 context, so its
 * own logic (matching windows to window numbers, walking a tree within its budget, each request)
 * runs here; whether macOS answers as this stand-in does is for the workflow's macOS runner to show.
 */
import vm from 'node:vm';
import { jxaSource } from '../../adapter/desktop/darwin/jxa.js';

/** A window or a UI element in it. */
export interface MacElement {
  /** A window's title, an element's name. */
  name: string;
  /** AX attributes it has (AXRole, AXMinimized, AXMain, AXFullScreen, AXFocused, AXEnabled...). */
  attributes: Record<string, unknown>;
  position?: [number, number];
  size?: [number, number];
  /** Its value; none: reading it throws. */
  value?: unknown;
  /** Names of its AX actions. */
  actions?: string[];
  /** Subroles of its buttons (AXCloseButton...). */
  buttons?: string[];
  children?: MacElement[];
}

export interface MacProcess {
  pid: number;
  name: string;
  windows: MacElement[];
  backgroundOnly?: boolean;
}

export interface CgWindow {
  kCGWindowNumber: number;
  kCGWindowOwnerPID: number;
  kCGWindowLayer: number;
  kCGWindowBounds: { X: number; Y: number; Width: number; Height: number };
}

export interface MacWorld {
  processes: MacProcess[];
  cg: CgWindow[];
  frontPid: number;
  /** What the script did: "<pid>:frontmost", "<name>:<action>", "<name>:<attribute>=<value>", "<name>:position=x,y". */
  log: string[];
}

/** A property that reads as a getter function and takes an assignment, as JXA's element properties do. */
function property(target: object, name: string, get: () => unknown, set: (value: unknown) => void): void {
  Object.defineProperty(target, name, { get: () => get, set, enumerable: true });
}

/** An element collection: called, its elements; indexed, one of them. */
function collection<T>(items: T[]): (() => T[]) & Record<number, T> {
  return Object.assign(() => items, { ...items });
}

function attributesOf(owner: string, values: Record<string, unknown>, log: string[]) {
  return {
    byName(name: string) {
      const handle = {};
      property(
        handle,
        'value',
        () => {
          if (!(name in values)) throw new Error(`Can't get attribute "${name}"`);
          return values[name];
        },
        (value) => {
          values[name] = value;
          log.push(`${owner}:${name}=${String(value)}`);
        },
      );
      return handle;
    },
  };
}

function actionsOf(owner: string, names: readonly string[], log: string[]) {
  return Object.assign(() => names.map((name) => ({ name: () => name })), {
    byName: (action: string) => ({ perform: () => log.push(`${owner}:${action}`) }),
  });
}

function element(e: MacElement, log: string[]): object {
  const missing = (what: string) => {
    throw new Error(`Can't get ${what} of ${e.name}`);
  };
  const made = {
    name: () => e.name,
    value: () => (e.value === undefined ? missing('value') : e.value),
    attributes: attributesOf(e.name, e.attributes, log),
    actions: actionsOf(e.name, e.actions ?? [], log),
    uiElements: collection((e.children ?? []).map((child) => element(child, log))),
    buttons: () =>
      (e.buttons ?? []).map((subrole) => ({
        attributes: attributesOf(e.name, { AXSubrole: subrole }, log),
        actions: actionsOf(`${e.name}:${subrole}`, ['AXPress'], log),
      })),
  };
  for (const key of ['position', 'size'] as const)
    property(
      made,
      key,
      () => e[key] ?? missing(key),
      (value) => {
        e[key] = value as [number, number];
        log.push(`${e.name}:${key}=${String(value)}`);
      },
    );
  return made;
}

/** Runs `script`'s run() (after runJxa's prelude) with `request` against `world`: its answer, as osascript would print it. */
export function runInMacWorld(script: string, request: Record<string, unknown>, world: MacWorld): string {
  const processes = (filter: Record<string, unknown>) =>
    collection(
      world.processes
        .filter((p) => filter.backgroundOnly === undefined || Boolean(p.backgroundOnly) === filter.backgroundOnly)
        .filter((p) => filter.unixId === undefined || p.pid === filter.unixId)
        .filter((p) => filter.frontmost === undefined || (p.pid === world.frontPid) === filter.frontmost)
        .map((p) => {
          const made = { unixId: () => p.pid, name: () => p.name, windows: collection(p.windows.map((w) => element(w, world.log))) };
          property(
            made,
            'frontmost',
            () => world.frontPid === p.pid,
            () => world.log.push(`${p.pid}:frontmost`),
          );
          return made;
        }),
    );
  const context = vm.createContext({
    ObjC: { import: () => undefined, deepUnwrap: (value: unknown) => value, castRefToObject: (value: unknown) => value },
    $: {
      CGWindowListCopyWindowInfo: (option: number) => (option === 16 ? structuredClone(world.cg) : []),
      NSWorkspace: { sharedWorkspace: { frontmostApplication: { processIdentifier: world.frontPid } } },
    },
    Application: (name: string) => {
      if (name !== 'System Events') throw new Error(`no application ${name}`);
      return { processes: { whose: processes } };
    },
  });
  vm.runInContext(jxaSource(script), context, { timeout: 1000 });
  return String((context as { run: (argv: string[]) => unknown }).run([JSON.stringify(request)]));
}
