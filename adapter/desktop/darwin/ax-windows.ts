/**
 * macOS: top-level windows through the AX API (System Events in JXA, the Accessibility grant the
 * other desktop tools need), one osascript run per call. AX has no window ids, so each AX window
 * takes the number the window server gives it (CGWindowListCopyWindowInfo: the same process,
 * the same frame), which stays with the window while it lives; a window without one is not
 * listed. Maximize is what the green button does: full screen. Bounds are points in AX, physical
 * pixels here (the display density).
 */
import type { WindowAction, WindowPlacement } from '../../contract/desktop.js';
import type { BackendWindow, WindowBackend } from '../desktop-backend.js';
import { fromScriptWindow, readScriptAnswer, type ScriptAnswer } from '../script-window.js';
import { actionDone, placementDone, settle } from '../window-settle.js';
import { runJxa } from './jxa.js';

const TIMEOUT_MS = 20_000;

/** Lists (request `{}`), or acts on window `id` (`op`: a window action, or place with x/y/width/height in points). */
export const AX_WINDOWS_SCRIPT = String.raw`
ObjC.import('CoreGraphics');
ObjC.import('AppKit');
function run(argv) {
  var req = JSON.parse(argv[0]);
  var se = Application('System Events');
  function attr(el, name) { try { return el.attributes.byName(name).value(); } catch (e) { return undefined; } }
  function set(el, name, value) { el.attributes.byName(name).value = value; }
  // every window of every layer-0 owner, on screen or not (minimized, other spaces), without the desktop
  var cg = ObjC.deepUnwrap(ObjC.castRefToObject($.CGWindowListCopyWindowInfo(16, 0))) || [];
  var front = $.NSWorkspace.sharedWorkspace.frontmostApplication.processIdentifier;
  var out = { windows: [] };
  var target = null;
  var procs = se.processes.whose({ backgroundOnly: false })();
  for (var p = 0; p < procs.length; p++) {
    var proc = procs[p], pid, name, wins;
    try { pid = proc.unixId(); name = proc.name(); wins = proc.windows(); } catch (e) { continue; }
    var taken = {};
    for (var i = 0; i < wins.length; i++) {
      var w = wins[i], pos, size, match = null;
      try { pos = w.position(); size = w.size(); } catch (e) { continue; }
      for (var c = 0; c < cg.length && !match; c++) {
        var info = cg[c], b = info.kCGWindowBounds;
        if (info.kCGWindowOwnerPID === pid && info.kCGWindowLayer === 0 && !taken[info.kCGWindowNumber] && b &&
          Math.abs(b.X - pos[0]) <= 2 && Math.abs(b.Y - pos[1]) <= 2 && Math.abs(b.Width - size[0]) <= 2 && Math.abs(b.Height - size[1]) <= 2) match = info;
      }
      if (!match) continue;
      taken[match.kCGWindowNumber] = true;
      var min = attr(w, 'AXMinimized') === true;
      var id = String(match.kCGWindowNumber);
      out.windows.push({ id: id, pid: pid, app: name, title: String(w.name() || ''), b: min ? null : [pos[0], pos[1], size[0], size[1]],
        fg: pid === front && attr(w, 'AXMain') === true, min: min, max: attr(w, 'AXFullScreen') === true });
      if (req.id === id) target = { w: w, proc: proc };
    }
  }
  if (!req.op) return answer(out);
  if (!target) return answer({ error: 'NOT_FOUND' });
  var t = target.w;
  if (req.op === 'focus') {
    if (attr(t, 'AXMinimized')) set(t, 'AXMinimized', false);
    target.proc.frontmost = true;
    t.actions.byName('AXRaise').perform();
  } else if (req.op === 'minimize') set(t, 'AXMinimized', true);
  else if (req.op === 'maximize') set(t, 'AXFullScreen', true);
  else if (req.op === 'restore') {
    if (attr(t, 'AXFullScreen')) set(t, 'AXFullScreen', false);
    if (attr(t, 'AXMinimized')) set(t, 'AXMinimized', false);
  } else if (req.op === 'close') {
    var close = t.buttons().filter(function (b) { return attr(b, 'AXSubrole') === 'AXCloseButton'; })[0];
    if (!close) return answer({ error: 'failed', message: 'the window has no close button' });
    close.actions.byName('AXPress').perform();
  } else if (req.op === 'place') {
    var at = t.position(), now = t.size();
    if (req.x !== undefined || req.y !== undefined) t.position = [req.x !== undefined ? req.x : at[0], req.y !== undefined ? req.y : at[1]];
    if (req.width !== undefined || req.height !== undefined) t.size = [req.width !== undefined ? req.width : now[0], req.height !== undefined ? req.height : now[1]];
  } else return answer({ error: 'failed', message: 'unknown request' });
  return answer({ ok: true });
}`;

export class AxWindows implements WindowBackend {
  /** `density`: physical pixels per point. */
  constructor(
    private readonly density: () => Promise<number>,
    private readonly run: typeof runJxa = runJxa,
  ) {}

  readonly list = async (operation: string): Promise<BackendWindow[]> => {
    const answer = await this.ask({}, operation);
    const density = await this.density();
    return (answer.windows ?? []).map((w) => fromScriptWindow(w, density));
  };

  async act(id: string, action: WindowAction, operation: string): Promise<void> {
    await this.ask({ op: action, id }, operation);
    await settle(this.list, id, operation, (w) => actionDone(action, w));
  }

  async moveResize(id: string, placement: WindowPlacement, operation: string): Promise<void> {
    const density = await this.density();
    const points = Object.fromEntries(Object.entries(placement).map(([key, value]) => [key, value === undefined ? undefined : value / density]));
    await this.ask({ op: 'place', id, ...points }, operation);
    await settle(this.list, id, operation, (w) => placementDone(placement, w));
  }

  private async ask(request: Record<string, unknown>, operation: string): Promise<ScriptAnswer> {
    const text = await this.run(AX_WINDOWS_SCRIPT, request, operation, 'the window tools', TIMEOUT_MS);
    return readScriptAnswer(text, request.id as string | undefined, operation);
  }
}
