/**
 * `chatgpt-mcp token [show] | rotate | new`. `show` (also `token` alone) prints the token HTTP
 * clients must send, creating the token file when the config names none, so the owner can set
 * a client up before the first start; the server itself never prints it. `rotate` replaces the
 * token in use wherever it lives. `new` only makes a random token and says it is not in use.
 */
import type { CliOverrides } from '../config/load.js';
import { acceptsBearer, ensureBearerToken, generateToken, replaceToken, TokenReplaceError } from '../config/token.js';
import { cliHint } from '../command-name.js';
import { EXIT, print, say, usageError, withConfig } from './io.js';
import { stateDir } from '../host/places.js';

export function tokenCommand(sub: string | undefined, cli: CliOverrides): number | Promise<number> {
  switch (sub) {
    case undefined:
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
      return withConfig(cli, async ({ path: configFile }) => {
        try {
          const replaced = await replaceToken({ configFile, appDir: stateDir(), env: process.env });
          say(
            `${replaced.source === 'config' ? `server.token in ${configFile}` : `the token file ${replaced.file}`} now holds a new token: restart the server, then give every client the new one (${cliHint('token show')} prints it)`,
          );
          return print(replaced.token);
        } catch (error) {
          if (!(error instanceof TokenReplaceError)) throw error;
          say(error.message);
          return EXIT.config;
        }
      });
    case 'new':
      say(`a random token, NOT the one the server uses (${cliHint('token show')} prints that): put it in server.token or CHATGPT_MCP_TOKEN to use it`);
      return print(generateToken());
    default:
      return usageError(`unknown token command "${sub}"; expected "token show" (or "token" alone), "token rotate" or "token new"`);
  }
}
