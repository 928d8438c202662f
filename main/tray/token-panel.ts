/**
 * The token in use, as the settings window shows it: the running server's (else the one its
 * next start reads), where it lives, and Replace, which makes a new one where it lives and
 * restarts the server. The same token file and config the headless server reads
 * (main/config/token.ts), so the tray, `token show` and every client agree.
 */
import type { Config } from '../config/schema.js';
import { acceptsBearer, existingBearerToken, replaceToken, TokenReplaceError } from '../config/token.js';
import type { ServerStatus, TokenInUse, TokenReplaceResult } from './bridge-api.js';

export interface TokenPanelDeps {
  configPath: string;
  appDir: string;
  env: NodeJS.ProcessEnv;
  /** The running server's token, or null. */
  running(): string | null;
  /** The saved config (throws when it is invalid). */
  readConfig(): Readonly<Config>;
  restart(): Promise<ServerStatus>;
}

export class TokenPanel {
  constructor(private readonly deps: TokenPanelDeps) {}

  current(): TokenInUse {
    const running = this.deps.running();
    let config: Readonly<Config>;
    try {
      config = this.deps.readConfig();
    } catch {
      return { token: running, source: null, where: 'The config file is invalid; the token shown is the running server’s.' };
    }
    if (!acceptsBearer(config)) return { token: null, source: null, where: 'Clients sign in with OAuth or nothing here, so no token is used.' };
    if (this.deps.env.CHATGPT_MCP_TOKEN)
      return { token: running ?? config.server.token ?? null, source: 'environment', where: 'Set by the CHATGPT_MCP_TOKEN variable.' };
    if (config.server.token)
      return { token: running ?? config.server.token, source: 'config', where: `Set in the config file (server.token): ${this.deps.configPath}` };
    let existing;
    try {
      existing = existingBearerToken(config, this.deps.appDir);
    } catch (error) {
      return { token: running, source: 'file', where: (error as Error).message };
    }
    const file = typeof existing === 'object' && existing?.file ? existing.file : null;
    return {
      token: running ?? (typeof existing === 'object' ? (existing?.token ?? null) : null),
      source: 'file',
      where: file ? `Kept in ${file}, the same token “chatgpt-mcp token show” prints.` : 'Made at the server’s first start.',
    };
  }

  /** A new token where the one in use lives, then a restart so the server takes it. */
  async replace(): Promise<TokenReplaceResult> {
    try {
      const replaced = await replaceToken({ configFile: this.deps.configPath, appDir: this.deps.appDir, env: this.deps.env });
      const status = await this.deps.restart();
      return { ok: true, token: replaced.token, source: replaced.source, status };
    } catch (error) {
      if (error instanceof TokenReplaceError) return { ok: false, error: `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.` };
      return { ok: false, error: `Could not replace the token (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).` };
    }
  }
}
