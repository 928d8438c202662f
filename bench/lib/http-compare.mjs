/** One HTTP comparison: the same captured request replayed against ours and the baseline, interleaved. */
import { ownCpuMs } from './cpu.mjs';
import { interleave } from './rounds.mjs';

/** Upper bound on calls per round (far above what 2 cores reach), so every loop is bounded in count too. */
const MAX_CALLS_PER_MS = 50;

/** `cpuMs`: how the CPU time of a round is read (default: this process's own, the servers' work). */
export function compareHttp({ load, oursPort, baselinePort, request, concurrency, timing, cpuMs = ownCpuMs }) {
  // Both servers live in this process and only one is loaded at a time, so this process's CPU
  // time during a round is that server's (the load generator is another process).
  const runner = (port) => async (durationMs) => {
    const cpu0 = cpuMs();
    const run = await load.run({
      port,
      headers: request.headers,
      body: request.body,
      concurrency,
      durationMs,
      maxCalls: Math.ceil(durationMs * MAX_CALLS_PER_MS),
    });
    return { ...run, cpuMs: cpuMs() - cpu0 };
  };
  return interleave({ ours: runner(oursPort), baseline: runner(baselinePort), ...timing });
}
