/** The MCP URL the Connection page shows and copies, from the settings and the running server. */
import type { ServerStatus } from '../../../../main/tray/bridge-api';

export function mcpUrl(host: string, port: number): string {
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shownHost || '127.0.0.1'}:${Number.isFinite(port) ? port : '?'}/mcp`;
}

/** The URL to show and copy for these settings, or why there is none to give out. */
export function shownUrl(host: string, port: number, invalid: boolean, status: ServerStatus): { url: string; hint: string } | { url: null; why: string } {
  if (invalid) return { url: null, why: 'Fix the host and port above to get the URL.' };
  const url = mcpUrl(host, port);
  const live = status.state === 'running' || status.state === 'paused' ? status.url : null;
  if (port === 0) {
    // Port 0 means a new free port at each start: only the running server's URL is real.
    return live
      ? { url: live, hint: 'The port changes at every start (port 0); this is the current one.' }
      : { url: null, why: 'Port 0 picks a free port when the server starts; the URL appears then.' };
  }
  if (live && live !== url) return { url, hint: `After saving and restarting. The server runs at ${live} until then.` };
  return { url, hint: 'Use this address in your MCP client or tunnel.' };
}
