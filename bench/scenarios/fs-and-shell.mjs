/**
 * Scenario 2: fs.read (1 KiB and 1 MiB) and shell.exec of `true`, over HTTP against bare-SDK
 * servers doing the same operation; and fs.read over stdio against the official
 * @modelcontextprotocol/server-filesystem read_text_file. A tool missing from our tools/list
 * is skipped with a note, so this runs unchanged once the tools land.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBareServer } from '../lib/bare-server.mjs';
import { bareFsRead, bareShellExec } from '../lib/bare-tools.mjs';
import { FASTER_THAN_OFFICIAL, WITHIN_BARE } from '../lib/goals.mjs';
import { compareHttp } from '../lib/http-compare.mjs';
import { captureCall, connectModern } from '../lib/request-shapes.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { verifyCall } from '../lib/verify.mjs';

const repo = new URL('../../', import.meta.url);
const OFFICIAL_FS = 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js';
const STDIO_MAX_CALLS_PER_ROUND = 5000;

const FILES = [
  { label: '1 KiB', name: 'small.txt', bytes: 1024, concurrency: [1, 10] },
  { label: '1 MiB', name: 'large.txt', bytes: 1024 * 1024, concurrency: [1] },
];

/** Printable ASCII lines, so bytes equal characters and JSON escaping is ordinary. */
function textOfSize(bytes) {
  const line = 'The quick brown fox jumps over the lazy dog; 0123456789 ABCDEFGHIJ.\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

export async function fsAndShellScenario({ ours: oursModule, load, timing, wanted, progress }) {
  const rows = [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-')));
  const servers = [];
  try {
    const files = FILES.map((file) => {
      const filePath = path.join(dir, file.name);
      const data = Buffer.from(textOfSize(file.bytes));
      fs.writeFileSync(filePath, data);
      return { ...file, path: filePath, sha256: createHash('sha256').update(data).digest('hex') };
    });
    // The sandbox is off here so this row measures our layers against a bare spawn; scenario 4 (sandbox.mjs) measures the sandbox.
    const configInput = { filesystem: { read: true, roots: [dir] }, shell: { enabled: true, allowedCommands: ['true'], sandbox: 'off' } };
    const ours = await oursModule.startOurs(configInput);
    servers.push(ours);
    const url = `http://127.0.0.1:${ours.port}/mcp`;
    const listed = await listTools(url);
    const skip = (id, tool) => rows.push({ id, tool, skipped: `${tool} is not in our tools/list yet (listed: ${listed.join(', ')})` });

    // fs.read over HTTP against a bare-SDK one-tool server.
    const fsIds = files.flatMap((file) => file.concurrency.map((c) => ({ file, concurrency: c, id: `fs.read ${file.label} http 2026-07-28 c=${c}` })));
    const stdioIds = files.map((file) => ({ file, id: `fs.read ${file.label} stdio vs server-filesystem` }));
    if (!listed.includes('fs.read')) {
      for (const { id } of [...fsIds, ...stdioIds]) if (wanted(id)) skip(id, 'fs.read');
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
      rows.push(...(await fsReadStdio({ oursModule, configInput, dir, stdioIds, timing, wanted, progress })));
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

/** fs.read over stdio: our CLI (same config as over HTTP) against the official filesystem server, both spawned, both driven by the v1 client. */
async function fsReadStdio({ oursModule, configInput, dir, stdioIds, timing, wanted, progress }) {
  const todo = stdioIds.filter(({ id }) => wanted(id));
  if (todo.length === 0) return [];
  const configPath = path.join(dir, 'bench-config.json');
  fs.writeFileSync(configPath, JSON.stringify({ ...configInput, server: { logLevel: 'silent' } }));
  const repoPath = new URL(repo).pathname;
  const spawnOurs = oursModule.stdioCommand(configPath);
  const sessions = [];
  const rows = [];
  try {
    const ours = await startStdioClient('ours (stdio)', spawnOurs.command, spawnOurs.args, repoPath);
    sessions.push(ours);
    const official = await startStdioClient('server-filesystem (stdio)', process.execPath, [OFFICIAL_FS, dir], repoPath);
    sessions.push(official);
    for (const { file, id } of todo) {
      checkRead(`ours stdio fs.read ${file.label}`, await ours.call('fs.read', { path: file.path }), file);
      const theirs = await official.call('read_text_file', { path: file.path });
      if (theirs.structuredContent?.content?.length !== file.bytes)
        throw new Error(`server-filesystem read_text_file ${file.label}: unexpected content length`);
      progress(id);
      const figures = await interleave({
        ours: sequentialRunner(ours, 'fs.read', { path: file.path }, STDIO_MAX_CALLS_PER_ROUND),
        baseline: sequentialRunner(official, 'read_text_file', { path: file.path }, STDIO_MAX_CALLS_PER_ROUND),
        ...timing,
      });
      rows.push({
        id,
        tool: 'fs.read',
        transport: 'stdio',
        protocol: '2025-11-25 (v1 client)',
        concurrency: 1,
        bytes: file.bytes,
        baselineName: 'server-filesystem',
        goal: FASTER_THAN_OFFICIAL,
        ...figures,
      });
    }
  } finally {
    for (const session of sessions) await session.close();
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

function checkRead(label, result, file) {
  const s = result.structuredContent ?? {};
  if (s.sha256 !== file.sha256 || s.truncated !== false || s.content?.length !== file.bytes) {
    throw new Error(
      `${label}: expected the whole ${file.bytes}-byte file (sha256 ${file.sha256}), got ${JSON.stringify({ sha256: s.sha256, truncated: s.truncated, length: s.content?.length })}`,
    );
  }
}

function checkExit(label, result) {
  if (result.structuredContent?.exitCode !== 0)
    throw new Error(`${label}: expected exit code 0, got ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
}
