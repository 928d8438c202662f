/**
 * The gateway: the registry of the owner's upstream MCP servers (gateway.servers), what they
 * expose through this server, and the one way their tools are called. Built once per config by
 * the tool host's factory and closed with the server; the tool host registers its tools like
 * built-in ones (main/mcp/gateway-tools.ts), the tray, `system_info` and the CLI read its status.
 *
 * At start it starts the upstreams the owner wants at start, and once each lazy upstream it has
 * never seen (to learn and pin its tools, then stops it); `ready` settles when those are done.
 * Afterwards a lazy upstream's tools are listed from its pins and it starts on the first call.
 */
import type { ProcessOps } from '../../adapter/contract/processes.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { adapterError } from '../../adapter/contract/errors.js';
import { prefixOf, type Config, type UpstreamConfig } from '../config/schema.js';
import { urlSecrets } from '../config/shown-url.js';
import type { Logger } from '../log.js';
import type { FilesystemPolicy } from '../policy/filesystem.js';
import { UpstreamPolicy } from '../policy/upstream.js';
import { expose, heldMessage, type Exposure, type GatewayTool, type UpstreamView } from './catalog.js';
import { checkedCatalog } from './catalog-check.js';
import { acceptedOnly, type HeldEntry } from './catalog-pins.js';
import { toolHash, type HeldTool, type PinStore, type ToolDefinition, type UpstreamPins } from './pin-store.js';
import type { GatewaySecrets } from './secrets.js';
import { replaceForms, secretForms, type SecretForms } from './secret-forms.js';
import { withoutOwnViews } from './own-views.js';
import { scrubbedItems, scrubbedListing, scrubStrings } from './scrubbed-items.js';
import { SerialGroups } from './serial-groups.js';
import { boundedTools } from './tool-limits.js';
import type { Discovery } from './discover.js';
import { Upstream } from './upstream.js';
import { isViewUri, viewContent, viewItems, type ViewContent } from './view-pins.js';

export interface GatewayOptions {
  config: Readonly<Config>;
  processes: Pick<ProcessOps, 'startPeer'>;
  port: PolicyPort;
  /** The server's own filesystem policy: an upstream's program may not lie where tools write. */
  files: FilesystemPolicy;
  protectedFiles: readonly string[];
  pins: PinStore;
  secrets: () => Promise<GatewaySecrets>;
  logger: Logger;
  /** Built-in tool names (both styles): no upstream tool may take one. */
  reserved: readonly string[];
  /** Where this server's own views' URIs begin: nothing an upstream sends may point there (own-views.ts). */
  ownViews: string;
  /** false: nothing starts until asked (the CLI's `gateway test`). */
  autostart?: boolean;
}

export interface UpstreamStatus extends ReturnType<Upstream['snapshot']> {
  name: string;
  prefix: string;
  transport: 'stdio' | 'http';
  start: UpstreamConfig['start'];
  sandboxed: boolean;
  tools: string[];
  held: Array<{ name: string; reason: HeldTool['reason'] }>;
  /** Tools refused at start (a name clash, a name too long), naming the entry. */
  refused: string[];
}

/** What an upstream listed at its last start: each tool's hash, to hold to its pin. */
type Live = ReadonlyMap<string, string>;

/** How often watch() looks for a change in what is exposed. */
const WATCH_MS = 2000;

export class Gateway {
  readonly ready: Promise<void>;
  private readonly upstreams = new Map<string, { upstream: Upstream; policy: UpstreamPolicy; entry: UpstreamConfig }>();
  private readonly live = new Map<string, Live>();
  private readonly serial = new SerialGroups();
  /** Values scrubbed from what upstreams say (the secrets resolved for them). */
  private readonly known = new Set<string>();
  private formsOf: { size: number; forms: SecretForms } | undefined;
  private exposure: { key: string; value: Exposure } | null = null;
  private version = 0;
  /** Gateway.settled's wait, the same for every request. */
  private graced: Promise<void> | null = null;
  private watcher: NodeJS.Timeout | undefined;
  /** Refusals already in the log (a name clash is said once, not at every listing). */
  private readonly reported = new Set<string>();

  constructor(private readonly options: GatewayOptions) {
    const { config } = options;
    for (const entry of config.gateway.servers) {
      const policy = new UpstreamPolicy(entry, config, options.port, options.protectedFiles, options.files);
      const upstream = new Upstream({
        entry,
        policy,
        processes: options.processes,
        logger: options.logger,
        maxMessageBytes: config.server.maxRequestBytes,
        secrets: () => this.resolveSecrets(entry),
        discovered: (discovery) => this.discovered(entry, discovery),
        scrub: (text) => this.scrub(text),
      });
      this.upstreams.set(entry.name, { upstream, policy, entry });
    }
    this.ready = options.autostart === false ? Promise.resolve() : this.startUp();
  }

