import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { Config } from '../config/schema.js';
import { Gateway } from '../gateway/gateway.js';
import { PinStore, pinsPath } from '../gateway/pin-store.js';
import { gatewaySecrets } from '../gateway/secrets.js';
import type { Logger } from '../log.js';
import type { FilesystemPolicy } from '../policy/filesystem.js';
import { VIEW_URI_PREFIX } from './views.js';

export interface GatewayDeps {
  config: Readonly<Config>;
  adapter: Pick<ComputerAdapter, 'processes' | 'inspect'>;
  /** Where its pins and secrets live (the app folder); none: no gateway. */
  gatewayDir?: string;
  protectedFiles?: string[];
}

/**
 * The gateway to the owner's other MCP servers, when the config lists any and the server has a
 * place for its pins. `reserved`: the built-in tools' names, which no upstream tool may take.
 */
export function openGateway(deps: GatewayDeps, files: FilesystemPolicy, reserved: string[], logger: Logger): Gateway | null {
  const dir = deps.gatewayDir;
  if (!dir || deps.config.gateway.servers.length === 0) return null;
  return new Gateway({
    config: deps.config,
    processes: deps.adapter.processes,
    port: deps.adapter.inspect,
    files,
    protectedFiles: deps.protectedFiles ?? [],
    pins: new PinStore(pinsPath(dir)),
    secrets: () => gatewaySecrets(dir),
    logger,
    reserved,
    ownViews: VIEW_URI_PREFIX,
  });
}
