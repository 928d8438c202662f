import type { Config } from './schema.js';

/** A printable copy of the config with every secret replaced, for `config check` and logs. */
export function redactConfig(config: Readonly<Config>): Config {
  const copy = structuredClone(config) as Config;
  if (copy.server.token !== undefined) copy.server.token = '<redacted>';
  return copy;
}
