/** The inventory family on this computer: each call reads the OS's own sources (see each module). */
import type { InventoryOps } from '../contract/inventory.js';
import { listDisks } from './disks.js';
import { environmentSummary } from './environment.js';
import { networkSummary } from './network.js';
import { listSockets } from './ports.js';

export function createInventoryOps(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): InventoryOps {
  return {
    listSockets: (query) => listSockets(query, platform),
    listDisks: () => listDisks(platform),
    networkSummary: () => networkSummary(platform),
    environmentSummary: (valuesOf) => environmentSummary(valuesOf, env),
  };
}
