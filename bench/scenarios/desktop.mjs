/**
 * Scenario 3: the desktop tools on a real X display (Xvfb 1280x800x24 with a window, started
 * here), over stdio: our screen.capture (PNG and JPEG), input.move and input.click against the
 * same actions of computer-use-mcp (one `computer` tool: get_screenshot, mouse_move,
 * left_click), both servers spawned and driven by the v1 client. The server's CPU includes the
 * processes it forked (our desktop worker). Without Xvfb every row is skipped with the reason;
 * when computer-use-mcp cannot run, the reason is printed with our own figures measured alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FASTER_THAN_OFFICIAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { pool, summarizeRound } from '../lib/stats.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { treeCpuMs } from '../lib/tree-cpu.mjs';
import { missingXvfb, startXDisplay } from '../lib/x-display.mjs';

const repoPath = new URL('../../', import.meta.url).pathname;
const WIDTH = 1280;
const HEIGHT = 800;
const THEIRS = 'computer-use-mcp';
const THEIRS_VERSION = '1.8.0';
const THEIRS_DIR = path.join(repoPath, 'node_modules', THEIRS);
/** Inside the page, away from the browser's own controls; the page ignores clicks. */
const POINT = { x: 700, y: 520 };
const MAX_CAPTURES_PER_ROUND = 200;
const MAX_INPUTS_PER_ROUND = 2000;

const capture = (format) => ({
  id: `desktop screen.capture ${format} stdio`,
  kind: 'capture',
  format,
  ours: ['screen.capture', { format, maxWidth: WIDTH, maxHeight: HEIGHT }],
  theirs: ['computer', { action: 'get_screenshot' }],
  // get_screenshot waits 1000 ms before it grabs (a fixed setTimeout in computer-use-mcp)
  theirsLabel: 'get_screenshot, waits 1 s/call',
  maxCalls: MAX_CAPTURES_PER_ROUND,
});

const CASES = [
  capture('png'),
  capture('jpeg'),
  {
    id: 'desktop input.move stdio',
    kind: 'input',
    ours: ['input.move', POINT],
    theirs: ['computer', { action: 'mouse_move', coordinate: [POINT.x, POINT.y] }],
    theirsLabel: 'mouse_move',
    maxCalls: MAX_INPUTS_PER_ROUND,
  },
  {
    id: 'desktop input.click stdio',
    kind: 'input',
    ours: ['input.click', POINT],
    theirs: ['computer', { action: 'left_click', coordinate: [POINT.x, POINT.y] }],
    // it sets nut-js mouse.config.autoDelayMs = 100, which click() sleeps before clicking
    theirsLabel: 'left_click, waits 100 ms/call',
    maxCalls: MAX_INPUTS_PER_ROUND,
  },
];

export async function desktopScenario({ ours: oursModule, timing, wanted, progress }) {
  const cases = CASES.filter(({ id }) => wanted(id));
  if (cases.length === 0) return [];
  const missing = missingXvfb();
  if (missing) return cases.map(({ id, ours }) => ({ id, tool: ours[0], skipped: missing }));

  progress(`desktop: starting Xvfb ${WIDTH}x${HEIGHT}x24 and a window`);
  const x = await startXDisplay({ width: WIDTH, height: HEIGHT });
  progress(`desktop: display ${x.display}, on screen: ${x.screen}`);
  const sessions = [];
  const rows = [];
  try {
    const configPath = path.join(x.home, 'bench-config.json');
    fs.writeFileSync(configPath, JSON.stringify({ desktop: { hostDisplayAccess: true, screen: true, input: true }, server: { logLevel: 'silent' } }));
    const spawnOurs = oursModule.stdioCommand(configPath);
    const ours = withTreeCpu(await startStdioClient('ours (stdio)', 'env', [...displayEnv(x), spawnOurs.command, ...spawnOurs.args], repoPath));
    sessions.push(ours);
    const listed = (await ours.client.listTools()).tools.map((tool) => tool.name);
    const theirs = await startTheirs(x);
    if (theirs.session) sessions.push(theirs.session);
    if (theirs.problem) progress(`desktop: ${THEIRS} cannot run: ${theirs.problem}`);

    for (const c of cases) {
      const [tool, args] = c.ours;
      if (!listed.includes(tool)) {
        rows.push({ id: c.id, tool, skipped: `${tool} is not in our tools/list (listed: ${listed.join(', ')}); rebuild out/ with "npm run build"` });
        continue;
      }
      const oursImage = await checkOurs(c, await ours.call(tool, args));
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
      const base = { tool, transport: 'stdio', protocol: '2025-11-25 (v1 client)', concurrency: 1, screen: x.screen, oursImage };
      if (figures) {
        rows.push({
          ...base,
          id: oursImage ? `${c.id} (${describe(oursImage)})` : c.id,
          baselineName: `${theirs.name} ${c.theirsLabel}${theirsImage ? ` (${describe(theirsImage)}${sameSize(oursImage, theirsImage) ? '' : ', DIFFERENT SIZE'})` : ''}`,
          baselineImage: theirsImage,
          goal: FASTER_THAN_OFFICIAL,
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

/** Both servers see only the bench display and an empty HOME (on top of the client's default environment). */
function displayEnv(x) {
  return [`DISPLAY=${x.display}`, `HOME=${x.home}`];
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
    session = withTreeCpu(await startStdioClient(THEIRS, 'env', [...displayEnv(x), process.execPath, main], repoPath));
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
  const image = await imageOf(`ours ${c.ours[0]}`, result);
  if (image.format !== c.format || image.width !== WIDTH || image.height !== HEIGHT || s.width !== WIDTH || s.height !== HEIGHT || s.bytes !== image.bytes) {
    throw new Error(`ours ${c.ours[0]} ${c.format}: expected a ${WIDTH}x${HEIGHT} ${c.format}, got ${JSON.stringify({ image, structured: s })}`);
  }
  return image;
}

/** Their reply carries no structured result for a screenshot; the image is decoded to learn its size. */
async function checkTheirs(c, result) {
  if (c.kind === 'input') {
    if (result.structuredContent?.ok !== true) throw new Error(`expected {ok: true}, got ${JSON.stringify(result.content).slice(0, 200)}`);
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
