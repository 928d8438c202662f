/**
 * Scenario 4: what the command sandbox costs. shell.exec of `true` over HTTP on our server with
 * the sandbox (shell.sandbox "workspace", bubblewrap, network off: the Linux default) against the
 * same server with shell.sandbox "off", in the same run, interleaved. The cost is mostly outside
 * the server process (bwrap sets up the namespaces and mounts in the child), so CPU here is the
 * server's own plus that of the children it waited for: the whole cost of a call on this machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childrenCpuMs, ownCpuMs } from '../lib/cpu.mjs';
import { SANDBOX_COST, SANDBOX_REPOS_COST } from '../lib/goals.mjs';
import { compareHttp } from '../lib/http-compare.mjs';
import { captureCall } from '../lib/request-shapes.mjs';
import { verifyCall } from '../lib/verify.mjs';

const IDS = [1, 10].map((concurrency) => ({ concurrency, id: `sandbox shell.exec true http c=${concurrency}` }));
const REPOS_ID = 'sandbox shell.exec true http c=1, a writable root of 60 repositories';

export async function sandboxScenario({ ours: oursModule, load, timing, wanted, progress }) {
  const todo = IDS.filter(({ id }) => wanted(id));
  const repos = wanted(REPOS_ID);
  if (todo.length === 0 && !repos) return [];
  if (process.platform !== 'linux' || childrenCpuMs() === null) {
    return [...todo, ...(repos ? [{ id: REPOS_ID }] : [])].map(({ id }) => ({
      id,
      tool: 'shell.exec',
      skipped: 'the bubblewrap sandbox is measured on Linux only',
    }));
  }
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-sandbox-')));
  const servers = [];
  const rows = [];
  try {
    const config = (sandbox) => ({ filesystem: { read: true, roots: [dir] }, shell: { enabled: true, allowedCommands: ['true'], sandbox } });
    let sandboxed;
    try {
      sandboxed = await oursModule.startOurs(config('workspace'));
    } catch (error) {
      return todo.map(({ id }) => ({ id, tool: 'shell.exec', skipped: `no sandbox here: ${error.message}` }));
    }
    servers.push(sandboxed);
    const plain = await oursModule.startOurs(config('off'));
    servers.push(plain);
    const request = await captureCall('modern', `http://127.0.0.1:${sandboxed.port}/mcp`, 'shell.exec', { command: 'true', args: [] });
    for (const [label, server] of [
      ['sandboxed', sandboxed],
      ['unsandboxed', plain],
    ]) {
      const result = await verifyCall(`${label} shell.exec`, server.port, request);
      if (result.structuredContent?.exitCode !== 0) throw new Error(`${label} shell.exec true: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
    }
    for (const { concurrency, id } of todo) {
      progress(id);
      const figures = await compareHttp({ load, oursPort: sandboxed.port, baselinePort: plain.port, request, concurrency, timing, cpuMs: treeCpuMs });
      rows.push({
        id,
        tool: 'shell.exec',
        transport: 'http',
        protocol: '2026-07-28',
        concurrency,
        baselineName: 'same server, shell.sandbox off',
        cpuIncludesChildren: true,
        oursTools: sandboxed.tools,
        goal: SANDBOX_COST,
        ...figures,
      });
    }
    if (repos) rows.push(await reposRow({ oursModule, load, timing, progress, servers }));
  } finally {
    for (const server of servers) await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const treeCpuMs = () => ownCpuMs() + childrenCpuMs();

/**
 * What finding and covering a writable root's repositories costs a sandboxed command (their hooks
 * and config kept read-only: main/policy/sandbox-repos.ts, sandbox-git.ts): a root like
 * ~/code, 60 repositories three folders down (github.com/orgN/repoN) with source folders and
 * node_modules, against the same sandbox on an empty writable root.
 */
async function reposRow({ oursModule, load, timing, progress, servers }) {
  progress(REPOS_ID);
  const code = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-repos-')));
  const empty = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-empty-')));
  try {
    for (let org = 0; org < 6; org++) {
      for (let n = 0; n < 10; n++) {
        const repo = path.join(code, 'github.com', `org${org}`, `repo${n}`);
        // As git init makes one (a .git of empty hooks and config alone is what bwrap leaves, no repository).
        for (const part of ['hooks', 'objects/info', 'refs/heads']) fs.mkdirSync(path.join(repo, '.git', part), { recursive: true });
        fs.writeFileSync(path.join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
        fs.writeFileSync(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
        for (const part of ['a', 'b', 'c', 'd', 'e']) fs.mkdirSync(path.join(repo, 'src', part, 'x'), { recursive: true });
        for (let p = 0; p < 50; p++) fs.mkdirSync(path.join(repo, 'node_modules', `p${p}`), { recursive: true });
      }
    }
    const config = (root) => ({
      filesystem: { read: true, write: true, roots: [root] },
      shell: { enabled: true, allowedCommands: ['true'], sandbox: 'workspace' },
    });
    const ours = await oursModule.startOurs(config(code));
    servers.push(ours);
    const baseline = await oursModule.startOurs(config(empty));
    servers.push(baseline);
    const request = await captureCall('modern', `http://127.0.0.1:${ours.port}/mcp`, 'shell.exec', { command: 'true', args: [] });
    for (const server of [ours, baseline]) {
      const result = await verifyCall('shell.exec in a writable root', server.port, request);
      if (result.structuredContent?.exitCode !== 0) throw new Error(`shell.exec true: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
    }
    const figures = await compareHttp({ load, oursPort: ours.port, baselinePort: baseline.port, request, concurrency: 1, timing, cpuMs: treeCpuMs });
    return {
      id: REPOS_ID,
      tool: 'shell.exec',
      transport: 'http',
      protocol: '2026-07-28',
      concurrency: 1,
      baselineName: 'same sandbox, an empty writable root',
      cpuIncludesChildren: true,
      oursTools: ours.tools,
      goal: SANDBOX_REPOS_COST,
      ...figures,
    };
  } finally {
    fs.rmSync(code, { recursive: true, force: true });
    fs.rmSync(empty, { recursive: true, force: true });
  }
}
