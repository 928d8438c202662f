/**
 * IPC channel names, shared by the preload and the main process. Kept free of imports so the
 * sandboxed preload bundle stays tiny.
 */
export const INVOKE = {
  load: 'settings:load',
  save: 'settings:save',
  tokenInUse: 'token:in-use',
  replaceToken: 'token:replace',
  folderKinds: 'settings:folder-kinds',
  copyText: 'settings:copy-text',
  pickFolder: 'settings:pick-folder',
  testConnection: 'server:test-connection',
  restartServer: 'server:restart',
  listActivity: 'activity:list',
  searchAudit: 'audit:search',
  listProcesses: 'processes:list',
  killProcess: 'processes:kill',
  listConnections: 'oauth:list',
  approveConnection: 'oauth:approve',
  denyConnection: 'oauth:deny',
  revokeClient: 'oauth:revoke',
  tunnelStatus: 'tunnel:status',
  tunnelConnect: 'tunnel:connect',
  tunnelDisconnect: 'tunnel:disconnect',
  tunnelSetKey: 'tunnel:set-key',
  tunnelForgetKey: 'tunnel:forget-key',
  tunnelLookUp: 'tunnel:look-up',
  tunnelPickClient: 'tunnel:pick-client',
  tunnelDownload: 'tunnel:download',
  openLink: 'tunnel:open-link',
  gatewayStatus: 'gateway:status',
  gatewayAccept: 'gateway:accept',
  gatewaySetSecret: 'gateway:set-secret',
  gatewayStoredSecrets: 'gateway:stored-secrets',
  listChanges: 'undo:list',
  showChanges: 'undo:show',
  undoChanges: 'undo:apply',
  detectChecks: 'checks:detect',
} as const;

/** Fire-and-forget messages from the window. */
export const SEND = {
  setDirty: 'window:set-dirty',
} as const;

/** Pushes from the main process to the window. */
export const PUSH = {
  status: 'server:status',
  activity: 'activity:entry',
  navigate: 'window:navigate',
  connections: 'oauth:changed',
  tunnel: 'tunnel:changed',
} as const;

export type InvokeChannel = (typeof INVOKE)[keyof typeof INVOKE];
export type SendChannel = (typeof SEND)[keyof typeof SEND];
export type PushChannel = (typeof PUSH)[keyof typeof PUSH];
