/**
 * Scenario 2: fs.read (1 KiB and 1 MiB) and shell.exec of `true`, over HTTP against bare-SDK
 * servers doing the same operation (the stdio rows are scenario 2b, stdio.mjs). A tool missing
 * from our tools/list is skipped with a note.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBareServer } from '../lib/bare-server.mjs';
import { bareFsRead, bareShellExec } from '../lib/bare-tools.mjs';
import { WITHIN_BARE } from '../lib/goals.mjs';
import { compareHttp } from '../lib/http-compare.mjs';
import { captureCall, connectModern } from '../lib/request-shapes.mjs';
import { checkExit, checkRead, KIB, MIB, writeTextFile } from '../lib/text-files.mjs';
import { verifyCall } from '../lib/verify.mjs';

const FILES = [
  { label: '1 KiB', name: 'small.txt', bytes: KIB, concurrency: [1, 10] },
  { label: '1 MiB', name: 'large.txt', bytes: MIB, concurrency: [1] },
];

export async function fsAndShellScenario({ ours: oursModule, load, timing, wanted, progress }) {
  const rows = [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-')));
  const servers = [];
  try {
    const files = FILES.map(({ name, bytes, ...rest }) => writeTextFile(dir, name, bytes, rest));
    // The sandbox is off here so this row measures our layers against a bare spawn; scenario 5 (sandbox.mjs) measures the sandbox.
    // Whole answers, as the bare SDK gives them: scenario 6 measures the answer budget.
    const configInput = {
      filesystem: { read: true, roots: [dir] },
      shell: { enabled: true, allowedCommands: ['true'], sandbox: 'off' },
      server: { answerBudgetTokens: 0 },
    };
    const ours = await oursModule.startOurs(configInput);
    servers.push(ours);
    const url = `http://127.0.0.1:${ours.port}/mcp`;
    const listed = await listTools(url);
    const skip = (id, tool) => rows.push({ id, tool, skipped: `${tool} is not in our tools/list yet (listed: ${listed.join(', ')})` });
    // What a text-only host shows of fs.list must name the files, not only count them.
    if (listed.includes('fs.list')) {
      const listing = await verifyCall('ours fs.list', ours.port, await captureCall('modern', url, 'fs.list', { path: dir }));
      const text = (listing.content ?? []).map((block) => block.text ?? '').join('\n');
      const unnamed = files.filter((file) => !text.includes(file.name));
      if (unnamed.length) throw new Error(`ours fs.list: its text does not name ${unnamed.map((f) => f.name).join(', ')}: ${text.slice(0, 200)}`);
    }

    // fs.read over HTTP against a bare-SDK one-tool server.
    const fsIds = files.flatMap((file) => file.concurrency.map((c) => ({ file, concurrency: c, id: `fs.read ${file.label} http 2026-07-28 c=${c}` })));
    if (!listed.includes('fs.read')) {
      for (const { id } of fsIds) if (wanted(id)) skip(id, 'fs.read');
    } else {
      const bare = await startBareServer(bareFsRead);
      servers.push(bare);
      for (const { file, concurrency, id } of fsIds) {
        if (!wanted(id)) continue;
        const request = await captureCall('modern', url, 'fs.read', { path: file.path });
        checkRead(`ours fs.read ${file.label}`, await verifyCall(`ours fs.read ${file.label}`, ours.port, request), file);
        checkRead(`bare fs.read ${file.label}`, await verifyCall(`bare fs.read ${file.label}`, bare.port, request), file);
        progress(id);
        const figures = await compareHttp({ load, oursPort: ours.port, baselinePort: bare.port, request, concurrency, timing });
        rows.push({
          id,
          tool: 'fs.read',
          transport: 'http',
          protocol: '2026-07-28',
          concurrency,
          bytes: file.bytes,
          baselineName: 'bare SDK',
          oursTools: ours.tools,
          goal: WITHIN_BARE,
          ...figures,
        });
      }
    }

    // shell.exec of `true` over HTTP against a bare-SDK one-tool server.
    const shellIds = [1, 10].map((c) => ({ concurrency: c, id: `shell.exec true http 2026-07-28 c=${c}` }));
    if (!listed.includes('shell.exec')) {
      for (const { id } of shellIds) if (wanted(id)) skip(id, 'shell.exec');
    } else {
      const bare = await startBareServer(bareShellExec);
      servers.push(bare);
      const request = await captureCall('modern', url, 'shell.exec', { command: 'true', args: [] });
      checkExit('ours shell.exec', await verifyCall('ours shell.exec', ours.port, request));
      checkExit('bare shell.exec', await verifyCall('bare shell.exec', bare.port, request));
      for (const { concurrency, id } of shellIds) {
        if (!wanted(id)) continue;
        progress(id);
        const figures = await compareHttp({ load, oursPort: ours.port, baselinePort: bare.port, request, concurrency, timing });
        rows.push({
          id,
          tool: 'shell.exec',
          transport: 'http',
          protocol: '2026-07-28',
          concurrency,
          baselineName: 'bare SDK',
          oursTools: ours.tools,
          goal: WITHIN_BARE,
          ...figures,
        });
      }
    }
  } finally {
    for (const server of servers) await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function listTools(url) {
  const { client } = await connectModern(url);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}
