/**
 * `chatgpt-mcp token [new] | show | rotate`. `show` prints the token HTTP clients must send
 * (creating the token file when the config names none), so the owner can configure a client
 * before the first start; the server itself never prints it.
 */
import type { CliOverrides } from '../config/load.js';
import { acceptsBearer, ensureBearerToken, generateToken, rotateTokenFile } from '../config/token.js';
import { EXIT, print, say, usageError, withConfig } from './io.js';
import { stateDir } from '../host/places.js';

export function tokenCommand(sub: string | undefined, cli: CliOverrides): number | Promise<number> {
  switch (sub) {
    case undefined:
    case 'new':
      return print(generateToken());
    case 'show':
      return withConfig(cli, async ({ config }) => {
        if (!acceptsBearer(config)) {
          say(`server.auth is "${config.server.auth}": this server accepts no bearer token`);
          return EXIT.config;
        }
        const bearer = await ensureBearerToken(config, stateDir());
        if (bearer?.source === 'config') say('the token is set in the config (server.token or CHATGPT_MCP_TOKEN)');
        else if (bearer?.file) say(`the token is in ${bearer.file}${bearer.created ? ' (just created)' : ''}`);
        return print(bearer!.token);
      });
    case 'rotate':
      return withConfig(cli, async ({ config }) => {
        if (config.server.token) {
          say('the token is set in the config (server.token or CHATGPT_MCP_TOKEN); change it there');
          return EXIT.config;
        }
        const token = await rotateTokenFile(stateDir());
        say('the token file now holds a new token; restart the server and update every client');
        return print(token);
      });
    default:
      return usageError(`unknown token command "${sub}"; expected "token new", "token show" or "token rotate"`);
  }
}
