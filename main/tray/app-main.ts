/**
 * The tray application's composition: one instance, a tray, the server built by the same host
 * as the headless CLI's (main/host/server-host.ts), the
 * activity ring fed by the server's observer, and the settings window's IPC handlers. All
 * decisions live in the electron-free modules beside this file; this only wires them up.
 */
import { app, clipboard, ipcMain, Menu, safeStorage, session, shell, systemPreferences } from 'electron';
import os from 'node:os';
import path from 'node:path';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { utilityProcessSpawner } from './utility-spawner.js';
import { ensureConfigFile } from './first-run.js';
import { loadConfig } from '../config/load.js';
import { saveSettings } from './settings-save.js';
import { createLogger, type Logger } from '../log.js';
import { openServer } from '../host/server-host.js';
import { protectedPaths } from '../host/places.js';
import { enabledTools, type ToolCallEvent } from '../mcp/server.js';
import { ActivityRing } from './activity-ring.js';
import { searchAuditForWindow } from './audit-panel.js';
import type { SettingsSnapshot } from './bridge-api.js';
import { activeOverrides, explainStartFailure, readConfigForEditing, resolveConfigPath, savedProcessGrants } from './config-file.js';
import { testConnection } from './connection-test.js';
import { registerIpc } from './ipc.js';
import { PUSH } from './ipc-channels.js';
import { loginItem } from './login-item.js';
import type { MenuAction } from './menu-model.js';
import { ProcessPanel } from './process-panel.js';
import { GatewayPanel } from './gateway-panel.js';
import type { Gateway } from '../gateway/gateway.js';
import { isRestartPending } from './restart-pending.js';
import type { Policies } from '../mcp/tool.js';
import { undoPanel } from './undo-panel.js';
import { sectionForField } from './sections.js';
import { hardenApp, hardenSession } from './security.js';
import { ServerLifecycle } from './server-lifecycle.js';
import { SettingsWindow } from './settings-window.js';
import { appConfigDir } from '../config/app-dir.js';
import { TrayController } from './tray.js';
import { TokenPanel } from './token-panel.js';
import { folderKind } from './folder-kind.js';
import { oauthStatePath } from '../auth/oauth-state.js';
import type { ConnectionsSnapshot, ConsentRequest } from '../auth/connections.js';
import { showConsentNotice } from './consent-notice.js';
import { appUpdates } from './app-updates.js';
import type { UpdateService } from '../updates/update-service.js';
import { OAuthPanel } from './oauth-panel.js';
import { ActivityPulse } from './tray-state.js';
import { fileStore, headlessStore, readKey, type SecretStore } from '../tunnel/secret-store.js';
import { tunnelHandlers } from './tunnel-ipc.js';
import { safeStorageStore } from './safe-storage-store.js';
import { TunnelController } from '../tunnel/tunnel-controller.js';
import { noteContract } from './contract-record.js';
import { savePauseWrites } from './pause-writes.js';
import { menuProfiles, switchProfile } from './profile-switch.js';

export interface AppLayout {
  /** Directory of the built main bundle (out/app/main). */
  mainDir: string;
  env?: NodeJS.ProcessEnv;
  /** The app's own diagnostics (stderr by default); the server logs at its configured level. */
  log?: Logger;
}

export interface RunningApp {
  lifecycle: ServerLifecycle;
  settings: SettingsWindow;
  ring: ActivityRing;
}

