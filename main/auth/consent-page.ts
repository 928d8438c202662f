/**
 * The pages the authorize endpoint serves through the tunnel. They never grant anything: the
 * waiting page shows the request's code and reloads itself (a meta refresh, no script) until
 * the owner decides on this computer. A strict CSP allows nothing but the one inline style.
 */
import { publicCliHint } from '../command-name.js';
import { createHash } from 'node:crypto';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
main{max-width:30rem;margin:10vh auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px #0002}
h1{font-size:1.3rem;margin:0 0 1rem}.code{font:600 2rem/1.2 ui-monospace,monospace;letter-spacing:.12em;text-align:center;
background:#eef1f6;border-radius:8px;padding:.8rem;margin:1rem 0}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}
dt{color:#5b6474}dd{margin:0;word-break:break-all}.muted{color:#5b6474;font-size:.9rem}`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Nothing loads, nothing runs, nothing frames the page, no form posts anywhere. */
export const CONSENT_PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONSENT_PAGE_CSP,
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string, refresh?: { seconds: number; url: string }): string {
  const meta = refresh ? `<meta http-equiv="refresh" content="${refresh.seconds};url=${escapeHtml(refresh.url)}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${meta}<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export function waitingPage(info: {
  clientName: string;
  redirectHost: string;
  code: string;
  expiresInSeconds: number;
  refresh: { seconds: number; url: string };
}): string {
  const minutes = Math.max(1, Math.round(info.expiresInSeconds / 60));
  return page(
    'Approve on your computer',
    `<h1>Approve this connection on your computer</h1>
<p>An app asks to use the tools on the computer running ChatGPT Computer MCP. Nothing is allowed until its owner approves there, in the tray app or with <code>${escapeHtml(publicCliHint('oauth approve').slice(1, -1))}</code>.</p>
<div class="code" aria-label="Approval code">${escapeHtml(info.code)}</div>
<dl><dt>App</dt><dd>${escapeHtml(info.clientName)}</dd><dt>Returns to</dt><dd>${escapeHtml(info.redirectHost)}</dd></dl>
<p class="muted">Check that the computer shows the same code. This page updates by itself; without approval within about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} the request is denied.</p>`,
    info.refresh,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
