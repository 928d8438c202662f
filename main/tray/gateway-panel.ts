/**
 * The settings window's Gateway page and the tray menu's line about it: each upstream's state,
 * last error, calls and held tools (with what changed), from the running server's gateway; and
 * accepting a held tool, which the running server exposes from its next listing. While the
 * server is not running, the accepted and held tools still show from the pins on disk. Also the
 * tools each offered when last seen (the page's per-tool switches), storing a secret, and which
 * secret names hold a value already (a pasted entry never refers to one).
 */
import { prefixOf, type Config } from '../config/schema.js';
import type { Gateway } from '../gateway/gateway.js';
import { heldFingerprint, PinStore, pinsPath, type UpstreamPins } from '../gateway/pin-store.js';
import { gatewaySecrets, openOsEntry, storedNames, type OpenEntry } from '../gateway/secrets.js';
import { toolDifference } from '../gateway/tool-diff.js';
import { escaped, readableText } from '../readable-json.js';
import { excludedBy } from '../policy/tool-exclusion.js';
import type { GatewaySnapshot, UpstreamRow } from './bridge-api.js';

/** How much of a tool's description a switch shows. */
const ABOUT_CHARS = 140;

export class GatewayPanel {
  private readonly pins: PinStore;

  constructor(
    private readonly appDir: string,
    /** The running server's gateway; null while it is stopped, paused, failed, or has no upstreams. */
    private readonly gateway: () => Gateway | null,
    /** The saved config's upstreams (what the page lists while the server is not running). */
    private readonly saved: () => Readonly<Config['gateway']> | null,
    private readonly openEntry: OpenEntry = openOsEntry,
  ) {
    this.pins = new PinStore(pinsPath(appDir));
  }

  snapshot(): GatewaySnapshot {
    const gateway = this.gateway();
    const live = new Map((gateway?.status() ?? []).map((s) => [s.name, s]));
    const names = [...new Set([...live.keys(), ...(this.saved()?.servers ?? []).map((s) => s.name)])];
    const upstreams = names.map((name): UpstreamRow => {
      const status = live.get(name);
      const entry = this.saved()?.servers.find((s) => s.name === name);
      const pins = this.pins.pins(name);
      const held = this.pins.held(name).map((h) => ({
        name: h.name,
        label: readableText(h.name),
        reason: h.reason,
        change: toolDifference(h.name, h.before, h.now),
        seen: heldFingerprint(h),
      }));
      return {
        name,
        prefix: status?.prefix ?? (entry ? prefixOf(entry) : name),
        state: status?.state ?? (entry?.enabled === false ? 'disabled' : 'not running'),
        lastError: status?.lastError ?? null,
        lastStderr: status?.lastStderr ?? null,
        calls: status?.calls ?? 0,
        failures: status?.failures ?? 0,
        // Stopped: the accepted tools its settings expose (running: what the gateway exposes).
        tools: status?.tools.length ?? Object.keys(pins?.tools ?? {}).filter((tool) => !entry || !excludedBy(entry)(tool)).length,
        held,
        refused: status?.refused ?? [],
        known: knownTools(pins),
      };
    });
    return { running: gateway !== null, upstreams };
  }

  /** The tray's line: the running server's upstreams, how many run, how many tools wait for the owner (null without any). */
  summary(): { servers: number; running: number; held: number } | null {
    const status = this.gateway()?.status();
    if (!status?.length) return null;
    return { servers: status.length, running: status.filter((s) => s.state === 'running').length, held: status.reduce((n, s) => n + s.held.length, 0) };
  }

  /** The CLI's `gateway set-secret`, from the window: the value goes to the store and is never sent back or logged. */
  async storeSecret(name: string, value: string): Promise<{ ok: true; where: string } | { ok: false; error: string }> {
    try {
      const store = await gatewaySecrets(this.appDir, this.openEntry);
      await store.set(name, value);
      return { ok: true, where: store.where };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Which of these names hold a value already (a pasted entry's references step past them); values stay where they are. */
  async storedSecrets(names: readonly string[]): Promise<string[]> {
    return storedNames(await gatewaySecrets(this.appDir, this.openEntry), names);
  }

  /** `seen`: what the window showed of what is accepted (heldFingerprint); changed since, nothing is. */
  async accept(name: string, tool?: string, seen?: readonly string[]): Promise<{ ok: true; accepted: string[] } | { ok: false; error: string }> {
    try {
      const gateway = this.gateway();
      const accepted = gateway ? await gateway.accept(name, tool, seen) : await this.pins.accept(name, tool, undefined, seen);
      return { ok: true, accepted: accepted.map((h) => h.name) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** The tools an upstream listed when last seen, accepted or held (the held one as it is now), by name. */
function knownTools(pins: UpstreamPins | undefined): UpstreamRow['known'] {
  const tools = new Map<string, string>();
  for (const [name, pinned] of Object.entries(pins?.tools ?? {})) tools.set(name, pinned.definition.description ?? '');
  for (const [name, held] of Object.entries(pins?.held ?? {})) tools.set(name, held.definition.description ?? '');
  return [...tools]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, description]) => {
      const line = description.split('\n')[0]!.trim();
      return { name, label: shown(name), about: shown(line.length > ABOUT_CHARS ? `${line.slice(0, ABOUT_CHARS - 1)}…` : line) };
    });
}

/** An upstream's words on one line of the page: what hides or reorders text, and control characters, escaped. */
function shown(text: string): string {
  return readableText(text).replace(/[\u0000-\u001f]/g, escaped);
}
