/**
 * Adapters for tests: the real local one, its policy port, and `adapterWith` for a test that
 * replaces only the families it exercises (the rest is the real local adapter).
 */
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import { createLocalAdapter, type LocalAdapterOptions } from '../../adapter/local-computer-adapter.js';
import { localPolicyPort } from '../../adapter/local-policy-port.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { createProcessOps } from '../../adapter/process/local-process-ops.js';

export function localAdapter(options: LocalAdapterOptions = {}): ComputerAdapter {
  return createLocalAdapter(options);
}

/** The local port, with a chosen base environment (the server's env a policy derives children from). */
export function localPort(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): PolicyPort {
  return localPolicyPort(createProcessOps(platform), platform, env);
}

export function adapterWith(families: Partial<Omit<ComputerAdapter, 'close'>>, base: ComputerAdapter = createLocalAdapter()): ComputerAdapter {
  return { ...base, ...families, close: () => base.close() };
}
