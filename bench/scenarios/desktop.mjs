/**
 * Scenario 3: the desktop tools on real X displays started here, over stdio, against the same
 * actions of computer-use-mcp (one `computer` tool), both servers spawned and driven by the v1
 * client. On 1280x800 with a Chromium window of text and ~200 accessible elements (on a private
 * session bus with the AT-SPI registry): screen.capture PNG/JPEG, input.move, click, double
 * click, scroll, drag, key and cursor, and ui.snapshot (against their screenshot: they have no
 * tree). On 2560x1600: screen.capture at the model-sized defaults. The server's CPU includes the
 * processes it forked (our desktop worker). Without Xvfb every row is skipped with the reason;
 * when computer-use-mcp cannot run, the reason is printed with our own figures measured alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FASTER_THAN_OFFICIAL, WITHIN_COMPUTER_USE } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { pool, summarizeRound } from '../lib/stats.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { treeCpuMs } from '../lib/tree-cpu.mjs';
import { missingAccessibility, missingXvfb, startXDisplay } from '../lib/x-display.mjs';
import { REPO } from '../lib/peers.mjs';

const WIDTH = 1280;
const HEIGHT = 800;
const THEIRS = 'computer-use-mcp';
const THEIRS_VERSION = '1.8.0';
const THEIRS_DIR = path.join(REPO, 'node_modules', THEIRS);
/** Inside the page, away from the browser's own controls; the page ignores clicks. */
const POINT = { x: 700, y: 520 };
const MAX_CAPTURES_PER_ROUND = 200;
const MAX_INPUTS_PER_ROUND = 2000;

const capture = (format) => ({
  id: `desktop screen.capture ${format} stdio`,
  kind: 'capture',
  format,
  size: { width: WIDTH, height: HEIGHT },
  ours: ['screen.capture', { format, maxWidth: WIDTH, maxHeight: HEIGHT }],
  theirs: ['computer', { action: 'get_screenshot' }],
  // get_screenshot waits 1000 ms before it grabs (a fixed setTimeout in computer-use-mcp)
  theirsLabel: 'get_screenshot, waits 1 s/call',
  maxCalls: MAX_CAPTURES_PER_ROUND,
});

const input = (id, ours, theirs, theirsLabel, kind = 'input') => ({
  id: `desktop ${id} stdio`,
  kind,
  ours,
  theirs,
  theirsLabel,
  maxCalls: MAX_INPUTS_PER_ROUND,
  goal: WITHIN_COMPUTER_USE,
});
const AT = [POINT.x, POINT.y];

/** On the 1280x800 display with a window of text and ~200 accessible elements. */
const MAIN = [
  capture('png'),
  capture('jpeg'),
  input('input.move', ['input.move', POINT], ['computer', { action: 'mouse_move', coordinate: AT }], 'mouse_move'),
  // it sets nut-js mouse.config.autoDelayMs = 100, which click() sleeps before clicking
  input('input.click', ['input.click', POINT], ['computer', { action: 'left_click', coordinate: AT }], 'left_click, waits 100 ms/call'),
  input(
    'input.click clicks=2',
    ['input.click', { ...POINT, clicks: 2 }],
    ['computer', { action: 'double_click', coordinate: AT }],
    'double_click, waits 100 ms/call',
  ),
  // their amount is nut-js scroll steps, i.e. wheel clicks: "down:1" is one click, like ours
  input(
    'input.scroll',
    ['input.scroll', { ...POINT, dy: 1 }],
    ['computer', { action: 'scroll', coordinate: AT, text: 'down:1' }],
    'scroll down:1, waits 100 ms/call',
  ),
  input(
    'input.drag',
    ['input.drag', { path: [POINT, { x: POINT.x + 40, y: POINT.y }], stepDelayMs: 0 }],
    ['computer', { action: 'left_click_drag', coordinate: [POINT.x + 40, POINT.y] }],
    'left_click_drag, waits 2x100 ms/call',
    'action',
  ),
  input('input.key', ['input.key', { keys: 'shift' }], ['computer', { action: 'key', text: 'shift' }], 'key shift', 'action'),
  input('input.cursor', ['input.cursor', {}], ['computer', { action: 'get_cursor_position' }], 'get_cursor_position', 'action'),
  {
    id: 'desktop ui.snapshot ~200 elements stdio',
    kind: 'snapshot',
    ours: ['ui.snapshot', { maxNodes: 400 }],
    // it has no accessibility tree: a screenshot is how a model sees the same window there
    theirs: ['computer', { action: 'get_screenshot' }],
    theirsLabel: 'get_screenshot (it has no tree), waits 1 s/call',
    maxCalls: MAX_CAPTURES_PER_ROUND,
    accessibility: true,
  },
];

