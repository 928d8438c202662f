/** The server factory's wrapping of every tool: error mapping, secret scrubbing, logs, observer. */
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../adapter/contract/errors.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../main/mcp/tool.js';
import type { ToolCallEvent } from '../../main/mcp/server.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { createLogger } from '../../main/log.js';
import { modernRequest, postModern } from '../helpers/raw-rpc.js';
import { GRANT } from '../../main/policy/grants.js';

const TOKEN = 'factory-secret-token-0123456789';

const tool = (
  name: string,
  run: () => Promise<never> | Promise<{ structured: { ok: boolean; timedOut?: boolean }; text: string }>,
  target?: () => Record<string, unknown>,
) =>
  defineTool({
    name,
    title: name,
    description: name,
    input: z.object({}),
    output: z.object({ ok: z.boolean(), timedOut: z.boolean().optional() }),
    annotations: READ_ONLY,
    grant: GRANT.always,
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
  tool('test.slow', async () => ({ structured: { ok: false, timedOut: true }, text: 'timed out after 10 ms' })),
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
  it('logs a call by its exposed name, and one that hit its deadline as TIMEOUT, not ok', async () => {
    const events: ToolCallEvent[] = [];
    server = await startTestServer({ server: { toolNames: 'underscore' } }, { tools: TOOLS, observer: (event) => void events.push(event) });
    const client = await connectModernHttp(server.url);
    expect((await client.callTool({ name: 'test_slow', arguments: {} })).isError).toBeFalsy();
    const calls = server.logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'tool call');
    expect(calls).toEqual([expect.objectContaining({ tool: 'test_slow', outcome: 'TIMEOUT' })]);
    expect(events.at(-1)).toMatchObject({ phase: 'end', exposed: 'test_slow', outcome: 'TIMEOUT' });
    await client.close();
  });

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

describe('instructions', () => {
  for (const toolNames of ['underscore', 'dotted'] as const) {
    it(`fit ChatGPT's 512 characters and name the first tool as exposed (${toolNames})`, async () => {
      server = await startTestServer({ server: { toolNames } });
      const client = await connectModernHttp(server.url);
      const text = client.instructions() ?? '';
      const info = (await client.rawListTools()).tools.map((t) => t.name).find((n) => n.startsWith('system'));
      await client.close();
      expect(text.length).toBeGreaterThan(100);
      expect(text.length).toBeLessThanOrEqual(512);
      expect(info).toBe(toolNames === 'underscore' ? 'system_info' : 'system.info');
      // Self-contained: the one tool it names is one the client can call, and no other tool is assumed.
      expect(text).toContain(`Start with ${info}:`);
      expect(text).not.toMatch(toolNames === 'underscore' ? /\b[a-z]+\.[a-z]+\b/ : /\b[a-z]+_[a-z]+\b/);
    });
  }
});

describe('tool names in what a model reads', () => {
  const hint = defineTool({
    name: 'test.hint',
    title: 'Hint (see test.other)',
    description: 'Returns a handle: read it with test.other; system.info lists more.',
    input: z.object({
      note: z
        .string()
        .regex(/^[a-z ]*$/, 'letters only, as test.other takes')
        .optional()
        .describe('Passed on to test.other'),
    }),
    output: z.object({ stdout: z.string() }),
    annotations: READ_ONLY,
    grant: GRANT.always,
    run: async (args) => {
      if (args.note === 'fail') throw adapterError('INVALID_INPUT', 'test.hint', 'call test.other first');
      const stdout = 'the program printed system.info';
      return { structured: { stdout }, text: `still running: test.other reads more\nstdout:\n${stdout}` };
    },
  }) as unknown as ToolDefinition;
  const other = tool('test.other', async () => ({ structured: { ok: true }, text: 'ok' }));

  it('are the exposed names under server.toolNames "underscore": description, fields, hints, errors; data stays as it is', async () => {
    const events: ToolCallEvent[] = [];
    server = await startTestServer({ server: { toolNames: 'underscore' } }, { tools: [hint, other], observer: (e) => void events.push(e) });
    const client = await connectModernHttp(server.url);
    const listed = (await client.rawListTools()).tools.find((t) => t.name === 'test_hint') as unknown as {
      title: string;
      description: string;
      inputSchema: { properties: { note: { description: string } } };
    };
    expect(listed.title).toBe('Hint (see test_other)');
    expect(listed.description).toBe('Returns a handle: read it with test_other; system_info lists more.');
    expect(listed.inputSchema.properties.note.description).toBe('Passed on to test_other');

    const ok = await client.callTool({ name: 'test.hint', arguments: {} });
    // The hint is the server's own; "system.info" is what the program printed, in the text and the structured result.
    expect(textOf(ok)).toBe('still running: test_other reads more\nstdout:\nthe program printed system.info');
    expect(ok.structuredContent).toEqual({ stdout: 'the program printed system.info' });

    const failed = await client.callTool({ name: 'test.hint', arguments: { note: 'fail' } });
    expect(textOf(failed)).toBe('INVALID_INPUT: call test_other first');
    const invalid = await client.callTool({ name: 'test.hint', arguments: { note: 'NOT LETTERS' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('letters only, as test_other takes');
    expect(textOf(invalid)).not.toContain('test.other');

    expect(events.filter((e) => e.phase === 'start').map((e) => [e.tool, e.exposed])).toEqual([
      ['test.hint', 'test_hint'],
      ['test.hint', 'test_hint'],
    ]);
    await client.close();
  });

  it('stay dotted under server.toolNames "dotted"', async () => {
    server = await startTestServer({ server: { toolNames: 'dotted' } }, { tools: [hint, other] });
    const client = await connectModernHttp(server.url);
    const listed = (await client.rawListTools()).tools.find((t) => t.name === 'test.hint') as unknown as { description: string };
    expect(listed.description).toBe('Returns a handle: read it with test.other; system.info lists more.');
    expect(textOf(await client.callTool({ name: 'test.hint', arguments: {} }))).toBe(
      'still running: test.other reads more\nstdout:\nthe program printed system.info',
    );
    expect(textOf(await client.callTool({ name: 'test.hint', arguments: { note: 'fail' } }))).toBe('INVALID_INPUT: call test.other first');
    await client.close();
  });
});

describe('a call under the other separator', () => {
  const ok = tool('test.other', async () => ({ structured: { ok: true }, text: 'ok' }));
  const raw = async (url: string, name: string) => await (await postModern(url, modernRequest(1, 'tools/call', { name, arguments: {} }))).text();

  it('is told the exposed name, and nothing runs; an unknown name is still unknown', async () => {
    let runs = 0;
    const counted = tool('test.counted', async () => ({ structured: { ok: (runs += 1) > 0 }, text: 'ran' }));
    server = await startTestServer({ server: { toolNames: 'underscore' } }, { tools: [ok, counted] });
    const told = await raw(server.url, 'test.counted');
    expect(told).toContain('INVALID_INPUT: this server has no tool test.counted; it is named test_counted here (server.toolNames); call test_counted');
    expect(told).toContain('"isError":true');
    expect(runs).toBe(0);
    expect(await raw(server.url, 'test_counted')).toContain('"text":"ran"');
    expect(runs).toBe(1);
    expect(await raw(server.url, 'test.nope')).not.toContain('it is named');
  });

  it('that is not granted is told it is not granted, under the name it has here', async () => {
    const off = defineTool({ ...(ok as ToolDefinition), name: 'fs.write', grant: GRANT.filesWrite }) as unknown as ToolDefinition;
    server = await startTestServer({ server: { toolNames: 'underscore' } }, { tools: [ok, off] });
    for (const name of ['fs.write', 'fs_write']) {
      expect(await raw(server.url, name)).toContain(
        'CAPABILITY_DISABLED: fs_write exists but is not granted on this server; the owner grants it with filesystem.write',
      );
    }
  });

  it('works the other way under server.toolNames "dotted"', async () => {
    server = await startTestServer({ server: { toolNames: 'dotted' } }, { tools: [ok] });
    expect(await raw(server.url, 'test_other')).toContain('INVALID_INPUT: this server has no tool test_other; it is named test.other here');
  });
});