  /**
   * Resolves when the upstreams started at start have listed their tools, or after `graceMs`,
   * whichever comes first: one that is slow to answer (or never does, until its startup timeout)
   * must not hold every host's `initialize`. Its tools follow when it lists them (a stdio host is
   * told the list changed; HTTP hosts list per request); until then its pinned tools are exposed.
   */
  settled(graceMs: number): Promise<void> {
    // Once: a request after the first grace ran out is not held again (HTTP builds a server per request).
    this.graced ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        const starting = [...this.upstreams].filter(([, { upstream }]) => upstream.snapshot().state === 'starting').map(([name]) => name);
        if (starting.length > 0) this.options.logger.warn('gateway: answering before these upstreams listed their tools; their tools follow', { starting });
        resolve();
      }, graceMs).unref();
      void this.ready.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.graced;
  }

  /** What is exposed now (recomputed only when an upstream listed something new or the pins changed). */
  exposed(): Exposure {
    const key = `${this.version}:${this.options.pins.stamp()}:${this.known.size}`;
    if (this.exposure?.key === key) return this.exposure.value;
    const views: UpstreamView[] = [];
    for (const { entry, policy } of this.upstreams.values()) {
      if (!entry.enabled) continue;
      const pins = this.options.pins.pins(entry.name);
      const live = this.live.get(entry.name);
      // Only what the owner accepted, and of a running (or last run) upstream only what it still lists unchanged.
      const accepted = Object.values(pins?.tools ?? {}).filter((pin) => !live || live.get(pin.definition.name) === pin.hash);
      views.push({
        name: entry.name,
        prefix: prefixOf(entry),
        policy,
        definitions: accepted.map((pin) => pin.definition),
        held: heldOf(pins),
        // Checked again as read: a pins file written before this check (or by hand) may hold what no session could serve.
        // Of its prompts and templates, only what the owner accepted (catalog-pins.ts).
        catalog: pins?.catalog && checkedCatalog(acceptedOnly(pins.catalog, pins.acceptedCatalog), (reason) => this.reportOnce(entry.name, reason)),
      });
    }
    const value = scrubbedListing(expose(views, this.options.reserved), (item) => this.cleaned(item));
    for (const [upstream, reasons] of value.refused) for (const reason of reasons) this.reportOnce(upstream, reason);
    this.exposure = { key, value };
    return value;
  }

  private reportOnce(upstream: string, reason: string): void {
    if (this.reported.has(`${upstream}\0${reason}`)) return;
    this.reported.add(`${upstream}\0${reason}`);
    this.options.logger.warn('gateway tool not exposed', { upstream, reason });
  }

  tool(exposed: string): GatewayTool | undefined {
    return this.exposed().tools.find((t) => t.exposed === exposed);
  }

  /**
   * One call: its path arguments checked against the upstream's folders, the upstream started if
   * needed, the tool still the one the owner accepted, then the call in its serial group.
   */
  async call(
    tool: GatewayTool,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onprogress?: (progress: { progress: number; total?: number; message?: string }) => void },
  ) {
    const slot = this.slot(tool.upstream);
    await slot.policy.checkPaths(tool.tool, tool.pathArguments, args, tool.annotations.readOnlyHint === true);
    await slot.upstream.connect();
    const hash = this.live.get(tool.upstream)?.get(tool.tool);
    if (hash === undefined || this.options.pins.acceptedHash(tool.upstream, tool.tool) !== hash) {
      throw adapterError(
        'PRECONDITION_FAILED',
        'gateway.call',
        hash === undefined ? `${tool.upstream} no longer lists the tool "${tool.tool}"` : heldMessage(tool.upstream, tool.tool, 'changed'),
      );
    }
    const group = slot.entry.serialGroup;
    const run = () => slot.upstream.callTool(tool.tool, args, options);
    return group ? this.serial.run(group, run, options.signal) : run();
  }

  /** A resource read or a prompt, on the upstream that listed it. */
  use<T>(upstream: string, work: Parameters<Upstream['use']>[0]): Promise<T> {
    return this.slot(upstream).upstream.use(work) as Promise<T>;
  }

  /**
   * A resource read; a `file:` URI only inside the upstream's folders, as a path argument (an
   * unsandboxed upstream would read anything); a view only as the owner accepted it (view-pins.ts).
   */
  async readResource<T>(upstream: string, uri: string): Promise<T> {
    if (/^file:/i.test(uri)) await this.slot(upstream).policy.checkPaths('resources/read', ['uri'], { uri }, true);
    const read = await this.use<T>(upstream, (client) => client.readResource({ uri }));
    const held = isViewUri(uri) ? await this.options.pins.viewRead(upstream, uri, viewContent(this.cleaned(read))) : null;
    if (held) throw adapterError('PRECONDITION_FAILED', 'resources/read', `${upstream}: the view ${uri} ${held}`);
    return read;
  }

  status(): UpstreamStatus[] {
    const exposure = this.exposed();
    return [...this.upstreams.values()].map(({ upstream, policy, entry }) => {
      const held = this.options.pins.held(entry.name);
      return {
        name: entry.name,
        prefix: prefixOf(entry),
        transport: entry.url === undefined ? 'stdio' : 'http',
        start: entry.start,
        sandboxed: entry.url === undefined && entry.sandbox && policy.sandboxProblem === null,
        ...upstream.snapshot(),
        tools: exposure.tools.filter((t) => t.upstream === entry.name).map((t) => t.exposed),
        held: held.map((h) => ({ name: h.name, reason: h.reason })),
        refused: [...(exposure.refused.get(entry.name) ?? []), ...leftOutOf(this.options.pins.pins(entry.name))],
      };
    });
  }

  /** Starts the upstream now (or reuses it), lists it, and leaves it running under its idle rule. */
  async test(name: string): Promise<UpstreamStatus> {
    await this.slot(name).upstream.connect();
    return this.status().find((s) => s.name === name)!;
  }

  /** Accepts the upstream's held tools: they are exposed from the next listing on. */
  async accept(name: string, tool?: string, seen?: readonly string[]): Promise<HeldEntry[]> {
    this.slot(name);
    const accepted = await this.options.pins.accept(name, tool, undefined, seen);
    this.version++;
    return accepted;
  }

  /**
   * Calls `changed` whenever what is exposed changes: an upstream listed something new, or the
   * owner accepted a held tool (here, in the tray or with the CLI, which change the pins file).
   * Polled, one stat every `everyMs`; stopped by close().
   */
  watch(changed: () => void, everyMs = WATCH_MS): void {
    let last: Exposure | null = null;
    // Nothing may throw out of the timer: in a stdio server that would end the process.
    const tick = () => {
      try {
        const now = this.exposed();
        if (last === null || now === last) return void (last = now);
        last = now;
        changed();
      } catch (error) {
        this.options.logger.error('gateway list refresh failed', { error: error instanceof Error ? error.message : String(error) });
      }
    };
    tick();
    this.watcher ??= setInterval(tick, everyMs).unref();
  }

  async close(): Promise<void> {
    clearInterval(this.watcher);
    await Promise.all([...this.upstreams.values()].map(({ upstream }) => upstream.stop('close')));
  }

  private slot(name: string) {
    const slot = this.upstreams.get(name);
    if (!slot) throw adapterError('NOT_FOUND', 'gateway', `no upstream named "${name}" (gateway.servers: ${[...this.upstreams.keys()].join(', ') || 'none'})`);
    return slot;
  }

  private async startUp(): Promise<void> {
    const starts = [...this.upstreams.values()]
      .filter(({ entry }) => entry.enabled && (entry.start === 'at-start' || !this.options.pins.pins(entry.name)))
      .map(async ({ upstream, entry }) => {
        try {
          await upstream.connect();
          if (entry.start === 'lazy') await upstream.stop('idle');
        } catch {
          // its status says why; its tools answer the error
        }
      });
    await Promise.all(starts);
  }

  private async discovered(entry: UpstreamConfig, discovery: Discovery): Promise<void> {
    // Pinned as shown: the pins file (and the held tools the tray shows) never keeps a resolved secret an upstream echoed.
    const scrub = <V>(item: V) => this.scrubbed(item);
    const bounded = boundedTools(
      discovery.tools.map((tool) => definitionOf(tool)),
      discovery.moreTools === true,
    );
    for (const reason of bounded.leftOut) this.options.logger.warn('gateway tool not exposed', { upstream: entry.name, reason });
    const definitions = scrubbedItems(bounded.kept, ['name'], scrub);
    const verdict = await this.options.pins.review(entry.name, definitions);
    for (const held of verdict.held) {
      this.options.logger.warn('gateway tool held until the owner accepts it', { upstream: entry.name, tool: held.name, reason: held.reason });
    }
    // What no session could serve is never stored: one bad template would fail every initialize.
    const catalog = checkedCatalog(discovery, (reason) =>
      this.options.logger.warn('gateway upstream listed something unusable', { upstream: entry.name, reason }),
    );
    const resources = scrubbedItems(catalog.resources, ['uri', 'name'], scrub);
    await this.options.pins.setCatalog(entry.name, {
      resources,
      resourceTemplates: scrubbedItems(catalog.resourceTemplates, ['uriTemplate', 'name'], scrub),
      prompts: scrubbedItems(catalog.prompts, ['name'], scrub),
      views: viewItems(resources, this.viewReads(discovery.views), this.options.pins.pins(entry.name)?.catalog?.views),
      ...(bounded.leftOut.length > 0 ? { leftOut: bounded.leftOut } : {}),
    });
    this.live.set(entry.name, new Map(definitions.map((definition) => [definition.name, toolHash(definition)])));
    this.version++;
  }

  private async resolveSecrets(entry: UpstreamConfig): Promise<{ env: Record<string, string>; bearer: string | null }> {
    const refs = [...Object.values(entry.env), ...(entry.bearerToken ? [entry.bearerToken] : [])].filter((v) => typeof v !== 'string');
    const store = refs.length > 0 ? await this.options.secrets() : null;
    const read = async (name: string) => {
      const value = await store!.get(name);
      if (value === null) {
        throw adapterError(
          'NOT_FOUND',
          'gateway.start',
          `${entry.name}: the secret "${name}" is not stored; store it with "chatgpt-mcp gateway set-secret ${name}"`,
        );
      }
      this.known.add(value);
      return value;
    };
    // A key in an HTTP upstream's URL (some services put it in the path) is scrubbed as a secret is.
    for (const part of entry.url === undefined ? [] : urlSecrets(entry.url)) this.known.add(part);
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(entry.env)) env[name] = typeof value === 'string' ? value : await read(value.secret);
    return { env, bearer: entry.bearerToken ? await read(entry.bearerToken.secret) : null };
  }

  /** Every resolved secret replaced (also in what upstreams answer), in each form it can take (secret-forms.ts). */
  scrub(text: string): string {
    return replaceForms(text, this.forms().text);
  }

  /** A view is pinned as a host gets it: cleaned, so the page kept for the owner to read holds no secret. */
  private viewReads(reads: ReadonlyMap<string, unknown>): Map<string, ViewContent> {
    return new Map([...reads].map(([uri, read]) => [uri, read === null ? null : viewContent(this.cleaned(read))]));
  }

  /** What an upstream sent, as the model and its host may see it: scrubbed of secrets, pointing at none of our views. */
  cleaned<T>(value: T): T {
    return this.scrubbed(withoutOwnViews(value, this.options.ownViews));
  }

  /** A JSON value (an answer, a listing) with every resolved secret replaced wherever it shows in it. */
  scrubbed<T>(value: T): T {
    if (this.known.size === 0) return value;
    const json = JSON.stringify(value);
    if (json === undefined) return value;
    const clean = replaceForms(json, this.forms().json);
    if (clean === json) return value;
    try {
      return JSON.parse(clean) as T;
    } catch {
      // A secret that is also JSON's own text (a number, `true`) was taken out of the structure: strings only, then.
      return scrubStrings(value, (text) => replaceForms(text, this.forms().text));
    }
  }

  private forms(): SecretForms {
    if (this.formsOf?.size !== this.known.size) this.formsOf = { size: this.known.size, forms: secretForms(this.known) };
    return this.formsOf.forms;
  }

  changed(): number {
    return this.version;
  }
}

/** The tools the upstream listed that were not taken (tool-limits.ts), as the pins file keeps them. */
function leftOutOf(pins: UpstreamPins | undefined): string[] {
  const leftOut: unknown = pins?.catalog?.leftOut;
  return Array.isArray(leftOut) ? leftOut.filter((line): line is string => typeof line === 'string') : [];
}

function heldOf(pins: UpstreamPins | undefined): Array<HeldTool & { name: string }> {
  return Object.entries(pins?.held ?? {}).map(([name, held]) => ({ name, ...held }));
}

function definitionOf(tool: Discovery['tools'][number]): ToolDefinition {
  const { name, title, description, inputSchema, outputSchema, annotations, _meta } = tool as ToolDefinition;
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema: inputSchema ?? { type: 'object' },
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(_meta === undefined ? {} : { _meta }),
  };
}
