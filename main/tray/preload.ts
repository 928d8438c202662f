/**
 * The sandboxed preload (built as CommonJS, preload.cjs): exposes the small typed
 * SettingsBridge as `window.chatgptMcp`. The page never sees ipcRenderer, channel names or
 * event objects; every payload is checked again in the main process.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { SettingsBridge } from './bridge-api.js';
import { INVOKE, PUSH, SEND, type PushChannel } from './ipc-channels.js';

function subscribe<T>(channel: PushChannel, listener: (value: T) => void): () => void {
  // Only the payload crosses over: the event carries `sender`, which must stay in the preload.
  const wrapped = (_event: IpcRendererEvent, value: T) => listener(value);
  ipcRenderer.on(channel, wrapped);
  return () => {
    ipcRenderer.removeListener(channel, wrapped);
  };
}

const bridge: SettingsBridge = {
  load: () => ipcRenderer.invoke(INVOKE.load),
  save: (config) => ipcRenderer.invoke(INVOKE.save, config),
  tokenInUse: () => ipcRenderer.invoke(INVOKE.tokenInUse),
  replaceToken: () => ipcRenderer.invoke(INVOKE.replaceToken),
  folderKinds: (paths) => ipcRenderer.invoke(INVOKE.folderKinds, paths),
  copyText: (text) => ipcRenderer.invoke(INVOKE.copyText, text),
  pickFolder: () => ipcRenderer.invoke(INVOKE.pickFolder),
  testConnection: () => ipcRenderer.invoke(INVOKE.testConnection),
  restartServer: () => ipcRenderer.invoke(INVOKE.restartServer),
  listActivity: () => ipcRenderer.invoke(INVOKE.listActivity),
  searchAudit: (terms) => ipcRenderer.invoke(INVOKE.searchAudit, terms),
  listProcesses: (match) => (match === undefined ? ipcRenderer.invoke(INVOKE.listProcesses) : ipcRenderer.invoke(INVOKE.listProcesses, match)),
  killProcess: (pid, signal) => ipcRenderer.invoke(INVOKE.killProcess, pid, signal),
  gatewayStatus: () => ipcRenderer.invoke(INVOKE.gatewayStatus),
  gatewaySetSecret: (name, value) => ipcRenderer.invoke(INVOKE.gatewaySetSecret, name, value),
  gatewayStoredSecrets: (names) => ipcRenderer.invoke(INVOKE.gatewayStoredSecrets, names),
  gatewayAccept: (name, tool, seen) => ipcRenderer.invoke(INVOKE.gatewayAccept, name, tool, seen),
  listConnections: () => ipcRenderer.invoke(INVOKE.listConnections),
  approveConnection: (code) => ipcRenderer.invoke(INVOKE.approveConnection, code),
  denyConnection: (code) => ipcRenderer.invoke(INVOKE.denyConnection, code),
  revokeClient: (id) => ipcRenderer.invoke(INVOKE.revokeClient, id),
  setDirty: (dirty) => ipcRenderer.send(SEND.setDirty, dirty),
  onStatus: (listener) => subscribe(PUSH.status, listener),
  onActivity: (listener) => subscribe(PUSH.activity, listener),
  onNavigate: (listener) => subscribe(PUSH.navigate, listener),
  onConnections: (listener) => subscribe(PUSH.connections, listener),
  tunnelStatus: () => ipcRenderer.invoke(INVOKE.tunnelStatus),
  tunnelConnect: () => ipcRenderer.invoke(INVOKE.tunnelConnect),
  tunnelDisconnect: () => ipcRenderer.invoke(INVOKE.tunnelDisconnect),
  tunnelSetKey: (key) => ipcRenderer.invoke(INVOKE.tunnelSetKey, key),
  tunnelForgetKey: () => ipcRenderer.invoke(INVOKE.tunnelForgetKey),
  tunnelLookUp: (clientPath) => (clientPath === undefined ? ipcRenderer.invoke(INVOKE.tunnelLookUp) : ipcRenderer.invoke(INVOKE.tunnelLookUp, clientPath)),
  tunnelPickClient: () => ipcRenderer.invoke(INVOKE.tunnelPickClient),
  tunnelDownload: () => ipcRenderer.invoke(INVOKE.tunnelDownload),
  openLink: (link) => ipcRenderer.invoke(INVOKE.openLink, link),
  onTunnel: (listener) => subscribe(PUSH.tunnel, listener),
  listChanges: () => ipcRenderer.invoke(INVOKE.listChanges),
  showChanges: (id) => ipcRenderer.invoke(INVOKE.showChanges, id),
  undoChanges: (id) => ipcRenderer.invoke(INVOKE.undoChanges, id),
  detectChecks: (path) => ipcRenderer.invoke(INVOKE.detectChecks, path),
};

contextBridge.exposeInMainWorld('chatgptMcp', bridge);