/** On a 2560x1600 display, where the model-sized defaults matter: both sides fit 1568 px / 1.15 MP. */
const HIDPI = [
  {
    id: 'desktop screen.capture defaults 2560x1600 stdio',
    kind: 'capture',
    format: 'png',
    size: { width: 1356, height: 848 },
    ours: ['screen.capture', {}],
    theirs: ['computer', { action: 'get_screenshot' }],
    theirsLabel: 'get_screenshot, waits 1 s/call',
    maxCalls: MAX_CAPTURES_PER_ROUND,
  },
];

const PHASES = [
  { width: WIDTH, height: HEIGHT, cases: MAIN },
  { width: 2560, height: 1600, cases: HIDPI },
];

export async function desktopScenario(context) {
  const rows = [];
  for (const phase of PHASES) rows.push(...(await runPhase(context, phase)));
  return rows;
}

async function runPhase({ ours: oursModule, timing, wanted, progress }, phase) {
  const cases = phase.cases.filter(({ id }) => wanted(id));
  if (cases.length === 0) return [];
  const missing = missingXvfb();
  if (missing) return cases.map(({ id, ours }) => ({ id, tool: ours[0], skipped: missing }));
  const wantsTree = cases.some((c) => c.accessibility);
  const noTree = wantsTree ? missingAccessibility() : undefined;

  progress(`desktop: starting Xvfb ${phase.width}x${phase.height}x24 and a window`);
  const x = await startXDisplay({ width: phase.width, height: phase.height, accessibility: wantsTree && !noTree });
  progress(`desktop: display ${x.display}, on screen: ${x.screen}`);
  const sessions = [];
  const rows = [];
  try {
    const configPath = path.join(x.home, 'bench-config.json');
    oursModule.writeStdioConfig(configPath, { desktop: { hostDisplayAccess: true, screen: true, input: true } });
    const spawnOurs = oursModule.stdioCommand(configPath);
    const ours = withTreeCpu(await startStdioClient('ours (stdio)', 'env', [...displayEnv(x), spawnOurs.command, ...spawnOurs.args], REPO));
    sessions.push(ours);
    const listed = (await ours.client.listTools()).tools.map((tool) => tool.name);
    const theirs = await startTheirs(x);
    if (theirs.session) sessions.push(theirs.session);
    if (theirs.problem) progress(`desktop: ${THEIRS} cannot run: ${theirs.problem}`);

    for (const c of cases) {
      const [tool, args] = c.ours;
      if (c.accessibility && noTree) {
        rows.push({ id: c.id, tool, skipped: noTree });
        continue;
      }
      if (!listed.includes(tool)) {
        rows.push({ id: c.id, tool, skipped: `${tool} is not in our tools/list (listed: ${listed.join(', ')}); rebuild out/ with "npm run build"` });
        continue;
      }
      const oursImage = await checkOurs(c, await firstCall(c, ours, tool, args));
      let theirsImage;
      if (theirs.session) {
        try {
          theirsImage = await checkTheirs(c, await theirs.session.call(...c.theirs));
        } catch (error) {
          theirs.problem = `its ${c.theirsLabel.split(',')[0]} failed: ${oneLine(error.message)}`;
          theirs.session = undefined;
        }
      }
      progress(c.id);
      const oursRun = sequentialRunner(ours, tool, args, c.maxCalls);
      let figures;
      if (theirs.session) {
        try {
          figures = await interleave({ ours: oursRun, baseline: tagBaseline(sequentialRunner(theirs.session, ...c.theirs, c.maxCalls)), ...timing });
        } catch (error) {
          if (!error.baselineFailed) throw error;
          theirs.problem = `it failed during the rounds: ${oneLine(error.message)}`;
          theirs.session = undefined;
        }
      }
      const base = {
        tool,
        transport: 'stdio',
        protocol: '2025-11-25 (v1 client)',
        concurrency: 1,
        screen: `${phase.width}x${phase.height}: ${x.screen}`,
        oursImage,
      };
      if (figures) {
        rows.push({
          ...base,
          id: oursImage ? `${c.id} (${describe(oursImage)})` : c.id,
          baselineName: `${theirs.name} ${c.theirsLabel}${theirsImage ? ` (${describe(theirsImage)}${sameSize(oursImage, theirsImage) ? '' : ', DIFFERENT SIZE'})` : ''}`,
          baselineImage: theirsImage,
          // captures and the tree: at least as fast as theirs; input actions: the worker hop's allowance
          goal: c.goal ?? FASTER_THAN_OFFICIAL,
          ...figures,
        });
      } else {
        const alone = await measureAlone(oursRun, timing);
        const image = oursImage ? `, ${describe(oursImage)}` : '';
        const cpu = alone.cpuMsPerCall === null ? '' : `, CPU ${ms(alone.cpuMsPerCall)} ms/call`;
        rows.push({
          ...base,
          id: c.id,
          skipped: `${theirs.name ?? `${THEIRS} ${THEIRS_VERSION}`} could not run: ${theirs.problem}. Ours alone: p50 ${ms(alone.p50Ms)} ms, p99 ${ms(alone.p99Ms)} ms${cpu}${image}`,
          ours: alone,
        });
      }
    }
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    await x.stop();
  }
  return rows;
}

