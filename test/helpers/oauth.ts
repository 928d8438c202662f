/**
 * OAuth helpers for tests: a browser that follows the authorize page the way a person's
 * browser does (redirects, then the page's meta refresh), the owner's approval through the
 * same function the tray and `chatgpt-mcp oauth approve` call, and an in-memory
 * OAuthClientProvider for the MCP v2 client.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { approve, listConnections } from '../../main/auth/owner-actions.js';

export interface AuthorizeOutcome {
  /** Where the server finally sent the browser (the app's redirect URI with code or error). */
  redirect: URL;
  /** The code the waiting page showed. */
  shownCode: string;
  /** The waiting page's HTML and headers, as first served. */
  page: { html: string; csp: string | null };
}

/** GET without following redirects, as a browser sees each hop. */
export async function hop(url: string | URL): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

/**
 * Opens the authorization URL, reads the code the waiting page shows, lets `decide` act (the
 * owner approving, or not), then reloads like the page's meta refresh until the server
 * redirects away. Fails if the page never shows a code.
 */
export async function authorizeInBrowser(
  authorizationUrl: string | URL,
  decide: (shownCode: string) => Promise<void>,
  options: { maxReloads?: number; betweenReloads?: () => Promise<void> } = {},
): Promise<AuthorizeOutcome> {
  const first = await hop(authorizationUrl);
  if (first.status !== 303) throw new Error(`authorize answered ${first.status}: ${(await first.text()).slice(0, 300)}`);
  const waitUrl = new URL(first.headers.get('location')!, authorizationUrl);
  const pageResponse = await hop(waitUrl);
  const html = await pageResponse.text();
  const shown = /aria-label="Approval code">([A-Z0-9-]+)</.exec(html)?.[1];
  if (!shown) throw new Error(`the waiting page shows no code: ${html.slice(0, 300)}`);
  const refresh = /http-equiv="refresh" content="\d+;url=([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  if (!refresh) throw new Error('the waiting page does not reload itself');
  await decide(shown);
  for (let i = 0; i < (options.maxReloads ?? 20); i++) {
    const next = await hop(new URL(refresh, waitUrl));
    if (next.status === 303)
      return { redirect: new URL(next.headers.get('location')!), shownCode: shown, page: { html, csp: pageResponse.headers.get('content-security-policy') } };
    await next.text();
    await (options.betweenReloads?.() ?? new Promise((r) => setTimeout(r, 50)));
  }
  throw new Error('the waiting page never redirected');
}

/** The owner approves on this computer: checks the request is listed with that code, then approves it. */
export function ownerApproves(stateFile: string) {
  return async (shownCode: string) => {
    const waiting = listConnections(stateFile).pending.map((p) => p.code);
    if (!waiting.includes(shownCode)) throw new Error(`code ${shownCode} is not waiting (waiting: ${waiting.join(', ')})`);
    await approve(stateFile, shownCode);
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An in-memory OAuthClientProvider: registers dynamically, keeps tokens, hands the authorization URL to the test. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: StoredOAuthClientInformation | undefined;
  private stored: StoredOAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly name = 'MCP v2 test client',
    /** Set to use a client ID metadata document instead of dynamic registration. */
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}
