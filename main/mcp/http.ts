/**
 * The loopback HTTP server: POST /mcp (stateless MCP, modern and legacy), GET /healthz, /readyz and,
 * when server.auth includes OAuth, the authorization server's routes (main/auth/). Host and
 * Origin are checked before anything else, then the route, then the credential (the static
 * bearer token and/or an OAuth access token), then the body size; the MCP handler only ever
 * sees requests that passed, with the caller's identity as authInfo.
 */
import { BEARER_CLIENT_ID } from './caller.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import { VERSION } from '../version.js';
import { OAuthServer } from '../auth/authorization-server.js';
import type { MetadataFetchOptions } from '../auth/client-metadata-document.js';
import type { ConsentRequest } from '../auth/connections.js';
import { OAuthStateError } from '../auth/oauth-state.js';
import { publicOrigin } from '../auth/public-origin.js';
import { allowedHostnames, allowedOrigins, bearerMatches, hostnameOf, hostsToShow, originAllowed } from './http-guards.js';
import { httpStartRefusal } from './start-refusal.js';
import type { ReplyBacklog } from './reply-backlog.js';

export interface HttpServerOptions {
  config: Readonly<Config>;
  factory: McpServerFactory;
  logger: Logger;
  /** The token clients must present when server.auth accepts bearer tokens; default server.token. */
  bearerToken?: string | null;
  /** How the owner gets the token, for the 401 answer (the entry point knows its own words). */
  tokenHint?: string;
  /** Where OAuth keeps its state (required when server.auth includes "oauth"). */
  oauth?: { stateFile: string; now?: () => number; onConsentRequest?: (request: ConsentRequest) => void; metadataFetch?: MetadataFetchOptions };
  /** Counts what each connection has not read yet, so commands wait for a slow reader (the factory's `answers`). */
  answers?: ReplyBacklog;
}

/** Who made a call with the static bearer token (the activity view's "client"). */
export const BEARER_CLIENT: AuthInfo = Object.freeze({ token: '', clientId: BEARER_CLIENT_ID, scopes: [], extra: { clientName: 'bearer token' } });

export interface RunningHttpServer {
  url: string;
  port: number;
  /** The OAuth issuer (and resource <issuer>/mcp) when OAuth is on. */
  oauthIssuer: string | null;
  close(): Promise<void>;
}

export type ListenFailure =
  'not-loopback' | 'open-beyond-loopback' | 'open-tunnel' | 'no-public-url' | 'oauth-state' | 'no-token' | 'in-use' | 'permission' | 'no-address' | 'other';

/** Why the server could not start listening; `reason` is for callers, the message for people. */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    message: string,
    readonly reason: ListenFailure,
  ) {
    super(message);
  }
}

