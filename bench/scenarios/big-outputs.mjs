/**
 * Scenario 2d: big outputs over stdio. A command printing 2 MiB, once and 64 times at once, with
 * the default limits (shell.maxOutputBytes 1 MiB per stream, shell.maxConcurrent 8 with a queue
 * of 4x that). Two questions, each for NUL bytes (`head -c 2097152 /dev/zero`) and for text
 * (`head -c 2097152 <a text file>`):
 *
 * - reply size: the bytes of the JSON-RPC result against the bounded output (1 MiB), the most a
 *   reply should need to carry. NUL output is binary and comes back as a byte count and a short
 *   base64 preview, not 2 MiB of `\u0000` escapes; text comes back in the structured result and
 *   again in the text block, as the MCP spec asks, so it is reported (about 2x) without a goal.
 * - memory: bursts of 64 concurrent calls in a fresh server (OURS_WAVES in a row for ours), the
 *   growth of its resident high-water mark over its idle RSS against the bound docs/PERFORMANCE.md states:
 *   maxConcurrent x maxOutputBytes x BOUND_FACTOR.
 *
 * The bare SDK server (no output cap, no concurrency cap, no backpressure) runs one burst in the
 * same run, so its figures show what the limits buy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NO_GOAL, RESPONSE_SIZE, WITHIN_MEMORY_BOUND } from '../lib/goals.mjs';
import { residentMiB, settle } from '../lib/memory.mjs';
import { round1, round3 } from '../lib/stats.mjs';
import { startStdioClient } from '../lib/stdio-client.mjs';
import { MIB, writeTextFile } from '../lib/text-files.mjs';
import { bareStdio, REPO } from '../lib/peers.mjs';

const PRINTED_BYTES = 2 * MIB;
const CONCURRENT_CALLS = 64;
/** The defaults the bound is stated for (main/config/schema.ts). */
const MAX_OUTPUT_BYTES = MIB;
const MAX_CONCURRENT = 8;
/**
 * The bound docs/PERFORMANCE.md states, in units of maxConcurrent x maxOutputBytes. An answer in memory holds
 * about six live copies of its output (captured bytes, decoded text, the text block, the JSON
 * line, its write buffer); at most about twice maxConcurrent answers are in memory at once (the
 * running commands', and those written but unread, which backpressure keeps to about as many:
 * main/mcp/reply-backlog.ts); and V8 lets garbage reach up to about three times the live heap
 * before it collects. 6 x 2 x 3 = 36, rounded up: 40. Measured with a full collection every
 * 20 ms, the live part alone is about 100 MiB at the defaults.
 */
const BOUND_FACTOR = 40;
/** Ours gets several bursts in a row: the bound must hold whatever the number of calls. */
const OURS_WAVES = 4;
const SAMPLE_MS = 50;
const BURST_TIMEOUT_MS = 120_000;
/**
 * The SDK client drops the connection on a message over 10 MiB, which the bare server's reply of
 * 2 MiB of NUL is (about 24 MiB): raised here so that reply can be measured at all.
 */
const CLIENT_MAX_MESSAGE = 256 * MIB;

const OUTPUTS = {
  NUL: (textFile) => ({ command: 'head', args: ['-c', String(PRINTED_BYTES), '/dev/zero'], textFile }),
  text: (textFile) => ({ command: 'head', args: ['-c', String(PRINTED_BYTES), textFile], textFile }),
};

const ids = (kind) => ({
  size: `shell.exec printing 2 MiB of ${kind}: reply size`,
  memory: `${CONCURRENT_CALLS} concurrent shell.exec printing 2 MiB of ${kind}, ${OURS_WAVES} times: peak RSS growth`,
});

