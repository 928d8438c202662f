/**
 * Driving MCP Apps views as a host does: a real client that declares the extension, and the
 * host stand-in (test/e2e/fixtures/view-host.ts, on the ext-apps SDK's AppBridge) in a
 * Chromium page, with the view in its sandboxed iframe and its tool calls forwarded to the
 * server through that client.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { Browser, Frame, Page } from 'playwright-core';
import { build } from 'vite';
import { MODERN } from './clients.js';

const HOST_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), '../e2e/fixtures/view-host.ts');
export const APPS_CAPABILITIES = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

export type ViewResult = { content: Array<{ type: string; text?: string; data?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
export type ViewCall = { name: string; arguments?: Record<string, unknown> };

export const textOf = (result: ViewResult) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

let script: Promise<string> | undefined;

/** The host stand-in's script, bundled for the browser once per test file. */
export function hostScript(): Promise<string> {
  return (script ??= build({
    configFile: false,
    logLevel: 'warn',
    build: { write: false, minify: false, lib: { entry: HOST_ENTRY, formats: ['iife'], name: 'host', fileName: () => 'host.js' } },
  }).then((output) => {
    const [first] = [output].flat() as Array<{ output: Array<{ type: string; code?: string }> }>;
    return first!.output.find((file) => file.type === 'chunk')!.code!;
  }));
}

/** A real MCP Apps host's connection: the v2 client declaring the extension (named `openai-mcp`, the server takes it for ChatGPT). */
export async function appsClient(url: string, name = 'apps-host'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: APPS_CAPABILITIES });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export interface OpenedView {
  page: Page;
  /** The view's sandboxed frame. */
  frame: Frame;
  /** Every tool call the view asked the host for, with the server's answer. */
  calls: Array<{ call: ViewCall; result: ViewResult }>;
  /** Tool calls the view asked for that have not been answered yet. */
  pending(): number;
}

/** Opens the view `uri` (read from the server through `client`) in a new page, and hands it `result`. */
/** `fakeClock`: the page's timers and Date stand still on Playwright's clock until the test moves it (page.clock.runFor). */
export async function openView(browser: Browser, client: Client, uri: string, result: ViewResult, options: { fakeClock?: boolean } = {}): Promise<OpenedView> {
  const resource = await client.readResource({ uri });
  const html = (resource.contents[0] as { text: string }).text;
  const calls: OpenedView['calls'] = [];
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
  if (options.fakeClock) {
    // Installed, Playwright's clock still runs as real time does until paused.
    await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
    await page.clock.pauseAt(new Date('2026-01-01T00:00:01Z'));
  }
  let pending = 0;
  await page.exposeFunction('hostCallTool', async (call: ViewCall) => {
    pending++;
    try {
      const answer = (await client.callTool(call)) as ViewResult;
      calls.push({ call, result: answer });
      return answer;
    } finally {
      pending--;
    }
  });
  await page.setContent(`<!doctype html><html><body><script>${await hostScript()}</script></body></html>`);
  // The host stand-in's entry is a browser global.
  type Host = { openView(html: string, result: unknown): Promise<void> };
  await page.evaluate(([h, r]) => (globalThis as unknown as Host).openView(h as string, r), [html, result] as const);
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  return { page, frame, calls, pending: () => pending };
}