/** Both servers see only the bench display, its session bus (when started) and an empty HOME (on top of the client's default environment). */
function displayEnv(x) {
  return [`DISPLAY=${x.display}`, `HOME=${x.home}`, ...(x.sessionBus ? [`DBUS_SESSION_BUS_ADDRESS=${x.sessionBus}`] : [])];
}

/**
 * The first call of a row, checked before any timing. Chromium builds its accessibility tree a
 * moment after the page shows: the snapshot row waits (up to 30 s) until the tree is there.
 */
async function firstCall(c, ours, tool, args) {
  if (c.kind !== 'snapshot') return ours.call(tool, args);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const result = await ours.call(tool, args);
    if ((result.structuredContent?.nodeCount ?? 0) >= 150 || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** CPU of the server and everything it forked (our screen and input work runs in a worker process). */
function withTreeCpu(session) {
  const pid = session.client.transport?.pid;
  return { ...session, cpuMs: () => (pid ? treeCpuMs(pid) : null) };
}

/** computer-use-mcp from node_modules, or why it cannot run (never thrown: the scenario goes on without it). */
async function startTheirs(x) {
  let version;
  try {
    version = JSON.parse(fs.readFileSync(path.join(THEIRS_DIR, 'package.json'), 'utf8')).version;
  } catch {
    return { problem: `it is not installed (npm install --save-dev ${THEIRS}@${THEIRS_VERSION})` };
  }
  const name = version === THEIRS_VERSION ? `${THEIRS} ${version}` : `${THEIRS} ${version} (expected ${THEIRS_VERSION})`;
  let session;
  try {
    const main = path.join(THEIRS_DIR, 'dist', 'main.js');
    session = withTreeCpu(await startStdioClient(THEIRS, 'env', [...displayEnv(x), process.execPath, main], REPO));
    const tools = (await session.client.listTools()).tools.map((tool) => tool.name);
    if (!tools.includes('computer')) throw new Error(`it has no "computer" tool (listed: ${tools.join(', ')})`);
    return { name, session };
  } catch (error) {
    await session?.close().catch(() => {});
    return { name, problem: session ? oneLine(error.message) : `it did not start over stdio: ${oneLine(error.message)}` };
  }
}

/** Our result must be what was asked: the point reached, or an image of the requested format and size. */
async function checkOurs(c, result) {
  const s = result.structuredContent ?? {};
  if (c.kind === 'input') {
    if (s.x !== POINT.x || s.y !== POINT.y) throw new Error(`ours ${c.ours[0]}: expected the pointer at ${POINT.x},${POINT.y}, got ${JSON.stringify(s)}`);
    return undefined;
  }
  if (c.kind === 'action') return undefined; // ours.call already threw on a tool error
  if (c.kind === 'snapshot') {
    if (!(s.nodeCount >= 150 && s.nodeCount <= 400)) {
      throw new Error(
        `ours ui.snapshot: expected 150-400 elements of the bench window, got ${s.nodeCount} (${JSON.stringify(s.windows)}; hint: ${s.hint ?? 'none'})`,
      );
    }
    return undefined;
  }
  const { width, height } = c.size;
  const image = await imageOf(`ours ${c.ours[0]}`, result);
  if (image.format !== c.format || image.width !== width || image.height !== height || s.width !== width || s.height !== height || s.bytes !== image.bytes) {
    throw new Error(`ours ${c.ours[0]} ${c.format}: expected a ${width}x${height} ${c.format}, got ${JSON.stringify({ image, structured: s })}`);
  }
  return image;
}

/** Their reply carries no structured result for a screenshot; the image is decoded to learn its size. */
async function checkTheirs(c, result) {
  if (c.kind === 'input' || c.kind === 'action') {
    const s = result.structuredContent ?? {};
    if (s.ok !== true && typeof s.x !== 'number') throw new Error(`expected {ok: true} or a position, got ${JSON.stringify(result.content).slice(0, 200)}`);
    return undefined;
  }
  return imageOf(THEIRS, result);
}

async function imageOf(label, result) {
  const block = result.content?.find((item) => item.type === 'image');
  if (!block) throw new Error(`${label}: no image in the result`);
  const data = Buffer.from(block.data, 'base64');
  // loaded here, not at the top: libvips stays out of the bench process unless this scenario runs
  const { default: sharp } = await import('sharp');
  const image = sharp(data);
  const [meta, stats] = await Promise.all([image.metadata(), image.stats()]);
  return {
    format: meta.format,
    mimeType: block.mimeType,
    width: meta.width,
    height: meta.height,
    bytes: data.length,
    // a palette PNG holds at most 256 colours: smaller, but lossy (computer-use-mcp quantizes)
    palette: meta.isPalette === true,
    blank: stats.channels.every((ch) => ch.stdev === 0),
  };
}

function describe(image) {
  const blank = image.blank ? ', BLANK SCREEN' : ''; // no window came up: a flat frame is cheaper than a real one
  return `${image.format}${image.palette ? ' palette' : ''} ${image.width}x${image.height}, ${Math.round(image.bytes / 1024)} KB${blank}`;
}

function sameSize(a, b) {
  return !a || !b || (a.width === b.width && a.height === b.height);
}

/** Marks the baseline's own failures, so the scenario can go on without it instead of aborting the bench. */
function tagBaseline(run) {
  return async (durationMs) => {
    try {
      return await run(durationMs);
    } catch (error) {
      throw Object.assign(new Error(error.message), { baselineFailed: true });
    }
  };
}

/** Our side alone, in the same rounds interleave() would run, when there is no baseline to alternate with. */
async function measureAlone(run, { pairs, roundMs, warmupMs }) {
  await run(warmupMs);
  const rounds = [];
  const latencies = [];
  for (let i = 0; i < pairs; i++) {
    const round = await run(roundMs);
    rounds.push(summarizeRound(round.latencies, round.elapsedMs, round.cpuMs));
    latencies.push(...round.latencies);
  }
  return pool(rounds, latencies);
}

function ms(x) {
  return x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function oneLine(text) {
  return text
    .trim()
    .replace(/\s*\n\s*/g, ' | ')
    .slice(0, 400);
}
