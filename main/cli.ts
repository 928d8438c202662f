#!/usr/bin/env node
/**
 * Headless entry: parses arguments and hands each command to its module under cli/. The tray
 * app runs the same server modules; nothing here decides policy.
 */
import { parseArgs } from 'node:util';
import type { CliOverrides } from './config/load.js';
import { optionNames, renderHelp } from './cli/command-help.js';
import { print, usageError } from './cli/io.js';
import { closestName } from './config/edit-distance.js';
import { cliHint, cliName, detectCliName, setCliName } from './command-name.js';
import { VERSION } from './version.js';
import { exitWhenDone } from './cli/exit-when-done.js';

// Each command's module is loaded only when that command runs: a stdio server starts without
// the HTTP, OAuth, tunnel or MCP-client code it does not use (cold start is what a host waits for).
const commands = {
  serve: () => import('./cli/serve.js'),
  config: () => import('./cli/config-command.js'),
  token: () => import('./cli/token-command.js'),
  oauth: () => import('./cli/oauth-command.js'),
  tunnel: () => import('./cli/tunnel-command.js'),
  gateway: () => import('./cli/gateway-command.js'),
  version: () => import('./cli/version-command.js'),
  undo: () => import('./cli/undo-command.js'),
  audit: () => import('./cli/audit-command.js'),
};

