import type { Config } from './schema.js';
import { withPlainSecretsHidden } from './plain-secrets.js';
import { shownUrl } from './shown-url.js';

/** A printable copy of the config with every secret replaced, for `config check` and logs. */
export function redactConfig(config: Readonly<Config>): Config {
  const copy = structuredClone(config) as Config;
  if (copy.server.token !== undefined) copy.server.token = '<redacted>';
  copy.gateway.servers = copy.gateway.servers.map((entry) => withPlainSecretsHidden(entry.url !== undefined ? { ...entry, url: shownUrl(entry.url) } : entry));
  return copy;
}
