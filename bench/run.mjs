#!/usr/bin/env node
/**
 * Benchmarks of ChatGPT Computer MCP against baselines measured in the same run, interleaved,
 * reported as ratios (ours cost / baseline cost). See bench/README.md.
 *
 *   node bench/run.mjs [--json FILE] [--only TEXT] [--pairs N] [--round-ms MS] [--warmup-ms MS]
 *
 * Every request goes to 127.0.0.1 and every loop is bounded by a call count and a deadline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { judge } from './lib/goals.mjs';
import { HttpLoad } from './lib/http-load.mjs';
import { loadOurs } from './lib/ours.mjs';
import { formatTable } from './lib/table.mjs';
import { answerTokensScenario } from './scenarios/answer-tokens.mjs';
import { bigOutputsScenario } from './scenarios/big-outputs.mjs';
import { codingToolsScenario } from './scenarios/coding-tools.mjs';
import { coldStartScenario } from './scenarios/cold-start.mjs';
import { desktopBatchScenario } from './scenarios/desktop-batch.mjs';
import { desktopScenario } from './scenarios/desktop.mjs';
import { waylandCaptureScenario } from './scenarios/wayland-capture.mjs';
import { fileToolsScenario } from './scenarios/file-tools.mjs';
import { fsAndShellScenario } from './scenarios/fs-and-shell.mjs';
import { gatewayScenario } from './scenarios/gateway.mjs';
import { gitScenario } from './scenarios/git.mjs';
import { sandboxScenario } from './scenarios/sandbox.mjs';
import { stdioScenario } from './scenarios/stdio.mjs';
import { auditScenario } from './scenarios/audit.mjs';
import { inventoryScenario } from './scenarios/inventory.mjs';
import { downloadScenario } from './scenarios/download.mjs';
import { systemInfoScenario } from './scenarios/system-info.mjs';

const USAGE = `Usage: node bench/run.mjs [options]   (or: npm run bench -- [options])
  --json FILE      also write the raw figures as JSON to FILE
  --only TEXT      run only scenarios whose name contains TEXT (e.g. "system.info", "c=10", "stdio")
  --pairs N        measured ours/baseline round pairs per scenario (default 8)
  --round-ms MS    length of one round (default 300)
  --warmup-ms MS   warm-up per side before the rounds (default 400)`;

function options() {
  const { values } = parseArgs({
    options: {
      json: { type: 'string' },
      only: { type: 'string' },
      pairs: { type: 'string', default: '8' },
      'round-ms': { type: 'string', default: '300' },
      'warmup-ms': { type: 'string', default: '400' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name, min, max) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${values[name]}"`);
    return n;
  };
  return {
    json: values.json,
    only: values.only,
    timing: { pairs: int('pairs', 1, 50), roundMs: int('round-ms', 50, 10_000), warmupMs: int('warmup-ms', 0, 10_000) },
  };
}

async function main() {
  const opts = options();
  // Servers the bench starts without a HOME of their own (every stdio server gets the bench's)
  // keep their audit log and undo journal in the app folder under HOME: never the real one.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-home-'));
  Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });
  const ours = await loadOurs();
  const load = new HttpLoad();
  const started = Date.now();
  const wanted = (id) => !opts.only || id.includes(opts.only);
  const progress = (id) => process.stderr.write(`bench: ${id}\n`);
  const context = { ours, load, timing: opts.timing, wanted, progress };
  const rows = [];
  try {
    rows.push(...(await systemInfoScenario(context)));
    rows.push(...(await fsAndShellScenario(context)));
    rows.push(...(await stdioScenario(context)));
    rows.push(...(await auditScenario(context)));
    rows.push(...(await inventoryScenario(context)));
    rows.push(...(await downloadScenario(context)));
    rows.push(...(await coldStartScenario(context)));
    rows.push(...(await bigOutputsScenario(context)));
    rows.push(...(await codingToolsScenario(context)));
    rows.push(...(await fileToolsScenario(context)));
    rows.push(...(await sandboxScenario(context)));
    rows.push(...(await gatewayScenario(context)));
    rows.push(...(await gitScenario(context)));
    rows.push(...(await desktopScenario(context)));
    rows.push(...(await answerTokensScenario(context)));
    rows.push(...(await desktopBatchScenario(context)));
    rows.push(...(await waylandCaptureScenario(context)));
  } finally {
    await load.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
  for (const row of rows) if (row.goal && !row.skipped) Object.assign(row, judge(row.goal, row.ratio, row.judgedOn));

  const seconds = (Date.now() - started) / 1000;
  console.log(
    `\nChatGPT Computer MCP benchmark: node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${seconds.toFixed(0)} s`,
  );
  console.log('ratio = ours / baseline server CPU time per call (>1 = ours costs more); time ratio = the same for wall time per call,');
  console.log('median over back-to-back round pairs (their range in brackets); p50/p99 ratio = latency percentiles. See bench/README.md.\n');
  console.log(formatTable(rows));
  const judged = rows.filter((row) => row.goal && !row.skipped && row.met !== null);
  const skipped = rows.filter((row) => row.skipped).length;
  console.log(`\n${judged.filter((row) => row.met).length} of ${judged.length} measured scenarios meet their goal; ${skipped} skipped.`);

  if (opts.json) {
    const report = {
      when: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
      timing: opts.timing,
      seconds,
      scenarios: rows,
    };
    fs.writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
    console.log(`raw figures written to ${opts.json}`);
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
