/** `chatgpt-mcp config check | path`. */
import { configPathFor, type CliOverrides } from '../config/load.js';
import { redactConfig } from '../config/redact.js';
import { enabledTools } from '../mcp/server.js';
import { print, say, usageError, withConfig } from './io.js';

export function configCommand(sub: string | undefined, cli: CliOverrides): number | Promise<number> {
  if (sub === 'check') return configCheck(cli);
  // Printed without parsing, so a broken config can still be found.
  if (sub === 'path') return print(configPathFor({ cli }));
  return usageError('expected "config check" or "config path"');
}

function configCheck(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, ({ config, file }) => {
    say(`configuration is valid (${file ?? 'no config file, using defaults'})`);
    say(
      `tools exposed: ${enabledTools(config)
        .map((t) => t.name)
        .join(', ')}`,
    );
    return print(JSON.stringify(redactConfig(config), null, 2));
  });
}
