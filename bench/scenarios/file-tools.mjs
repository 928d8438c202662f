/**
 * Scenario 4b: the other new file tools against the official server-filesystem's nearest tool,
 * over stdio with the v1 client as in scenario 2. No target is set for them: reported.
 *
 * - fs.stat of one file against get_file_info.
 * - fs.find of `*.d.ts` in a copy of node_modules/zod (840 files, 124 matches) against
 *   search_files with `**\/*.d.ts`; both must list the same files before anything is measured.
 * - fs.patch of one line in a 1 MiB file (an apply_patch hunk with context) against edit_file
 *   doing the same edit, each call undoing the previous one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NO_GOAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { alternatingRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { LINE, MIB } from '../lib/text-files.mjs';
import { officialFs, REPO } from '../lib/peers.mjs';

const TREE_SOURCE = path.join(REPO, 'node_modules/zod');
const MAX_CALLS_PER_ROUND = 3000;
const IDS = {
  stat: 'fs.stat stdio vs server-filesystem',
  find: 'fs.find *.d.ts in 840 files stdio vs server-filesystem',
  patch: 'fs.patch 1 MiB stdio vs server-filesystem',
};

export async function fileToolsScenario({ ours: oursModule, timing, wanted, progress }) {
  if (!Object.values(IDS).some(wanted)) return [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-files-')));
  const sessions = [];
  const rows = [];
  try {
    const tree = path.join(dir, 'zod');
    fs.cpSync(TREE_SOURCE, tree, { recursive: true });
    const files = { ours: path.join(dir, 'ours.txt'), theirs: path.join(dir, 'theirs.txt') };
    const half = `${LINE}\n`.repeat(Math.floor(MIB / 2 / (LINE.length + 1)));
    for (const file of Object.values(files)) fs.writeFileSync(file, `${half}const marker = 'MARKER-A';\n${half}`);
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'bench-config.json'), { filesystem: { write: true, roots: [dir] } });
    const spawnOurs = oursModule.stdioCommand(configPath);
    const ours = await startStdioClient('ours (stdio)', spawnOurs.command, spawnOurs.args, REPO);
    sessions.push(ours);
    const official = await startStdioClient('server-filesystem (stdio)', ...officialFs(dir), REPO);
    sessions.push(official);

    const cases = [
      {
        id: IDS.stat,
        ours: ['fs.stat', [{ path: files.ours }]],
        theirs: ['get_file_info', [{ path: files.theirs }]],
        check: async () => {
          const mine = (await ours.call('fs.stat', { path: files.ours })).structuredContent;
          const text = JSON.stringify((await official.call('get_file_info', { path: files.theirs })).content);
          if (mine?.size !== fs.statSync(files.ours).size || !text.includes(String(fs.statSync(files.theirs).size)))
            throw new Error(`fs.stat / get_file_info: wrong size (${mine?.size})`);
        },
      },
      {
        id: IDS.find,
        ours: ['fs.find', [{ path: tree, pattern: '*.d.ts', type: 'file', maxResults: 10_000 }]],
        theirs: ['search_files', [{ path: tree, pattern: '**/*.d.ts' }]],
        check: async () => {
          const mine = (await ours.call('fs.find', { path: tree, pattern: '*.d.ts', type: 'file', maxResults: 10_000 })).structuredContent;
          const theirs = (await official.call('search_files', { path: tree, pattern: '**/*.d.ts' })).content?.[0]?.text ?? '';
          const expected = countDts(tree);
          const listed = theirs.split('\n').filter((line) => line.endsWith('.d.ts')).length;
          if (mine?.truncated !== false || mine.entries.length !== expected || listed !== expected)
            throw new Error(`fs.find / search_files: ours listed ${mine?.entries?.length}, theirs ${listed}, expected ${expected}`);
        },
      },
      {
        id: IDS.patch,
        ours: ['fs.patch', [flipPatch(files.ours, 'A', 'B'), flipPatch(files.ours, 'B', 'A')]],
        theirs: ['edit_file', [flipEdit(files.theirs, 'A', 'B'), flipEdit(files.theirs, 'B', 'A')]],
        check: async () => {
          await ours.call('fs.patch', flipPatch(files.ours, 'A', 'B'));
          await official.call('edit_file', flipEdit(files.theirs, 'A', 'B'));
          for (const file of Object.values(files))
            if (!fs.readFileSync(file, 'utf8').includes("'MARKER-B'")) throw new Error(`fs.patch / edit_file: ${path.basename(file)} did not change`);
          await ours.call('fs.patch', flipPatch(files.ours, 'B', 'A'));
          await official.call('edit_file', flipEdit(files.theirs, 'B', 'A'));
        },
      },
    ];

    for (const c of cases) {
      if (!wanted(c.id)) continue;
      await c.check();
      progress(c.id);
      const runner = (session, [tool, argsList]) => alternatingRunner(session, tool, argsList, MAX_CALLS_PER_ROUND);
      const figures = await interleave({ ours: runner(ours, c.ours), baseline: runner(official, c.theirs), ...timing });
      rows.push({
        id: c.id,
        tool: c.ours[0],
        transport: 'stdio',
        protocol: '2025-11-25 (v1 client)',
        concurrency: 1,
        baselineName: `server-filesystem ${c.theirs[0]}`,
        goal: NO_GOAL,
        ...figures,
      });
    }
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** An apply_patch hunk changing the marker line, with a line of context on each side. */
function flipPatch(file, from, to) {
  return {
    patch: [
      '*** Begin Patch',
      `*** Update File: ${file}`,
      '@@',
      ` ${LINE}`,
      `-const marker = 'MARKER-${from}';`,
      `+const marker = 'MARKER-${to}';`,
      ` ${LINE}`,
      '*** End Patch',
    ].join('\n'),
  };
}

function flipEdit(file, from, to) {
  return { path: file, edits: [{ oldText: `const marker = 'MARKER-${from}';`, newText: `const marker = 'MARKER-${to}';` }] };
}

function countDts(dir) {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && entry.name.endsWith('.d.ts')) n++;
  return n;
}
