/**
 * The tool names a model is told about are the names it can call: through the built CLI over
 * stdio with a config that leaves server.toolNames at its default (underscore), every
 * description, hint and error names fs_write / process_output / system_info; the data a tool
 * returns (file contents, command output) is never rewritten. With "dotted", the dotted names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../main/mcp/tools/index.js';
import { connectModernStdio, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir, writeJson } from '../helpers/temp.js';

const DOTTED = ALL_TOOLS.map((t) => t.name).filter((n) => n.includes('.'));
/** Any dotted tool name as a whole word (not shell.maxOutputBytes, not fs.readFile). */
const ANY_DOTTED = new RegExp(`(?<![\\w.])(?:${DOTTED.map((n) => n.replace('.', '\\.')).join('|')})(?![\\w]|\\.\\w)`);
/** A node program still running when shell.exec promotes it to a handle. */
const SLOW = 'console.log("started"); setTimeout(() => {}, 20000)';

let home: string;
let root: string;
const config = (toolNames?: 'dotted') =>
  writeJson(path.join(home, `${toolNames ?? 'default'}.json`), {
    filesystem: { write: true, roots: [root] },
    shell: { enabled: true, allowedCommands: ['node'] },
    ...(toolNames ? { server: { toolNames } } : {}),
  });

beforeAll(() => {
  ({ home, root } = makeRootAndOutside());
  fs.writeFileSync(path.join(root, 'notes.md'), 'Read with fs.read, then fs.write it back.\n');
  fs.writeFileSync(path.join(root, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe]));
});
afterAll(() => removeDir(home));

type Listed = { name: string; title?: string; description?: string; inputSchema?: unknown; outputSchema?: unknown };

describe('the default (underscore) names, through the CLI over stdio', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connectModernStdio(['--config', config()], childEnv(home) as Record<string, string>);
  });
  afterAll(() => client.close());

  it('describes every tool with the names the client can call', async () => {
    const tools = (await client.rawListTools()).tools as Listed[];
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['system_info', 'shell_exec', 'process_output', 'process_stop', 'fs_read', 'fs_write']));
    const exec = tools.find((t) => t.name === 'shell_exec')!;
    expect(exec.description).toContain('read it with process_output, end it with process_stop');
    expect(exec.description).toContain('system_info lists the allowed commands');
    expect(JSON.stringify(exec.outputSchema)).toContain('pass it to process_output / process_stop');
    for (const tool of tools) {
      expect(tool.description, tool.name).not.toMatch(ANY_DOTTED);
      expect(tool.title ?? '', tool.name).not.toMatch(ANY_DOTTED);
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(ANY_DOTTED);
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toMatch(ANY_DOTTED);
    }
  });

  it('says process_output and process_stop when a command goes on under a handle', async () => {
    const result = await client.callTool({ name: 'shell_exec', arguments: { command: 'node', args: ['-e', SLOW], promoteAfterMs: 500 } });
    const handle = (result.structuredContent as { processHandle?: string }).processHandle;
    expect(handle, textOf(result)).toMatch(/^proc_/);
    expect(textOf(result)).toContain(`it goes on as ${handle} (process_output reads more, process_stop ends it)`);
    expect(textOf(result)).not.toMatch(ANY_DOTTED);
    const stopped = await client.callTool({ name: 'process_stop', arguments: { processHandle: handle } });
    expect(stopped.isError, textOf(stopped)).toBeFalsy();
  });

  it('names the tool as exposed in an error about it', async () => {
    const result = await client.callTool({ name: 'fs_read', arguments: { path: path.join(root, 'image.bin') } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^INVALID_INPUT: .*image\.bin is not a UTF-8 text file \(it looks binary\); fs_read returns text only$/);
  });

  it('leaves the data alone: a file and a command output that mention dotted names', async () => {
    const read = await client.callTool({ name: 'fs_read', arguments: { path: path.join(root, 'notes.md') } });
    expect(textOf(read)).toBe('Read with fs.read, then fs.write it back.\n');
    const printed = await client.callTool({ name: 'shell_exec', arguments: { command: 'node', args: ['-e', 'console.log("see system.info")'] } });
    expect(textOf(printed)).toContain('stdout:\nsee system.info');
  });
});

describe('server.toolNames "dotted", through the CLI over stdio', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connectModernStdio(['--config', config('dotted')], childEnv(home) as Record<string, string>);
  });
  afterAll(() => client.close());

  it('describes, hints and errs in the dotted names', async () => {
    const tools = (await client.rawListTools()).tools as Listed[];
    expect(tools.find((t) => t.name === 'shell.exec')?.description).toContain('read it with process.output, end it with process.stop');
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['-e', SLOW], promoteAfterMs: 500 } });
    const handle = (result.structuredContent as { processHandle?: string }).processHandle;
    expect(textOf(result)).toContain(`it goes on as ${handle} (process.output reads more, process.stop ends it)`);
    await client.callTool({ name: 'process.stop', arguments: { processHandle: handle } });
    const failed = await client.callTool({ name: 'fs.read', arguments: { path: path.join(root, 'image.bin') } });
    expect(textOf(failed)).toMatch(/; fs\.read returns text only$/);
  });
});