export async function runApp({ mainDir, env = process.env, log = createLogger('info') }: AppLayout): Promise<RunningApp | null> {
  // Before ready: a second launch only wakes the first one, which opens its settings.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }

  const platform = process.platform;
  const development = !app.isPackaged && Boolean(env.ELECTRON_RENDERER_URL);
  const configPath = resolveConfigPath(env, platform, os.homedir());
  const resources = app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'build');
  // nut-js runs in a utility process: a native crash fails one call, never the app.
  const adapter = createLocalAdapter({ desktop: { spawn: utilityProcessSpawner, workerPath: path.join(mainDir, 'desktop-worker.js') } });

  const settings = new SettingsWindow({
    preload: path.join(mainDir, '..', 'preload', 'preload.cjs'),
    indexFile: path.join(mainDir, '..', 'renderer', 'index.html'),
    devUrl: development ? env.ELECTRON_RENDERER_URL : undefined,
    devTools: !app.isPackaged,
    icon: platform === 'linux' ? path.join(resources, 'icons', '256x256.png') : undefined,
  });

  let tray: TrayController | null = null;
  /** The token the running server accepts (from the config or the token file). */
  let bearerToken: string | null = null;
  /** The running server's policies: the process panel and undo decide with the same objects. */
  let policies: Policies | null = null;
  /** For the tray menu, kept current by the OAuth watch and by saves and restarts (not read at each refresh). */
  let waitingApprovals = 0;
  let gateway: Gateway | null = null;
  let updates: UpdateService | null = null;
  /** With display access: the desktop backend and what the desktop itself granted (the Wayland portal's dialog). */
  let desktopLine: string | undefined;
  let restartPending = false;
  const checkRestartPending = () => {
    restartPending = isRestartPending(lifecycle.status, lifecycle.config, () => loadConfig({ env }).config);
    refreshTray();
  };
  const login = loginItem(app, platform, env);
  const refreshTray = () => {
    const { wanted, status: tunnelStatus } = tunnel.snapshot;
    const readOnly = lifecycle.config ? lifecycle.config.server.readOnly : null;
    tray?.render(
      {
        status: lifecycle.status,
        hasToken: Boolean(bearerToken),
        openAtLogin: login.get(),
        tunnel: { wanted, status: tunnelStatus },
        waitingApprovals,
        restartPending,
        readOnly,
        profiles: menuProfiles(lifecycle.config),
        gateway: gatewayPanel.summary(),
        ...(updates ? { update: updates.status } : {}),
        desktop: desktopLine,
      },
      pulse.busy,
    );
  };

  // The runtime key: safeStorage first, then the headless keyring, then the owner-only file (found, never written, when a keyring exists).
  const place = { platform, env, home: os.homedir() };
  const appDir = appConfigDir(place);
  const running = () => (lifecycle.status.state === 'running' ? gateway : null);
  /** The saved config, or null while it is invalid (the window shows why). */
  const savedConfig = () => {
    try {
      return loadConfig({ env }).config;
    } catch {
      return null;
    }
  };
  const gatewayPanel = new GatewayPanel(appDir, running, () => savedConfig()?.gateway ?? null);
  let stores: Promise<SecretStore[]> | null = null;
  const keyStores = () =>
    (stores ??= (async () => {
      const safe = await safeStorageStore(safeStorage, appDir, platform).catch(() => null);
      const headless = await headlessStore({ appDir });
      return [...(safe ? [safe] : []), headless, ...(headless.warning ? [] : [fileStore(appDir)])];
    })());
  const tunnel = new TunnelController({
    readConfig: () => loadConfig({ env }).config,
    appDir,
    env,
    port: adapter.inspect,
    protectedFiles: protectedPaths(configPath, env),
    keyStores,
    logger: log,
  });

  const ring = new ActivityRing(undefined, () => [bearerToken ?? '', ...tunnel.secrets].filter(Boolean));
  const pulse = new ActivityPulse(() => refreshTray());
  let askedForAccessibility = false;
  const observer = (event: ToolCallEvent) => {
    ring.record(event);
    if (event.phase === 'start') pulse.started();
    else pulse.ended();
    // macOS asks the owner for the Accessibility grant the first time input is actually used.
    if (platform === 'darwin' && event.phase === 'start' && event.tool.startsWith('input.') && !askedForAccessibility) {
      askedForAccessibility = true;
      systemPreferences.isTrustedAccessibilityClient(true);
    }
  };
  ring.subscribe((entry) => settings.send(PUSH.activity, entry));

  const lifecycle = new ServerLifecycle({
    loadConfig: () => loadConfig({ env }).config,
    listen: async (config) => {
      // Tool results are scrubbed of the token and the tunnel's runtime key, whatever a tool returns.
      const stored = await keyStores()
        .then(readKey)
        .catch(() => null);
      const opened = await openServer({
        config,
        configPath,
        transport: 'http',
        env,
        appDir,
        adapter,
        observer,
        extraSecrets: stored ? [stored.key] : [],
        onConsentRequest: askOwner,
      });
      // The config's token, else the token file the headless server uses too (created if missing).
      bearerToken = opened.token;
      policies = opened.policies;
      const contract = await noteContract(appDir, opened.contract(), log);
      gateway = opened.gateway;
      const backend = config.desktop.hostDisplayAccess ? await adapter.desktop.backendInfo() : undefined;
      desktopLine = backend && `Desktop: ${backend.name}${backend.granted ? `, ${backend.granted.split(' (')[0]}` : ''}`;
      return { url: opened.url!, contract, close: () => opened.close() };
    },
    toolCount: (config) => enabledTools(config).length,
    explain: (error) => explainStartFailure(error, configPath),
  });
  lifecycle.onChange((status) => {
    if (status.state !== 'running') pulse.reset();
    checkRestartPending();
    settings.send(PUSH.status, status);
    if (status.state === 'running') log.info('server running', { url: status.url, tools: status.toolCount });
    if (status.state === 'error') log.error('server not running', { reason: status.message.split('\n')[0] });
    void tunnel.serverChanged(status, bearerToken);
  });
  tunnel.onChange((snapshot) => {
    refreshTray();
    settings.send(PUSH.tunnel, snapshot);
  });

  const processes = new ProcessPanel(
    adapter.processes,
    () => (lifecycle.status.state === 'running' ? (policies?.process ?? null) : null),
    () => savedProcessGrants(configPath),
  );
  const oauth = new OAuthPanel(oauthStatePath(appConfigDir({ platform, env, home: os.homedir() })));
  const undo = undoPanel({
    appDir,
    adapter,
    config: () => loadConfig({ env }).config,
    running: () => (lifecycle.status.state === 'running' ? policies : null),
    protectedFiles: protectedPaths(configPath, env),
  });

  /** A connection request through the tunnel: a notification, and the prompt in the settings window. */
  function askOwner(request: ConsentRequest): void {
    // A flood of requests alerts the owner once per LIMITS.consentAlertMs; the window still lists each one.
    const alert = oauth.shouldAlert();
    if (alert) settings.open({ section: 'clients' });
    showConnections(oauth.list());
    if (alert) showConsentNotice(request, () => settings.open({ section: 'clients' }));
  }
  function showConnections(snapshot: ConnectionsSnapshot): void {
    settings.send(PUSH.connections, snapshot);
    waitingApprovals = snapshot.pending.length;
    refreshTray();
  }
  oauth.watch(showConnections);
  const tokens = new TokenPanel({
    configPath,
    appDir,
    env,
    running: () => bearerToken,
    readConfig: () => loadConfig({ env }).config,
    restart: () => lifecycle.restart(),
  });

  const onAction = (action: MenuAction, arg?: string): void => {
    const status = lifecycle.status;
    switch (action) {
      case 'copy-url':
        if (status.state === 'running' || status.state === 'paused') clipboard.writeText(status.url);
        return;
      case 'copy-token': {
        if (bearerToken) clipboard.writeText(bearerToken);
        return;
      }
      case 'open-settings':
        return settings.open();
      case 'open-activity':
        return settings.open({ section: 'activity' });
      case 'open-clients':
        return settings.open({ section: 'clients' });
      case 'restart':
        return void lifecycle.restart();
      case 'pause':
        return void lifecycle.pause();
      case 'resume':
        return void lifecycle.resume();
      case 'connect-chatgpt':
        return void tunnel.connect();
      case 'disconnect-chatgpt':
        return void tunnel.disconnect();
      case 'open-chatgpt':
        return settings.open({ section: 'chatgpt' });
      case 'toggle-read-only':
        return void savePauseWrites(configPath, lifecycle.config?.server.readOnly ?? false, log).then((saved) => (saved ? lifecycle.restart() : undefined));
      case 'use-profile':
        return void switchProfile(configPath, lifecycle, arg, log);
      case 'open-gateway':
        return settings.open({ section: 'gateway' });
      case 'install-update':
        return void updates?.installNow();
      case 'toggle-login':
        login.set(!login.get());
        return void refreshTray();
      case 'quit':
        return app.quit();
    }
  };

  registerIpc(ipcMain, {
    expectedSender: () => settings.expectedSender(),
    onRefused: (channel, reason) => log.warn('ipc refused', { channel, reason }),
    invoke: {
      'settings:load': (): SettingsSnapshot => ({
        configPath,
        ...readConfigForEditing(configPath),
        homeDir: os.homedir(),
        platform,
        status: lifecycle.status,
        overrides: activeOverrides(env),
        navigate: settings.takeNavigation(),
        restartPending: isRestartPending(lifecycle.status, lifecycle.config, () => loadConfig({ env }).config),
      }),
      'settings:save': async (config) => {
        const result = await saveSettings(configPath, config, log);
        if (result.ok) checkRestartPending();
        return result;
      },
      'token:in-use': () => tokens.current(),
      'token:replace': () => tokens.replace(),
      'settings:folder-kinds': (paths) => paths.map(folderKind),
      'settings:copy-text': (text) => clipboard.writeText(text),
      'settings:pick-folder': async () => {
        return settings.pickPath({ title: 'Choose a folder to share', properties: ['openDirectory', 'createDirectory'] });
      },
      'server:test-connection': () => {
        const status = lifecycle.status;
        if (status.state !== 'running') {
          return { ok: false, url: status.state === 'paused' ? status.url : null, error: `The server is ${status.state}; start it to test the connection.` };
        }
        return testConnection({ url: status.url, token: bearerToken ?? undefined });
      },
      'server:restart': () => lifecycle.restart(),
      'activity:list': () => ring.list(),
      'audit:search': (terms) => searchAuditForWindow(appDir, terms),
      'processes:list': (match?: string) => processes.list(match),
      'processes:kill': (pid, signal) => processes.kill(pid, signal),
      'oauth:list': () => oauth.list(),
      'oauth:approve': (code) => oauth.approve(code),
      'oauth:deny': (code) => oauth.deny(code),
      'oauth:revoke': (id) => oauth.revoke(id),
      ...tunnelHandlers({
        tunnel,
        savedClientPath: () => savedConfig()?.tunnel.clientPath,
        pickFile: (title) => settings.pickPath({ title, properties: ['openFile'] }),
        openExternal: (url) => shell.openExternal(url),
      }),
      'gateway:status': () => gatewayPanel.snapshot(),
      'gateway:accept': (name: string, tool: string | null, seen: string[]) => gatewayPanel.accept(name, tool ?? undefined, seen).finally(refreshTray),
      'gateway:set-secret': (name: string, value: string) => gatewayPanel.storeSecret(name, value),
      'gateway:stored-secrets': (names: string[]) => gatewayPanel.storedSecrets(names),
      'undo:list': () => undo.list(),
      'undo:show': (id) => undo.show(id),
      'undo:apply': (id) => undo.apply(id),
      'checks:detect': (folder) => undo.detect(folder),
    },
    send: {
      'window:set-dirty': (dirty) => settings.setDirty(dirty),
    },
  });

  hardenApp(app);
  app.on('second-instance', () => settings.open());
  // Closing the settings window leaves the tray app running.
  app.on('window-all-closed', () => {});
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    // The tunnel client first (it would only fail against a closed server), then the server.
    void tunnel
      .quit()
      .then(() => lifecycle.stop())
      .finally(() => {
        stopped = true;
        tray?.destroy();
        app.quit();
      });
  });

  await app.whenReady();
  if (platform === 'darwin') app.dock?.hide();
  if (platform === 'win32') app.setAppUserModelId('com.chatgpt-computer-mcp.app');
  hardenSession(session.defaultSession, development);
  // macOS needs an Edit menu for copy and paste in text fields; elsewhere no menu at all.
  Menu.setApplicationMenu(platform === 'darwin' ? Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }]) : null);

  tray = new TrayController(path.join(resources, 'tray'), onAction);
  if (await ensureConfigFile(configPath).catch(() => false)) log.info('first start: created the config file', { file: configPath });
  const status = await lifecycle.start();
  updates = await appUpdates(app, savedConfig()?.updates.check ?? true, log);
  updates.onChange(() => refreshTray());
  updates.start();
  refreshTray();
  if (status.state === 'running' && lifecycle.config?.tunnel.connectAtStart) void tunnel.connect();
  if (status.state === 'error') settings.open({ section: sectionForField(status.field), ...(status.field ? { field: status.field } : {}) });
  return { lifecycle, settings, ring };
}
