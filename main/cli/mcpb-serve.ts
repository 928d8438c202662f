/**
 * The Claude Desktop bundle's server (build/bundle-mcpb.mjs): `serve --stdio` with the grants the
 * owner chose in the host's install dialog, which the manifest passes as arguments
 * (`--writable=true --commands=git,npm -- /folder ...`), instead of a config file. With
 * `--app-settings=true` it reads the app's config file as `serve --stdio` does.
 */
import { parseArgs } from 'node:util';
import { serveStdio } from './serve.js';
import { usageError } from './io.js';

const SWITCHES = ['writable', 'screen', 'input', 'app-settings'] as const;
type Switch = (typeof SWITCHES)[number];

export interface BundleChoices {
  roots: string[];
  writable: boolean;
  commands: string[];
  screen: boolean;
  input: boolean;
  appSettings: boolean;
}

/** The owner's choices from the manifest's arguments, or what is wrong with them. */
export function parseBundleArgs(argv: readonly string[]): BundleChoices | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        commands: { type: 'string' },
        writable: { type: 'string' },
        screen: { type: 'string' },
        input: { type: 'string' },
        'app-settings': { type: 'string' },
      },
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  const given = [...positionals, ...Object.values(values)].find((value) => typeof value === 'string' && value.includes('${'));
  // A host that does not know MCPB user_config passes the placeholders as they are.
  if (given) return { error: `the host passed "${given}" unfilled: install the bundle in a host that supports MCPB settings (Claude Desktop)` };
  const switches = {} as Record<Switch, boolean>;
  for (const name of SWITCHES) {
    const value = (values[name] ?? '').trim().toLowerCase();
    if (value !== '' && value !== 'true' && value !== 'false') return { error: `--${name} is true or false, not "${values[name]}"` };
    switches[name] = value === 'true';
  }
  const roots = positionals.filter((root) => root !== '');
  const commands = (values.commands ?? '').split(/[\s,]+/).filter(Boolean);
  return { roots, commands, writable: switches.writable, screen: switches.screen, input: switches.input, appSettings: switches['app-settings'] };
}

/** The config the choices grant: nothing else is on (every other setting keeps its default). */
export function bundleSettings(choices: BundleChoices): Record<string, unknown> {
  const display = choices.screen || choices.input;
  return {
    filesystem: { roots: choices.roots, write: choices.writable },
    shell: { enabled: choices.commands.length > 0, allowedCommands: choices.commands },
    desktop: { hostDisplayAccess: display, screen: choices.screen, input: choices.input },
  };
}

export function serveBundle(argv: readonly string[]): number | Promise<number> {
  const choices = parseBundleArgs(argv);
  if ('error' in choices) return usageError(choices.error);
  return choices.appSettings ? serveStdio({}) : serveStdio({}, bundleSettings(choices));
}
