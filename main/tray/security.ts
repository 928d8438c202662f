/**
 * Process-wide hardening of every web page this app shows (one: the settings window): no Node
 * in the page, isolated and sandboxed preload, no navigation, no new windows, no webviews,
 * every permission request refused, and the CSP header on anything served over HTTP.
 */
import type { App, Session, WebContents, WebPreferences } from 'electron';
import { DEVELOPMENT_CSP, HEADER_ONLY_CSP, PRODUCTION_CSP } from './csp.js';

export function secureWebPreferences(preload: string, devTools: boolean): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools,
  };
}

export function hardenSession(session: Session, development: boolean): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  const csp = `${development ? DEVELOPMENT_CSP : PRODUCTION_CSP}; ${HEADER_ONLY_CSP}`;
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
}

export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Applies hardenContents to every webContents the app ever creates. */
export function hardenApp(app: App): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}
