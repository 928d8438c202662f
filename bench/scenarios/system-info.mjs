/**
 * Scenario 1: tools/call system.info over HTTP, ours (default config) against a bare-SDK
 * one-tool server, for the modern (2026-07-28) and legacy (2025-11-25 after a stateless
 * initialize) request shapes, at concurrency 1 and 10. First, a calibration row: the bare
 * server against a second copy of itself, whose ratios would be exactly 1 on a quiet machine
 * and so show how far this run's noise alone moves a ratio.
 */
import { startBareServer } from '../lib/bare-server.mjs';
import { bareSystemInfo } from '../lib/bare-tools.mjs';
import { WITHIN_BARE } from '../lib/goals.mjs';
import { compareHttp } from '../lib/http-compare.mjs';
import { captureCall } from '../lib/request-shapes.mjs';
import { verifyCall } from '../lib/verify.mjs';

const SHAPES = [
  { shape: 'modern', label: '2026-07-28' },
  { shape: 'legacy', label: '2025-11-25' },
];
const CONCURRENCY = [1, 10];

export async function systemInfoScenario({ ours: oursModule, load, timing, wanted, progress }) {
  const rows = [];
  const ours = await oursModule.startOurs({});
  const bare = await startBareServer(bareSystemInfo);
  try {
    const url = `http://127.0.0.1:${ours.port}/mcp`;
    const calibrationId = 'calibration: bare vs bare http 2026-07-28 c=1';
    if (wanted(calibrationId)) rows.push(await calibrate({ id: calibrationId, url, bare, load, timing, progress }));
    for (const { shape, label } of SHAPES) {
      const request = await captureCall(shape, url, 'system.info', {});
      await verifyCall(`ours system.info (${label})`, ours.port, request);
      await verifyCall(`bare system.info (${label})`, bare.port, request);
      for (const concurrency of CONCURRENCY) {
        const id = `system.info http ${label} c=${concurrency}`;
        if (!wanted(id)) continue;
        progress(id);
        const figures = await compareHttp({ load, oursPort: ours.port, baselinePort: bare.port, request, concurrency, timing });
        rows.push({
          id,
          tool: 'system.info',
          transport: 'http',
          protocol: label,
          concurrency,
          baselineName: 'bare SDK',
          oursTools: ours.tools,
          goal: WITHIN_BARE,
          ...figures,
        });
      }
    }
  } finally {
    await ours.close();
    await bare.close();
  }
  return rows;
}

async function calibrate({ id, url, bare, load, timing, progress }) {
  const twin = await startBareServer(bareSystemInfo);
  try {
    const request = await captureCall('modern', url, 'system.info', {});
    await verifyCall('bare twin system.info', twin.port, request);
    progress(id);
    const figures = await compareHttp({ load, oursPort: twin.port, baselinePort: bare.port, request, concurrency: 1, timing });
    return {
      id,
      tool: 'system.info',
      transport: 'http',
      protocol: '2026-07-28',
      concurrency: 1,
      baselineName: 'bare SDK',
      calibration: true,
      goal: null,
      ...figures,
    };
  } finally {
    await twin.close();
  }
}
