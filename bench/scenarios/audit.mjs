/**
 * Scenario: what the audit log costs a call. Two copies of our stdio server, driven by the v1
 * client like hosts drive it, doing the cheapest call there is to make the log's share show
 * (fs.read of 1 KiB): one with the audit log on (the default), the baseline with
 * `audit.enabled: false`. Each has its own app folder in a temp dir, so the owner's log is
 * never touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NO_GOAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { checkRead, KIB, writeTextFile } from '../lib/text-files.mjs';
import { REPO, stdioGrants } from '../lib/peers.mjs';

const ID = 'fs.read 1 KiB stdio, audit log on vs off';
const MAX_CALLS_PER_ROUND = 5000;

export async function auditScenario({ ours: oursModule, timing, wanted, progress }) {
  if (!wanted(ID)) return [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-audit-')));
  try {
    const file = writeTextFile(dir, 'small.txt', KIB, { label: '1 KiB' });
    const start = async (label, audit) => {
      const configPath = oursModule.writeStdioConfig(path.join(dir, `${label}.json`), { ...stdioGrants(dir), audit: { enabled: audit } });
      const { command, args } = oursModule.stdioCommand(configPath);
      // Its own app folder: the log goes to the temp dir.
      const home = path.join(dir, label);
      fs.mkdirSync(home, { mode: 0o700 });
      return startStdioClient(`ours (audit ${label})`, command, args, REPO, { XDG_CONFIG_HOME: home }, { children: true });
    };
    const on = await start('on', true);
    try {
      const off = await start('off', false);
      try {
        checkRead('audit on', await on.call('fs.read', { path: file.path }), file);
        checkRead('audit off', await off.call('fs.read', { path: file.path }), file);
        progress(ID);
        const figures = await interleave({
          ours: sequentialRunner(on, 'fs.read', { path: file.path }, MAX_CALLS_PER_ROUND),
          baseline: sequentialRunner(off, 'fs.read', { path: file.path }, MAX_CALLS_PER_ROUND),
          ...timing,
        });
        const logged = fs.readFileSync(path.join(dir, 'on', 'chatgpt-mcp', 'audit', 'audit.jsonl'), 'utf8').split('\n').length - 1;
        if (logged < 2) throw new Error(`audit on: the log holds ${logged} lines`);
        return [
          {
            id: ID,
            tool: 'fs.read',
            transport: 'stdio',
            protocol: '2025-11-25 (v1 client)',
            concurrency: 1,
            bytes: KIB,
            baselineName: 'ours with audit.enabled false',
            cpuIncludesChildren: true,
            goal: NO_GOAL,
            ...figures,
          },
        ];
      } finally {
        await off.close().catch(() => {});
      }
    } finally {
      await on.close().catch(() => {});
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
