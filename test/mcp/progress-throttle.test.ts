import { describe, expect, it } from 'vitest';
import { boundedProgress, throttleProgress, type ProgressReport } from '../../main/mcp/progress-throttle.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('throttleProgress', () => {
  it('sends the first report at once, then the latest once per interval, and the last one waiting on flush', async () => {
    const sent: number[] = [];
    const throttle = throttleProgress(async (report: ProgressReport) => void sent.push(report.progress), 50);
    for (let i = 1; i <= 10_000; i++) throttle.report({ progress: i });
    expect(sent).toEqual([1]);
    await sleep(80);
    expect(sent).toEqual([1, 10_000]);
    throttle.report({ progress: 10_001 });
    throttle.report({ progress: 10_002 });
    await throttle.flush();
    expect(sent).toEqual([1, 10_000, 10_002]);
    await sleep(80);
    expect(sent).toHaveLength(3);
  });

  it('flush waits for what was sent, and a failed send is not thrown', async () => {
    let written = false;
    const throttle = throttleProgress(() => sleep(20).then(() => ((written = true), Promise.reject(new Error('closed')))), 50);
    throttle.report({ progress: 1 });
    await throttle.flush();
    expect(written).toBe(true);
  });
});

describe('boundedProgress', () => {
  it('scrubs the message, cuts it to 1 KiB, and keeps only finite numbers and the message', () => {
    const scrub = (text: string) => text.split('s3cret-value').join('<redacted>');
    const report = { progress: 3, total: Infinity, message: `s3cret-value ${'x'.repeat(7 * 1024 * 1024)}`, extra: 'y'.repeat(1000) };
    const out = boundedProgress(report as ProgressReport, scrub);
    expect(Object.keys(out)).toEqual(['progress', 'message']);
    expect(out.message!.startsWith('<redacted> xxx')).toBe(true);
    expect(out.message!.endsWith('... (cut)')).toBe(true);
    expect(out.message!.length).toBe(1024 + '... (cut)'.length);
    expect(boundedProgress({ progress: 1, total: 2, message: 'ok' }, scrub)).toEqual({ progress: 1, total: 2, message: 'ok' });
  });
});
