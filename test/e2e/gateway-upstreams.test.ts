/**
 * The official servers from npm (server-everything, server-memory, server-filesystem) behind the
 * gateway, reached through our stdio and HTTP fronts by real v1 and v2 clients: their tools are
 * listed under their prefixes, beside the built-in tools, and answer intact (text, structured
 * content, images, progress), their resources and prompts pass through, and a filesystem
 * server launched on a wider folder still works in the folder it was granted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectFront,
  connectStdioHost,
  EVERYTHING,
  FILESYSTEM,
  gatewayHome,
  MEMORY,
  nodeUpstream,
  texts,
  type Front,
  type GatewayHome,
} from '../helpers/gateway.js';
import { startCliHttp } from '../helpers/servers.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const sandboxUsable = process.platform === 'linux';
let home: GatewayHome;

beforeAll(() => {
  home = gatewayHome();
  fs.writeFileSync(path.join(home.data, 'note.txt'), 'hello from data\n');
  fs.writeFileSync(path.join(home.data, 'long.txt'), Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long file`).join('\n'));
  home.write({
    gateway: {
      servers: [
        nodeUpstream('everything', EVERYTHING, {
          tools: { exclude: ['toggle-simulated-logging'], excludeMatching: ['elicitation', 'sampling'], kinds: { 'get-sum': 'open-world' } },
        }),
        nodeUpstream('memory', MEMORY, { env: { MEMORY_FILE_PATH: path.join(home.data, 'memory.jsonl') }, folders: [home.data] }),
        // Launched on the whole home, granted only data: the sandbox is what scopes it.
        { ...nodeUpstream('files', FILESYSTEM), prefix: 'fsx', args: [FILESYSTEM, home.home], folders: [home.data] },
      ],
    },
  });
});
afterAll(() => home?.remove());

const FRONTS: Front[] = ['stdio modern', 'stdio legacy', 'http modern', 'http legacy'];

describe.skipIf(!sandboxUsable)('the official servers through the gateway', () => {
  it.each(FRONTS)('%s: lists them prefixed beside the built-in tools, and their calls answer intact', async (front) => {
    const client = await connectFront(front, home);
    try {
      const names = (await client.rawListTools()).tools.map((t) => t.name);
      expect(names).toContain('system_info');
      expect(names).toEqual(expect.arrayContaining(['everything_echo', 'everything_get-sum', 'memory_read_graph', 'fsx_list_directory']));
      // Excluded by name and by part of a name.
      expect(names).not.toContain('everything_toggle-simulated-logging');
      expect(names.some((n) => n.includes('elicitation') || n.includes('sampling'))).toBe(false);
      expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);

      const echo = await client.callTool({ name: 'everything_echo', arguments: { message: 'through the gateway' } });
      expect(texts(echo)).toBe('Echo: through the gateway');
      const sum = await client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 40 } });
      expect(texts(sum)).toContain('42');
      const weather = await client.callTool({ name: 'everything_get-structured-content', arguments: { location: 'Chicago' } });
      expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
      const image = await client.callTool({ name: 'everything_get-tiny-image', arguments: {} });
      expect(image.content.find((c) => c.type === 'image')).toMatchObject({ mimeType: 'image/png', data: expect.stringMatching(/^[A-Za-z0-9+/=]+$/) });

      const listed = await client.callTool({ name: 'fsx_list_directory', arguments: { path: home.data } });
      expect(texts(listed)).toContain('note.txt');
      await client.callTool({ name: 'memory_create_entities', arguments: { entities: [{ name: front, entityType: 'front', observations: ['seen'] }] } });
      const graph = await client.callTool({ name: 'memory_read_graph', arguments: {} });
      expect(JSON.stringify(graph.structuredContent)).toContain(front);
    } finally {
      await client.close();
    }
  });

  it("an upstream's long answer is cut to the same answer budget, and answer_more reads the rest", async () => {
    const client = await connectFront('http modern', home);
    try {
      const read = await client.callTool({ name: 'fsx_read_text_file', arguments: { path: path.join(home.data, 'long.txt') } });
      const text = texts(read);
      // The default budget (8000 tokens) holds for each part a host may read.
      expect(countTokens(text)).toBeLessThanOrEqual(8000);
      expect(countTokens(JSON.stringify(read.structuredContent ?? {}))).toBeLessThanOrEqual(8000);
      expect(text).toMatch(/^line 0 of a long file/);
      expect(text).toMatch(/line 19999 of a long file$/);
      const id = /answer_more \{"id":"(ans_[\w-]{24})"\}/.exec(text)?.[1];
      expect(id, text.slice(0, 300)).toBeDefined();
      const more = await client.callTool({ name: 'answer_more', arguments: { id } });
      expect(more.isError).toBeFalsy();
      const page = more.structuredContent as { text: string; done: boolean };
      // The page starts where the head stopped: the first line the head left out.
      const firstLeftOut = Number(/elided \(lines ([\d,]+)-/.exec(text)![1]!.replace(/,/g, '')) - 1;
      expect(page.text.startsWith(`line ${firstLeftOut} of a long file`), page.text.slice(0, 80)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("annotations: the upstream's hints kept, the owner's kind over them", async () => {
    const client = await connectFront('http modern', home);
    try {
      const tools = (await client.rawListTools()).tools;
      const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
      // server-filesystem marks its reads read-only.
      expect(hints('fsx_read_text_file')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(hints('everything_echo')).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      // get-sum says read-only; the owner said open-world.
      expect(hints('everything_get-sum')).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    } finally {
      await client.close();
    }
  });

  it('progress, resources and prompts pass through (v2 client over HTTP)', async () => {
    const server = await startCliHttp(['--config', home.configFile], home.env);
    const client = new Client({ name: 'gateway-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const steps: number[] = [];
      const long = await client.callTool(
        { name: 'everything_trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
        { onprogress: (p) => void steps.push(p.progress) },
      );
      expect(long.isError).toBeFalsy();
      expect(steps).toEqual([1, 2, 3]);

      const { resources } = await client.listResources();
      const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'));
      expect(doc).toBeDefined();
      const read = await client.readResource({ uri: doc!.uri });
      expect(read.contents[0]).toMatchObject({ uri: doc!.uri });

      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('everything_simple-prompt');
      const prompt = await client.getPrompt({ name: 'everything_simple-prompt', arguments: {} });
      expect(prompt.messages.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      server.child.kill('SIGTERM');
    }
  });

  it("progress passes through the stdio wire's shortcut too (v1 client over stdio)", async () => {
    const client = await connectStdioHost(home);
    try {
      // What reaches the client, in the order it arrives. The v1 client itself drops a progress
      // report that arrives in the same read as its answer (it runs notification handlers a
      // microtask late but settles answers at once), so the order is checked on the wire.
      const transport = client.transport!;
      const arrived: string[] = [];
      const deliver = transport.onmessage!;
      transport.onmessage = (message, extra) => {
        const m = message as { method?: string; params?: { progress?: number }; result?: unknown };
        if (m.method === 'notifications/progress') arrived.push(`progress ${m.params?.progress}`);
        else if (m.result !== undefined) arrived.push('answer');
        deliver.call(transport, message, extra);
      };
      const steps: number[] = [];
      const long = await client.callTool({ name: 'everything_trigger-long-running-operation', arguments: { duration: 1, steps: 2 } }, undefined, {
        onprogress: (p) => void steps.push(p.progress),
      });
      expect(long.isError).toBeFalsy();
      expect(arrived).toEqual(['progress 1', 'progress 2', 'answer']);
      expect(steps[0]).toBe(1);
    } finally {
      await client.close();
    }
  });
});
