/**
 * What of a gateway entry's env and args looks secret by its shape (a password in a connection
 * string, a PEM key, a JWT, a webhook URL, `Bearer` inside a JSON header), as a paste judges it
 * (pasted-secrets.ts). The config refuses inline only values under a secret name or of a known
 * token's shape (sections/gateway.ts); these others are warned about (warnings.ts) and hidden
 * where the config is printed (redact.ts), never refused: a config that started before an
 * upgrade must start after it.
 */
import { NOT_COPIED, secretText, withoutSecretArgs } from './pasted-secrets.js';
import type { UpstreamConfig } from './sections/gateway.js';

const HIDDEN = '<redacted>';

/** Where an entry holds such a value: `env NAME` or `args[i]`, never the value. */
export function plainSecretPlaces(entry: Readonly<UpstreamConfig>): string[] {
  const { env, args } = hidden(entry);
  return [
    ...Object.keys(env).flatMap((name) => (env[name] !== entry.env[name] ? [`env ${name}`] : [])),
    ...args.flatMap((arg, i) => (arg !== entry.args[i] ? [`args[${i}]`] : [])),
  ];
}

/** The entry's env and args with each such value (or, in an argument, its secret part) shown as <redacted>. */
export function withPlainSecretsHidden<T extends Readonly<UpstreamConfig>>(entry: T): T {
  return { ...entry, ...hidden(entry) };
}

function hidden(entry: Readonly<UpstreamConfig>): Pick<UpstreamConfig, 'env' | 'args'> {
  const env = Object.fromEntries(Object.entries(entry.env).map(([name, value]) => [name, typeof value === 'string' && secretText(value) ? HIDDEN : value]));
  // An argument changed only by leaving out a placeholder's default (`${PORT:-8080}`) stays as written, unless that default is one.
  const args = withoutSecretArgs(entry.args).args.map((arg, i) => {
    const given = entry.args[i]!;
    if (arg === given) return given;
    return arg.includes(NOT_COPIED) ? arg.replaceAll(NOT_COPIED, HIDDEN) : secretText(given) ? HIDDEN : given;
  });
  return { env, args };
}
