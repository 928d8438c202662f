/**
 * A RemoteDesktop session of xdg-desktop-portal (GNOME, KDE): pointer and keyboard, with a
 * ScreenCast source per monitor so absolute pointer motion has streams to be relative to. Its
 * Start shows the portal's own consent dialog, the OS-level grant; the restore token it returns
 * is kept (0600, in the owner's state folder) and offered on the next start, so the owner is
 * asked once, not on every server start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScreenRect } from '../../contract/geometry.js';
import { ownerWait } from '../owner-wait.js';
import type { PortalBus } from './portal-bus.js';

const REMOTE_DESKTOP = 'org.freedesktop.portal.RemoteDesktop';
const SCREEN_CAST = 'org.freedesktop.portal.ScreenCast';
const KEYBOARD_AND_POINTER = 3;
const MONITOR = 1;
/** Kept until the owner revokes it in the desktop's settings. */
const PERSIST_UNTIL_REVOKED = 2;
const STEP_TIMEOUT_MS = 15_000;
/** The owner may take a while to answer the dialog. */
const DIALOG_TIMEOUT_MS = 120_000;
/** A key that types nothing, pressed once to make the compositor's virtual keyboard. */
const SHIFT_L = 0xffe1;
/** A pause for mutter 43 to finish making them: enough in every run here, under load too. */
const DEVICES_SETTLE_MS = 500;

export interface PortalStream extends ScreenRect {
  node: number;
}

/** Where the restore token is kept: the owner's state folder, like the rest of this program's state. */
export function restoreTokenFile(env: NodeJS.ProcessEnv): string | undefined {
  const state = env.XDG_STATE_HOME || (env.HOME ? path.join(env.HOME, '.local', 'state') : undefined);
  return state && path.isAbsolute(state) ? path.join(state, 'chatgpt-mcp', 'portal-restore-token') : undefined;
}

export class PortalSession {
  private constructor(
    readonly bus: PortalBus,
    readonly handle: string,
    readonly streams: PortalStream[],
  ) {}

  static async start(bus: PortalBus, env: NodeJS.ProcessEnv): Promise<PortalSession> {
    const tokenFile = restoreTokenFile(env);
    const stored = readToken(tokenFile);
    const created = await bus.request(
      REMOTE_DESKTOP,
      'CreateSession',
      'a{sv}',
      (o) => [o],
      { session_handle_token: `chatgpt_mcp_${process.pid}` },
      STEP_TIMEOUT_MS,
    );
    const handle = String(created.session_handle ?? '');
    if (!handle) throw new Error('the portal created no session');
    const devices = { types: KEYBOARD_AND_POINTER, persist_mode: PERSIST_UNTIL_REVOKED, restore_token: stored };
    await bus.request(REMOTE_DESKTOP, 'SelectDevices', 'oa{sv}', (o) => [handle, o], devices, STEP_TIMEOUT_MS);
    await bus.request(SCREEN_CAST, 'SelectSources', 'oa{sv}', (o) => [handle, o], { types: MONITOR, multiple: true }, STEP_TIMEOUT_MS);
    ownerWait(DIALOG_TIMEOUT_MS + STEP_TIMEOUT_MS); // the dialog: the call waits for the owner, not the usual timeout
    const started = await bus.request(REMOTE_DESKTOP, 'Start', 'osa{sv}', (o) => [handle, '', o], {}, DIALOG_TIMEOUT_MS);
    if (typeof started.restore_token === 'string' && tokenFile) writeToken(tokenFile, started.restore_token);
    const streams = ((started.streams ?? []) as Array<[number, { position?: number[]; size?: number[] }]>).map(([node, props]) => ({
      node,
      x: props.position?.[0] ?? 0,
      y: props.position?.[1] ?? 0,
      width: props.size?.[0] ?? 0,
      height: props.size?.[1] ?? 0,
    }));
    if (!streams.some((s) => s.width > 0 && s.height > 0)) throw new Error('the portal shared no monitor, so the pointer has nothing to move on');
    const session = new PortalSession(bus, handle, streams);
    await session.warmUp();
    return session;
  }

  /**
   * mutter makes a session's virtual pointer and keyboard on their first event, and events sent
   * before they are ready are lost (seen: the first keys of a text, the first move). A motion by
   * nothing and a lone Shift make them; then a pause lets them settle.
   */
  private async warmUp(): Promise<void> {
    await this.notify('NotifyPointerMotion', 'dd', [0, 0]).catch(() => undefined);
    await this.notify('NotifyKeyboardKeysym', 'iu', [SHIFT_L, 1]).catch(() => undefined);
    await this.notify('NotifyKeyboardKeysym', 'iu', [SHIFT_L, 0]).catch(() => undefined);
    await sleep(DEVICES_SETTLE_MS);
  }

  /** A RemoteDesktop Notify* call on this session (options empty). */
  notify(member: string, signature: string, args: unknown[]): Promise<unknown[]> {
    return this.bus.call('org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop', REMOTE_DESKTOP, member, `oa{sv}${signature}`, [
      this.handle,
      {},
      ...args,
    ]);
  }

  close(): void {
    void this.bus.call('org.freedesktop.portal.Desktop', this.handle, 'org.freedesktop.portal.Session', 'Close').catch(() => undefined);
  }
}

function readToken(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || stat.size > 4096) return undefined;
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function writeToken(file: string, token: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${token}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}