const HELP = `chatgpt-mcp ${VERSION}: let ChatGPT or any MCP client act on this computer, within what you allow.

Usage:
  chatgpt-mcp [serve] [--http]      serve MCP over HTTP (default http://127.0.0.1:3210/mcp)
  chatgpt-mcp serve --stdio         serve MCP over stdin/stdout (for hosts that spawn a command)
  chatgpt-mcp config check          validate the config and print it (secrets masked)
  chatgpt-mcp config path           print the config file path in use
  chatgpt-mcp config init           create the config file (asks, or takes --root, --read-only-root,
                                    --command, --write; --force replaces an existing file)
  chatgpt-mcp token [show]          print the bearer token HTTP clients must send (created if needed)
  chatgpt-mcp token rotate          replace the token in use with a new one (every client needs the new one)
  chatgpt-mcp token new             print a random token that nothing uses yet (for server.token or CHATGPT_MCP_TOKEN)
  chatgpt-mcp oauth list            OAuth clients and the connection requests waiting for approval
  chatgpt-mcp oauth approve CODE    approve the request whose authorize page shows CODE (deny CODE refuses)
  chatgpt-mcp oauth revoke ID       forget an OAuth client; its tokens stop working at once
  chatgpt-mcp tunnel start          serve HTTP and run OpenAI's tunnel-client for ChatGPT until Ctrl+C
  chatgpt-mcp tunnel status         tunnel id, where the runtime key is, the client, and a running tunnel's state
  chatgpt-mcp tunnel doctor         check everything the tunnel needs, then run the client's own doctor
  chatgpt-mcp tunnel set-key        store the runtime key from stdin (OS keyring, else an owner-only file;
                                    --force stores one that does not look like an OpenAI API key)
  chatgpt-mcp tunnel forget-key     remove the stored runtime key
  chatgpt-mcp tunnel download       install the official tunnel-client release, verified by its SHA-256
  chatgpt-mcp gateway list          your other MCP servers (gateway.servers): accepted and held tools
  chatgpt-mcp gateway test NAME     start one, list its tools (holding changed ones), stop it
  chatgpt-mcp gateway show NAME [ITEM]    what changed in its held tools, prompts and views, with fingerprints
  chatgpt-mcp gateway accept NAME [ITEM]  accept them (--expect FP: only as "gateway show" printed them)
  chatgpt-mcp gateway set-secret NAME     store a value entries refer to as {"secret": NAME}, from stdin
  chatgpt-mcp gateway add           add the entry another host uses (Claude, Cursor, VS Code, Codex...), from stdin
  chatgpt-mcp version [--check]     this version, and with --check the latest release's
  chatgpt-mcp undo list             groups of changes the tools made (files, git), newest first
  chatgpt-mcp undo show ID          what one group changed, with diffs of what undo would do
  chatgpt-mcp undo apply ID         put those changes back (a file changed since is left and reported)
  chatgpt-mcp audit tail [N]        the last N tool calls recorded in the audit log (default 20)
  chatgpt-mcp audit search TERMS    calls matching tool=, client=, outcome=, since=, until=, limit= and words
  chatgpt-mcp audit export [TERMS]  the matching audit lines as stored (JSON lines, sealed)
  chatgpt-mcp audit verify          check the log's hash chain; names the first line cut or edited
  chatgpt-mcp --version | --help

Options:
  --config FILE       config file (default: per-OS path, see "config path"; env CHATGPT_MCP_CONFIG)
  --host HOST         bind address (env CHATGPT_MCP_HOST, default 127.0.0.1)
  --port PORT         port, 0 picks a free one (env CHATGPT_MCP_PORT, default 3210)
  --log-level LEVEL   silent|error|warn|info|debug (env CHATGPT_MCP_LOG_LEVEL, default info)
  --tunnel-id ID      tunnel start|status|doctor: the tunnel (env CONTROL_PLANE_TUNNEL_ID, config tunnel.tunnelId)
  --client FILE       tunnel start|status|doctor: the tunnel-client program (config tunnel.clientPath)
  --check             version: ask for the latest release (only when asked; the server never looks by itself)
  --feed URL          version --check: read this latest-*.yml instead of the releases this build names
  --expect FP         gateway accept: accept only items still as "gateway show" printed them (one per item)
  --dry-run           gateway add: print the entry it would add and what to do about it, write nothing

HTTP needs a bearer token unless the config says server.auth "none" (loopback only). Without
server.token or CHATGPT_MCP_TOKEN, the first start creates one in the app's config folder;
"chatgpt-mcp token show" prints it. It is never taken from a flag (flags are visible to every
user in the process list) and never written to the log.

With server.auth "oauth" (or "bearer+oauth") the server is also an OAuth authorization server
for clients such as ChatGPT that reach it through a public tunnel (server.publicUrl): each
connection waits until you approve its code here ("oauth approve CODE") or in the tray.`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        http: { type: 'boolean' },
        stdio: { type: 'boolean' },
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'log-level': { type: 'string' },
        root: { type: 'string', multiple: true },
        'read-only-root': { type: 'string', multiple: true },
        command: { type: 'string', multiple: true },
        write: { type: 'boolean' },
        force: { type: 'boolean' },
        'tunnel-id': { type: 'string' },
        client: { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        check: { type: 'boolean' },
        feed: { type: 'string' },
        expect: { type: 'string', multiple: true },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usageError(explainArgumentError((error as Error & { code?: string }).message, argv));
  }
  const { values, positionals } = parsed;
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) return usageError(`--port ${values.port}: expected a port number from 0 to 65535`);
  if (values.port !== undefined && Number(values.port) > 65535) return usageError(`--port ${values.port}: expected a port number from 0 to 65535`);
  if (values.version) return print(VERSION);
  if (values.help) return print(renderHelp(HELP, positionals, cliName()) ?? renderHelp(HELP, [], cliName())!);

  const cli: CliOverrides = { config: values.config, host: values.host, port: values.port, logLevel: values['log-level'] };
  const [command = 'serve', sub, ...rest] = positionals;
  // Refused rather than ignored elsewhere: "undo apply ID --dry-run" must not undo.
  if (values['dry-run'] && command !== 'gateway') return usageError('--dry-run goes with "gateway add" only');
  if (command === 'oauth') return (await commands.oauth()).oauthCommand(sub, rest);
  if (command === 'gateway') return (await commands.gateway()).gatewayCommand(sub, rest, cli, values.expect, values['dry-run']);
  if (command === 'undo') return (await commands.undo()).undoCommand(sub, rest, cli);
  if (command === 'audit') return (await commands.audit()).auditCommand(sub, rest);
  if (rest.length > 0) return usageError(`unexpected argument "${rest[0]}"`);

  switch (command) {
    case 'serve':
      if (sub !== undefined) return usageError(`unexpected argument "${sub}"`);
      if (values.http && values.stdio) return usageError('choose one of --http and --stdio');
      return values.stdio ? (await commands.serve()).serveStdio(cli) : (await commands.serve()).serveHttp(cli);
    case 'config': {
      const init = {
        roots: values.root ?? [],
        readOnlyRoots: values['read-only-root'] ?? [],
        commands: values.command ?? [],
        write: values.write ?? false,
        force: values.force ?? false,
      };
      return (await commands.config()).configCommand(sub, cli, init);
    }
    case 'token':
      return (await commands.token()).tokenCommand(sub, cli);
    case 'version':
      if (sub !== undefined) return usageError(`unexpected argument "${sub}"`);
      return (await commands.version()).versionCommand(values.check ?? false, values.feed);
    case 'tunnel':
      return (await commands.tunnel()).tunnelCommand(sub, cli, { tunnelId: values['tunnel-id'], client: values.client, force: values.force });
    default:
      return usageError(`unknown command "${command}"`);
  }
}

/** parseArgs' messages, in our words: what was wrong and what to do instead. */
function explainArgumentError(message: string, argv: string[]): string {
  const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
  if (unknown === '--token' || unknown?.startsWith('--token=') || argv.some((a) => a === '--token' || a.startsWith('--token='))) {
    return `there is no --token option (the process list would show the token to every user): put it in server.token in the config file, or in CHATGPT_MCP_TOKEN; ${cliHint('token show')} prints the one in use`;
  }
  if (unknown) {
    const close = unknown.startsWith('--') ? closestName(unknown.slice(2).split('=')[0]!, optionNames(HELP)) : null;
    return `unknown option ${unknown}${close ? ` (did you mean --${close}?)` : ''}`;
  }
  const missing = /Option '([^ ']+)[^']*' argument missing/.exec(message)?.[1];
  if (missing) return `${missing} needs a value`;
  const unexpected = /Unexpected argument '([^']+)'/.exec(message)?.[1];
  if (unexpected) return `unexpected argument ${unexpected}`;
  return message;
}

setCliName(detectCliName(process.argv[1]));
exitWhenDone(main(process.argv.slice(2)));
