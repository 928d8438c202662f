/**
 * Real servers for tests: the HTTP server in-process on an ephemeral loopback port, and the
 * built CLI as a child process (stdio or HTTP). Both run exactly the production modules.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { ChangeJournal } from '../../adapter/contract/journal.js';
import { configSchema, type Config, type ConfigInput } from '../../main/config/schema.js';
import { deepFreeze } from '../../main/config/deep-freeze.js';
import { createLogger, silentLogger, type Logger } from '../../main/log.js';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../../main/mcp/http.js';
import { ReplyBacklog } from '../../main/mcp/reply-backlog.js';
import { createServerFactory, type ToolCallObserver } from '../../main/mcp/server.js';
import type { ToolDefinition } from '../../main/mcp/tool.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(REPO_ROOT, 'out/main/cli.js');

/** A parsed config for in-process servers: a free port, and no auth unless the test gives a token or a mode. */
export function makeConfig(input: ConfigInput = {}): Readonly<Config> {
  const server = { ...input.server };
  if (server.port === undefined) server.port = 0;
  if (server.auth === undefined && server.token === undefined) server.auth = 'none';
  // In-process tests call tools by the contract's dotted names; the default (underscore) has tests of its own.
  if (server.toolNames === undefined) server.toolNames = 'dotted';
  return deepFreeze(configSchema.parse({ ...input, server }));
}

export interface TestHttpServer extends RunningHttpServer {
  config: Readonly<Config>;
  logLines: string[];
}

export async function startTestServer(
  input: ConfigInput = {},
  options: {
    adapter?: ComputerAdapter;
    tools?: readonly ToolDefinition[];
    logger?: Logger;
    observer?: ToolCallObserver;
    bearerToken?: string;
    oauth?: HttpServerOptions['oauth'];
    protectedFiles?: string[];
    /** false: fs.search uses only its built-in engine (to compare it with ripgrep). */
    useRipgrep?: boolean;
    /** Records changes for undo (as openServer does with undo.enabled). */
    journal?: ChangeJournal;
    /** How a 401 says to get the token (the host passes its own words). */
    tokenHint?: string;
  } = {},
): Promise<TestHttpServer> {
  const config = makeConfig(input);
  const logLines: string[] = [];
  const logger = options.logger ?? createLogger('debug', (line) => void logLines.push(line));
  // As the CLI and the tray do: commands wait while a client leaves answers unread.
  const answers = new ReplyBacklog();
  const factory = createServerFactory({
    config,
    answers,
    adapter: options.adapter ?? createLocalAdapter(),
    logger,
    tools: options.tools,
    observer: options.observer,
    protectedFiles: options.protectedFiles,
    useRipgrep: options.useRipgrep,
    journal: options.journal,
  });
  const running = await startHttpServer({
    config,
    factory,
    logger,
    bearerToken: options.bearerToken,
    oauth: options.oauth,
    answers,
    tokenHint: options.tokenHint,
  });
  return Object.assign(running, { config, logLines });
}

export { silentLogger };

/** Environment for CLI children: no inherited CHATGPT_MCP_* values, HOME in a temp dir. */
export function childEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('CHATGPT_MCP_')) env[key] = value;
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), APPDATA: path.join(home, 'AppData'), ...extra };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI run to its end; `input`: what its stdin reads (none: it reads an end at once). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 15_000, input = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    // It may stop reading before all is written.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `chatgpt-mcp serve --http --port 0` and resolves with its URL from the "listening" log line. */
export function startCliHttp(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}