export async function bigOutputsScenario({ ours: oursModule, wanted, progress }) {
  const kinds = Object.keys(OUTPUTS).filter((kind) => Object.values(ids(kind)).some(wanted));
  if (kinds.length === 0) return [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-big-')));
  const rows = [];
  try {
    const textFile = writeTextFile(dir, 'two-mib.txt', PRINTED_BYTES).path;
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'bench-config.json'), {
      filesystem: { read: true, roots: [dir] },
      shell: { enabled: true, allowedCommands: ['head'], sandbox: 'off' },
      // Whole answers: this scenario bounds what the output itself costs; scenario 6 measures the answer budget.
      server: { answerBudgetTokens: 0 },
    });
    const ours = oursModule.stdioCommand(configPath);
    const sides = { ours: [ours.command, ours.args], bare: bareStdio('shell.exec') };

    for (const kind of kinds) {
      const exec = OUTPUTS[kind](textFile);
      const { size, memory } = ids(kind);
      if (wanted(size)) {
        progress(size);
        const replies = {};
        for (const side of ['ours', 'bare']) replies[side] = await oneReply(side, sides[side], exec);
        rows.push(sizeRow(size, kind, replies));
      }
      if (wanted(memory)) {
        progress(memory);
        const bursts = {};
        for (const side of ['ours', 'bare']) bursts[side] = await burst(side, sides[side], exec, side === 'ours' ? OURS_WAVES : 1);
        rows.push(!bursts.ours || !bursts.bare ? { id: memory, skipped: 'resident memory is read from /proc (Linux only)' } : memoryBoundRow(memory, bursts));
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** One call in a fresh server: the reply's size in bytes as JSON, the way it crossed the pipe. */
async function oneReply(side, [command, args], exec) {
  const session = await startStdioClient(side, command, args, REPO, {}, { children: true }, CLIENT_MAX_MESSAGE);
  try {
    const result = await session.call('shell.exec', { command: exec.command, args: exec.args });
    checkPrinted(side, result);
    return { bytes: Buffer.byteLength(JSON.stringify(result)), summary: summarize(result.structuredContent) };
  } finally {
    await session.close();
  }
}

/**
 * `waves` bursts of 64 calls at once in a fresh server: how they ended, its idle RSS and its
 * high-water mark, sampled while the calls run too, so a server that dies under a burst still
 * has a figure.
 */
async function burst(side, [command, args], exec, waves) {
  const session = await startStdioClient(side, command, args, REPO, {}, { children: true }, CLIENT_MAX_MESSAGE);
  try {
    await session.client.listTools();
    await settle();
    const idle = residentMiB(session.pid);
    if (!idle) return null;
    let peakMiB = idle.peakMiB;
    const sample = () => (peakMiB = Math.max(peakMiB, residentMiB(session.pid)?.peakMiB ?? 0));
    const sampler = setInterval(sample, SAMPLE_MS);
    const started = performance.now();
    const settled = [];
    for (let wave = 0; wave < waves; wave++) {
      const calls = Array.from({ length: CONCURRENT_CALLS }, () =>
        session.client.callTool({ name: 'shell.exec', arguments: { command: exec.command, args: exec.args } }, undefined, { timeout: BURST_TIMEOUT_MS }),
      );
      settled.push(...(await Promise.allSettled(calls)));
      if (settled.some((s) => s.status === 'rejected')) break;
    }
    clearInterval(sampler);
    sample();
    const seconds = (performance.now() - started) / 1000;
    const answered = settled.filter((s) => s.status === 'fulfilled' && !s.value.isError);
    for (const { value } of answered) checkPrinted(side, value);
    const refused = settled.filter((s) => s.status === 'fulfilled' && s.value.isError).length;
    const failure = settled.find((s) => s.status === 'rejected')?.reason;
    return {
      waves,
      idleMiB: idle.rssMiB,
      peakMiB,
      growthMiB: round1(peakMiB - idle.rssMiB),
      answered: answered.length,
      refused,
      lost: settled.length - answered.length - refused,
      failure: failure ? String(failure.message ?? failure).slice(0, 200) : null,
      seconds,
    };
  } finally {
    await session.close().catch(() => {});
  }
}

function sizeRow(id, kind, replies) {
  const bounded = MAX_OUTPUT_BYTES;
  const ratio = round3(replies.ours.bytes / bounded);
  return {
    id,
    baselineName: 'bounded output (shell.maxOutputBytes, 1 MiB)',
    kind: 'size',
    judgedOn: 'size',
    goal: kind === 'NUL' ? RESPONSE_SIZE : NO_GOAL,
    ours: { replyBytes: replies.ours.bytes, result: replies.ours.summary },
    baseline: { boundedBytes: bounded, bareReplyBytes: replies.bare.bytes },
    ratio: { size: ratio, bare: round3(replies.bare.bytes / bounded) },
    cells: {
      ours: bytes(replies.ours.bytes),
      baseline: bytes(bounded),
      detail: `bare SDK reply ${bytes(replies.bare.bytes)} (${(replies.bare.bytes / bounded).toFixed(2)}x)`,
      oursSide: replies.ours.summary,
      baselineSide: kind === 'text' ? 'text sent in structuredContent and the text block' : 'bare: 2 MiB of \\u0000, twice',
    },
  };
}

function memoryBoundRow(id, { ours, bare }) {
  const boundMiB = (MAX_CONCURRENT * MAX_OUTPUT_BYTES * BOUND_FACTOR) / MIB;
  return {
    id,
    baselineName: `bound: ${MAX_CONCURRENT} x 1 MiB x ${BOUND_FACTOR}`,
    kind: 'memory',
    judgedOn: 'bound',
    goal: WITHIN_MEMORY_BOUND,
    ours,
    baseline: { boundMiB, bare },
    ratio: { bound: round3(ours.growthMiB / boundMiB), bare: round3(ours.growthMiB / bare.growthMiB) },
    cells: {
      ours: `+${ours.growthMiB} MiB`,
      baseline: `${boundMiB} MiB`,
      detail: `bare SDK, 1 burst: +${bare.growthMiB} MiB (ours ${(ours.growthMiB / bare.growthMiB).toFixed(2)}x)`,
      oursSide: outcome(ours),
      baselineSide: `bare: ${outcome(bare)}`,
    },
  };
}

function outcome(b) {
  const lost = b.lost ? `, ${b.lost} lost (${b.failure})` : '';
  return `${b.answered} answered, ${b.refused} refused${lost} in ${b.seconds.toFixed(1)} s; peak ${b.peakMiB} MiB`;
}

/** A command that printed: exit 0 and its output in some form (text, or bytes for binary). */
function checkPrinted(side, result) {
  const s = result.structuredContent ?? {};
  const printed = typeof s.stdout === 'string' ? s.stdout.length : 0;
  if (result.isError || s.exitCode !== 0 || (printed === 0 && !(s.stdoutBinary?.bytes > 0)))
    throw new Error(`${side}: expected exit 0 and output, got ${JSON.stringify(s).slice(0, 300)}`);
}

function summarize(s) {
  if (s.stdoutBinary) return `binary: ${s.stdoutBinary.bytes} bytes kept, preview ${s.stdoutBinary.previewBase64?.length ?? 0} base64 chars`;
  return `text: ${s.stdout.length} chars${s.stdoutTruncated ? ' (truncated)' : ''}`;
}

function bytes(n) {
  return n >= MIB ? `${(n / MIB).toFixed(2)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;
}
