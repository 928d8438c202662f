/** Summaries of measured rounds and the ours/baseline ratios built from them. */

/** Nearest-rank percentile of an ascending-sorted array (p in 0..100). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * One round: calls finished, wall time, throughput, latency percentiles (ms) and the server's
 * CPU time per call (ms; null when it could not be read).
 */
export function summarizeRound(latenciesMs, elapsedMs, cpuMs) {
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    calls: sorted.length,
    elapsedMs: round3(elapsedMs),
    callsPerSecond: round1((sorted.length * 1000) / elapsedMs),
    p50Ms: round3(percentile(sorted, 50)),
    p99Ms: round3(percentile(sorted, 99)),
    cpuMs: cpuMs === null ? null : round3(cpuMs),
    cpuMsPerCall: cpuMs === null ? null : round4(cpuMs / sorted.length),
  };
}

/** Every round of one side pooled: totals over totals, percentiles over all latencies. */
export function pool(rounds, allLatenciesMs) {
  const calls = sum(rounds, 'calls');
  const elapsedMs = sum(rounds, 'elapsedMs');
  const cpuKnown = rounds.every((r) => r.cpuMs !== null);
  const sorted = Float64Array.from(allLatenciesMs).sort();
  return {
    calls,
    elapsedMs: round3(elapsedMs),
    callsPerSecond: round1((calls * 1000) / elapsedMs),
    meanMsPerCall: round4(elapsedMs / calls),
    p50Ms: round3(percentile(sorted, 50)),
    p99Ms: round3(percentile(sorted, 99)),
    cpuMsPerCall: cpuKnown ? round4(sum(rounds, 'cpuMs') / calls) : null,
    rounds,
  };
}

/**
 * Ratios are always "ours cost / baseline cost", so above 1 means ours is slower.
 * - time: wall time per completed call (the inverse of throughput);
 *   The headline is the median over pairs of rounds run back to back, so a burst from a noisy
 *   neighbour spoils one pair, not the result; the pooled ratio and the pairs show the noise.
 * - cpu: the server's CPU time per call, which waiting for a busy core does not inflate; pooled
 *   over all rounds (a stdio server's CPU is read in 10 ms ticks, too coarse for one round).
 */
export function compare(ours, baseline) {
  const timePairs = ours.rounds.map((r, i) => round3(baseline.rounds[i].callsPerSecond / r.callsPerSecond));
  const cpuKnown = ours.cpuMsPerCall !== null && baseline.cpuMsPerCall !== null;
  const cpuPairs = cpuKnown ? ours.rounds.map((r, i) => round3(r.cpuMsPerCall / baseline.rounds[i].cpuMsPerCall)) : [];
  return {
    time: round3(median(timePairs)),
    timePooled: round3(baseline.callsPerSecond / ours.callsPerSecond),
    timePairs,
    cpu: cpuKnown ? round3(ours.cpuMsPerCall / baseline.cpuMsPerCall) : null,
    cpuPairs,
    p50: round3(ours.p50Ms / baseline.p50Ms),
    p99: round3(ours.p99Ms / baseline.p99Ms),
  };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function sum(rows, key) {
  return rows.reduce((n, r) => n + r[key], 0);
}

export function round1(x) {
  return Math.round(x * 10) / 10;
}

export function round3(x) {
  return Math.round(x * 1000) / 1000;
}

function round4(x) {
  return Math.round(x * 10000) / 10000;
}
