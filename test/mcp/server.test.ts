/** The server factory's wrapping of every tool: error mapping, secret scrubbing, logs, observer. */
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../adapter/errors.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../main/mcp/tool.js';
import type { ToolCallEvent } from '../../main/mcp/server.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { createLogger } from '../../main/log.js';

const TOKEN = 'factory-secret-token-0123456789';

const tool = (name: string, run: () => Promise<never> | Promise<{ structured: { ok: boolean }; text: string }>, target?: () => Record<string, unknown>) =>
  defineTool({
    name,
    title: name,
    description: name,
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    annotations: READ_ONLY,
    enabled: () => true,
    ...(target ? { target } : {}),
    run,
  }) as unknown as ToolDefinition;

const TOOLS = [
  tool('test.crash', async () => {
    throw new Error(`ENOENT reading /home/alex/.aws/credentials with ${TOKEN}`);
  }),
  tool('test.denied', async () => {
    throw adapterError('PATH_NOT_ALLOWED', 'test.denied', `nope, and somehow ${TOKEN} got here`);
  }),
  tool('test.deeper', async () => {
    throw adapterError('NOT_FOUND', 'runCommand', 'cannot start /x: no such file');
  }),
  tool(
    'test.ok',
    async () => ({ structured: { ok: true }, text: 'fine' }),
    () => {
      throw new Error('target metadata broke');
    },
  ),
];

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('tool call wrapping', () => {
  it('turns an unexpected exception into a generic OS_ERROR, logging its class only', async () => {
    const lines: string[] = [];
    server = await startTestServer({ server: { token: TOKEN } }, { tools: TOOLS, logger: createLogger('debug', (l) => void lines.push(l)) });
    const client = await connectModernHttp(server.url, TOKEN);
    const result = await client.callTool({ name: 'test.crash', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('OS_ERROR: test.crash failed unexpectedly; the server log has the details');
    const log = lines.join('');
    expect(log).toContain('"outcome":"OS_ERROR"');
    expect(log).toContain('"error":"Error"');
    expect(log).not.toContain('credentials');
    expect(log).not.toContain(TOKEN);
    await client.close();
  });

  it('keeps the stable code of an adapter error and scrubs the token from its message', async () => {
    server = await startTestServer({ server: { token: TOKEN } }, { tools: TOOLS });
    const client = await connectModernHttp(server.url, TOKEN);
    const result = await client.callTool({ name: 'test.denied', arguments: {} });
    expect(textOf(result)).toBe('PATH_NOT_ALLOWED: nope, and somehow <redacted> got here');
    await client.close();
  });

  it('logs which step failed when it is not the tool itself (the error operation)', async () => {
    server = await startTestServer({}, { tools: TOOLS });
    const client = await connectModernHttp(server.url);
    await client.callTool({ name: 'test.deeper', arguments: {} });
    await client.callTool({ name: 'test.denied', arguments: {} });
    const calls = server.logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'tool call');
    expect(calls.find((entry) => entry.tool === 'test.deeper')).toMatchObject({ outcome: 'NOT_FOUND', operation: 'runCommand' });
    expect(calls.find((entry) => entry.tool === 'test.denied')).not.toHaveProperty('operation');
    await client.close();
  });

  it('reports start and end to the observer, and survives an observer or target() that throws', async () => {
    const events: ToolCallEvent[] = [];
    const observer = (event: ToolCallEvent) => {
      events.push(event);
      throw new Error('observer broke');
    };
    server = await startTestServer({}, { tools: TOOLS, observer });
    const client = await connectModernHttp(server.url);
    expect((await client.callTool({ name: 'test.ok', arguments: {} })).structuredContent).toEqual({ ok: true });
    await client.callTool({ name: 'test.denied', arguments: {} });
    expect(events.map((e) => [e.phase, e.tool, e.phase === 'end' ? e.outcome : null])).toEqual([
      ['start', 'test.ok', null],
      ['end', 'test.ok', 'ok'],
      ['start', 'test.denied', null],
      ['end', 'test.denied', 'PATH_NOT_ALLOWED'],
    ]);
    await client.close();
  });
});