export async function startHttpServer({
  config,
  factory,
  logger,
  bearerToken,
  tokenHint,
  oauth: oauthOptions,
  answers,
}: HttpServerOptions): Promise<RunningHttpServer> {
  const { server: settings } = config;
  // Checked before listening so a bad setup never listens (config check applies the same rules).
  const refusal = httpStartRefusal(settings);
  if (refusal) throw new ListenError(refusal.message, refusal.reason);
  const usesOAuth = settings.auth === 'oauth' || settings.auth === 'bearer+oauth';
  if (usesOAuth && !oauthOptions) throw new ListenError('OAuth is on (server.auth) but this server was given no place for its state.', 'oauth-state');
  const acceptsBearer = settings.auth === 'bearer' || settings.auth === 'bearer+oauth';
  const token = acceptsBearer ? (bearerToken ?? settings.token ?? null) : null;
  if (acceptsBearer && !token) {
    throw new ListenError('No bearer token: set server.token or CHATGPT_MCP_TOKEN, or let "chatgpt-mcp serve" create one (server.auth "bearer").', 'no-token');
  }

  const maxRequestBodySize = settings.maxRequestBytes;
  const mcp = createMcpHandler(factory, {
    maxRequestBodySize,
    onerror: (error) => logger.debug('mcp request rejected', { error: error.message.slice(0, 200) }),
  });
  const mcpNode = toNodeHandler(mcp, { maxRequestBodySize, onerror: (error) => logger.warn('mcp handler failed', { error: error.name }) });

  const hosts = allowedHostnames(settings.host, settings.allowedHosts, settings.publicUrl);
  const shownHosts = hostsToShow(hosts);
  let oauth: OAuthServer | null = null;
  let origins = allowedOrigins(settings.port, settings.allowedOrigins);

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const hostname = hostnameOf(req.headers.host ?? '');
    if (!hostname || !hosts.has(hostname)) {
      logger.warn('request refused', { reason: 'host', path });
      return sendRpcError(
        res,
        403,
        `Forbidden: Host "${req.headers.host ?? ''}" is not allowed. A tunnel that forwards its public Host header needs that name in server.allowedHosts (allowed now: ${shownHosts}).`,
      );
    }
    if (!originAllowed(req.headers.origin, origins)) {
      logger.warn('request refused', { reason: 'origin', path });
      return sendRpcError(
        res,
        403,
        `Forbidden: Origin "${req.headers.origin}" is not allowed. Add it to server.allowedOrigins if a browser page on that origin should reach this server.`,
      );
    }
    if (path === '/healthz' || path === '/readyz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
      if (path === '/healthz') return sendJson(res, 200, { status: 'ok', version: VERSION });
      const status = readiness();
      return sendJson(res, status === 'ready' ? 200 : 503, { status, version: VERSION });
    }
    const authServer = oauth;
    if (authServer?.owns(path)) return void authServer.handle(req, res, path);
    if (path !== '/mcp') return sendJson(res, 404, { error: 'not found' });
    if (req.method !== 'POST') return sendRpcError(res, 405, 'Method not allowed: this stateless server accepts POST /mcp only.', { allow: 'POST' });
    void authenticate(req.headers.authorization).then(async (outcome) => {
      if (outcome.refused) {
        logger.warn('request refused', { reason: 'token', path });
        if (!oauth) {
          return sendRpcError(res, 401, `Unauthorized: send "Authorization: Bearer <token>" with this server's token${tokenHint ? `; ${tokenHint}` : ''}.`, {
            'www-authenticate': 'Bearer realm="chatgpt-mcp"',
          });
        }
        const reply = await oauth.challenge(outcome.error);
        // With bearer+oauth a static token works too: the challenge says how to get it, as plain bearer's 401 does.
        const body = acceptsBearer && tokenHint ? withTokenHint(reply.body, tokenHint) : reply.body;
        res.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(body)) });
        return res.end(body);
      }
      const length = Number(req.headers['content-length']);
      if (Number.isFinite(length) && length > maxRequestBodySize) {
        return sendRpcError(res, 413, `Request body too large: ${length} bytes, the limit is ${maxRequestBodySize} (server.maxRequestBytes).`, {
          connection: 'close',
        });
      }
      // toNodeHandler passes req.auth to the server factory and the tool handlers (ctx.http.authInfo).
      if (outcome.auth) (req as http.IncomingMessage & { auth?: AuthInfo }).auth = outcome.auth;
      await mcpNode(req, res);
    });
  });

  /**
   * /readyz: ready only when a tool call can be answered: listening with everything set up (OAuth
   * included), not closing, and the tool layer builds (the factory makes a server with its tools,
   * the same work every request starts with). /healthz only says the process answers.
   */
  let phase: 'starting' | 'ready' | 'closing' = 'starting';
  function readiness(): 'starting' | 'ready' | 'closing' | 'failing' {
    if (phase !== 'ready') return phase;
    try {
      factory({ era: 'modern' } as never);
      return 'ready';
    } catch {
      return 'failing';
    }
  }

  /** The static token when it is accepted and matches, else an OAuth access token when OAuth is on. */
  async function authenticate(header: string | undefined): Promise<{ refused: false; auth: AuthInfo | null } | { refused: true; error: unknown }> {
    if (settings.auth === 'none') return { refused: false, auth: null };
    if (token && bearerMatches(header, token)) return { refused: false, auth: BEARER_CLIENT };
    if (!oauth) return { refused: true, error: null };
    try {
      return { refused: false, auth: await oauth.authenticate(header) };
    } catch (error) {
      return { refused: true, error };
    }
  }
  if (answers) server.on('connection', (socket) => answers.watch(socket));
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ListenError(
            `Port ${settings.port} on ${settings.host} is already in use. Choose another with --port or CHATGPT_MCP_PORT, or stop the other server.`,
            'in-use',
          ),
        );
      else if (error.code === 'EACCES')
        reject(new ListenError(`Not allowed to listen on ${settings.host}:${settings.port} (EACCES). Use a port above 1024.`, 'permission'));
      else if (error.code === 'EADDRNOTAVAIL') reject(new ListenError(`Cannot listen on ${settings.host}: no such address on this computer.`, 'no-address'));
      else reject(new ListenError(`Cannot listen on ${settings.host}:${settings.port}: ${error.code ?? error.message}`, 'other'));
    });
    server.listen(settings.port, settings.host, () => resolve());
  });

  const port = (server.address() as AddressInfo).port;
  // With port 0 the real port is only known now; same-server origins must use it.
  origins = allowedOrigins(port, settings.allowedOrigins);
  if (usesOAuth && oauthOptions) {
    const choice = publicOrigin(settings, port);
    try {
      if ('error' in choice) throw new ListenError(choice.error, 'no-public-url');
      oauth = new OAuthServer({ ...oauthOptions, origin: choice.origin, logger });
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mcp.close();
      if (error instanceof OAuthStateError) throw new ListenError(`Cannot start OAuth: ${error.message}.`, 'oauth-state');
      throw error;
    }
  }
  const displayHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const url = `http://${displayHost}:${port}/mcp`;
  phase = 'ready';

  return {
    url,
    port,
    oauthIssuer: oauth?.issuer ?? null,
    async close() {
      phase = 'closing';
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mcp.close();
    },
  };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendRpcError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

/** An OAuth error body (RFC 6750 JSON) whose description also says how to get the static bearer token. */
function withTokenHint(body: string, hint: string): string {
  try {
    const parsed = JSON.parse(body) as { error_description?: unknown };
    const said = typeof parsed.error_description === 'string' ? `${parsed.error_description}. ` : '';
    return JSON.stringify({ ...parsed, error_description: `${said}Or send "Authorization: Bearer <token>" with this server's token; ${hint}.` });
  } catch {
    return body;
  }
}
