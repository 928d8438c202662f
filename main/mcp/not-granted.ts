/**
 * A call to a tool this server has but the owner did not grant: instead of the SDK's bare
 * "Tool X not found", a tool error saying that it exists, that it is not granted, and which
 * settings grant it. Nothing runs.
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { errorResult } from './tool-errors.js';

/** What grants each tool family (docs/TOOLS.md, "granted by"), in the owner's words. */
const GRANTS: Array<[prefix: string, grant: string]> = [
  ['fs.write', 'filesystem.write and a writable root (settings: Files)'],
  ['fs.mkdir', 'filesystem.write and a writable root (settings: Files)'],
  ['fs.move', 'filesystem.write and a writable root (settings: Files)'],
  ['fs.delete', 'filesystem.write and a writable root (settings: Files)'],
  ['fs.edit', 'filesystem.write and a writable root (settings: Files)'],
  ['fs.patch', 'filesystem.write and a writable root (settings: Files)'],
  ['fs.', 'filesystem.read and a root in filesystem.roots (settings: Files)'],
  ['search', 'chatgpt.searchFetch with filesystem.read and a root'],
  ['fetch', 'chatgpt.searchFetch with filesystem.read and a root'],
  ['shell.', 'shell.enabled and a program in shell.allowedCommands (settings: Commands)'],
  ['process.list', 'process.list (settings: Processes)'],
  ['process.kill', 'process.kill (settings: Processes)'],
  ['process.', 'shell.enabled and a program in shell.allowedCommands (settings: Commands)'],
  ['screen.', 'desktop.hostDisplayAccess and desktop.screen (settings: Desktop)'],
  ['ui.', 'desktop.hostDisplayAccess and desktop.screen (settings: Desktop)'],
  ['input.', 'desktop.hostDisplayAccess and desktop.input (settings: Desktop)'],
  ['app.', 'desktop.hostDisplayAccess, desktop.appControl and an app in desktop.apps (settings: Desktop)'],
  ['browser.', 'desktop.hostDisplayAccess and desktop.browser (settings: Desktop)'],
  ['service.status', 'a service in services.allowed (settings: Services)'],
  ['service.control', 'services.control and a service in services.allowed (settings: Services)'],
];

export function grantFor(tool: string): string {
  return (
    GRANTS.find(([prefix]) => tool === prefix || (prefix.endsWith('.') && tool.startsWith(prefix)))?.[1] ??
    'its setting (docs/TOOLS.md lists what grants each tool)'
  );
}

export function notGrantedResult(exposed: string, tool: string): CallToolResult {
  return errorResult(
    `CAPABILITY_DISABLED: ${exposed} exists but is not granted on this server; the owner grants it with ${grantFor(tool)}, then restarts the server`,
  );
}

type Handler = (request: { params: { name: string } }, ctx: unknown) => Promise<unknown>;
interface HandlerAccess {
  _getRequestHandler(method: string): Handler | undefined;
  setRequestHandler(method: string, handler: Handler): void;
}

/** Answers calls to `ungranted` (exposed name -> contract name) before the SDK's own tools/call handler. */
export function answerUngranted(server: McpServer, ungranted: ReadonlyMap<string, string>): void {
  const protocol = server.server as unknown as HandlerAccess;
  const original = protocol._getRequestHandler?.('tools/call');
  if (!original || ungranted.size === 0) return;
  protocol.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = ungranted.get(request.params.name);
    return tool === undefined ? original(request, ctx) : notGrantedResult(request.params.name, tool);
  });
}
