/**
 * The settings window's Content-Security-Policy: only its own bundled script and stylesheet,
 * no network, no frames, no plugins. Injected into index.html at build time (file:// pages get
 * no response headers) and also sent as a header where the page comes over HTTP.
 *
 * The dev variant only exists for `electron-vite dev` (inline React-refresh preamble, injected
 * styles and the HMR websocket); production builds never use it.
 */
const common = [
  "default-src 'none'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "manifest-src 'none'",
];

export const PRODUCTION_CSP = [...common, "script-src 'self'", "style-src 'self'", "connect-src 'none'"].join('; ');

export const DEVELOPMENT_CSP = [...common, "script-src 'self' 'unsafe-inline'", "style-src 'self' 'unsafe-inline'", "connect-src 'self' ws:"].join('; ');

/** Header-only directives (ignored in a meta tag). */
export const HEADER_ONLY_CSP = "frame-ancestors 'none'";
