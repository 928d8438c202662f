/** The human-readable result table: the judged figures first, the detail after the bar. */

const HEADER = [
  'scenario',
  'vs',
  'ours CPU/call',
  'base CPU/call',
  'ratio',
  'goal',
  'met',
  '|',
  'time ratio (pairs)',
  'p50/p99 ratio',
  'ours calls/s p50 p99',
  'base calls/s p50 p99',
];
const LEFT = new Set([0, 1, 10, 11]);

export function formatTable(rows) {
  const measured = rows.filter((row) => !row.skipped).map(cells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...measured.map((c) => c[i].length)));
  const line = (c) =>
    c
      .map((cell, i) => (LEFT.has(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(HEADER), line(widths.map((w) => '-'.repeat(w)))];
  for (const row of rows) out.push(row.skipped ? `${row.id.padEnd(widths[0])}  skipped: ${row.skipped}` : line(cells(row)));
  return out.join('\n');
}

function cells(row) {
  const { ours, baseline, ratio } = row;
  const judgedOn = row.judgedOn ?? (ratio.cpu !== null ? 'cpu' : 'time');
  const verdict = [row.goal ? row.goal.text : 'noise', row.goal && row.met !== null ? (row.met ? 'yes' : 'NO') : '-'];
  // Rows that are not per-call latency (memory, start-up, response size) bring their own cells.
  if (row.cells) {
    const { cells: c } = row;
    return [
      row.id,
      row.baselineName,
      c.ours,
      c.baseline,
      `${ratio[judgedOn].toFixed(2)}x (${judgedOn})`,
      ...verdict,
      '|',
      c.detail,
      '',
      c.oursSide,
      c.baselineSide,
    ];
  }
  return [
    row.id,
    row.baselineName,
    cpu(ours),
    cpu(baseline),
    `${ratio[judgedOn].toFixed(2)}x${judgedOn === 'time' ? ' (time)' : ''}`,
    ...verdict,
    '|',
    `${ratio.time.toFixed(2)}x (${Math.min(...ratio.timePairs).toFixed(2)}-${Math.max(...ratio.timePairs).toFixed(2)})`,
    `${ratio.p50.toFixed(2)} / ${ratio.p99.toFixed(2)}`,
    side(ours),
    side(baseline),
  ];
}

function cpu(figures) {
  return figures.cpuMsPerCall === null ? 'n/a' : `${ms(figures.cpuMsPerCall)} ms`;
}

function side(figures) {
  return `${Math.round(figures.callsPerSecond).toLocaleString('en-US')}/s ${ms(figures.p50Ms)} ${ms(figures.p99Ms)} ms`;
}

function ms(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}
