/**
 * screen.capture on a wlroots compositor (sway headless, 1024x768, a foot window) through the
 * built CLI over stdio, against grim run directly for the same PNG: what our wlroots backend
 * (grim's PPM, decoded and encoded by the worker) adds to the capture program itself. Wall time
 * per call: grim's CPU is a short-lived child's, which neither side's server figure would hold.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { WITHIN_GRIM } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { missingSway, startSway } from '../lib/sway.mjs';
import { REPO } from '../lib/peers.mjs';

const ID = 'desktop screen.capture png 1024x768 sway stdio';
const MAX_CALLS_PER_ROUND = 200;

export async function waylandCaptureScenario({ ours: oursModule, timing, wanted, progress }) {
  if (!wanted(ID)) return [];
  const missing = missingSway();
  if (missing) return [{ id: ID, tool: 'screen.capture', skipped: missing }];
  progress('wayland: starting sway headless 1024x768');
  const sway = await startSway({ width: 1024, height: 768 });
  let session;
  try {
    const configPath = path.join(sway.home, 'bench-config.json');
    oursModule.writeStdioConfig(configPath, { desktop: { hostDisplayAccess: true, screen: true } });
    fs.chownSync(configPath, sway.uid, sway.gid);
    const spawnOurs = sway.as(...Object.values(oursModule.stdioCommand(configPath)));
    session = await startStdioClient('ours (stdio, sway)', spawnOurs.command, spawnOurs.args, REPO, sway.env);
    const args = { format: 'png', maxWidth: 1024, maxHeight: 768 };
    const first = await session.call('screen.capture', args);
    if (first.structuredContent?.width !== 1024) throw new Error(`ours: expected a 1024x768 capture, got ${JSON.stringify(first.structuredContent)}`);
    progress(ID);
    const grimEnv = { PATH: '/usr/bin:/bin', WAYLAND_DISPLAY: sway.socket };
    const grim = () =>
      new Promise((resolve, reject) => {
        execFile('grim', ['-'], { env: grimEnv, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
          error ? reject(error) : stdout.length > 1000 ? resolve() : reject(new Error('grim wrote no image')),
        );
      });
    const baseline = async (durationMs) => {
      const latencies = [];
      const started = performance.now();
      while (latencies.length < MAX_CALLS_PER_ROUND && performance.now() < started + durationMs) {
        const t0 = performance.now();
        await grim();
        latencies.push(performance.now() - t0);
      }
      return { latencies, elapsedMs: performance.now() - started, cpuMs: null };
    };
    const figures = await interleave({ ours: sequentialRunner(session, 'screen.capture', args, MAX_CALLS_PER_ROUND), baseline, ...timing });
    return [
      {
        id: ID,
        tool: 'screen.capture',
        transport: 'stdio',
        protocol: '2025-11-25 (v1 client)',
        concurrency: 1,
        screen: '1024x768: sway headless (pixman), a foot window',
        baselineName: 'grim - (PNG to stdout), run directly',
        goal: WITHIN_GRIM,
        judgedOn: 'time',
        ...figures,
      },
    ];
  } finally {
    await session?.close().catch(() => {});
    await sway.stop();
  }
}
