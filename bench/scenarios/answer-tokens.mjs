/**
 * Scenario 6: what the model pays. Tokens per answer for the same tasks, counted as ChatGPT's
 * model reads an answer (the text blocks and structuredContent both, o200k_base; images by
 * OpenAI's tile rule), ours against the official filesystem server, DesktopCommander (when it
 * is installed: BENCH_DESKTOP_COMMANDER names its folder; reads and listings only: its searches
 * run in sessions read back in pages, not measured here) and computer-use-mcp (a screenshot,
 * under Xvfb). Ours is asked as ChatGPT asks (clientInfo "openai-mcp"). For each task: the first
 * answer, and what the whole costs in pages (ours follows its own continuation instructions).
 *
 * With BENCH_MAIN_OUT (the out/ folder of a main-branch build), the same tasks also run on that
 * build: time to the first answer of a fresh server and CPU per call, this build against it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { AS_FAST_AS_OFFICIAL, NO_GOAL } from '../lib/goals.mjs';
import { median, round1, round3 } from '../lib/stats.mjs';
import { startStdioClient } from '../lib/stdio-client.mjs';
import { missingXvfb, startXDisplay } from '../lib/x-display.mjs';
import { officialFs, REPO } from '../lib/peers.mjs';

const CHATGPT = 'openai-mcp';
const FILE_BYTES = 300 * 1024;
const ENTRIES = 2000;
/** Ours should cost at most what the best peer does, on every task a peer completes. */
const AT_MOST_BEST_PEER = Object.freeze({ atMost: 1, text: '<= 1x best peer' });
const LAUNCHES = 4;
const WARM_CALLS = 7;

const imageTokens = async () => (await import(new URL('../../out/main/mcp/answer/image-tokens.js', import.meta.url).href)).imageBlockTokens;

/** What ChatGPT's model reads of a result: every text block, structuredContent as JSON, images by their tiles. */
async function tokensOf(result) {
  const image = await imageTokens();
  let total = result.structuredContent ? count(JSON.stringify(result.structuredContent)) : 0;
  for (const block of result.content ?? [])
    total += block.type === 'text' ? count(block.text) : block.type === 'image' ? image(block.data) : count(JSON.stringify(block));
  return total;
}
const count = (text) => countTokens(text, { disallowedSpecial: new Set() });

function tasks(dir) {
  const file = path.join(dir, 'big.ts');
  const folder = path.join(dir, 'many');
  return [
    {
      id: 'tokens fs.read 300 KB file',
      ours: ['fs.read', { path: file }],
      official: ['read_text_file', { path: file }],
      commander: ['read_file', { path: file, length: 1_000_000 }],
    },
    {
      id: `tokens fs.list ${ENTRIES} entries`,
      ours: ['fs.list', { path: folder }],
      official: ['list_directory', { path: folder }],
      commander: ['list_directory', { path: folder, depth: 1 }],
      next: (result) => result.structuredContent?.nextOffset,
      page: (offset) => ['fs.list', { path: folder, offset }],
    },
    {
      id: 'tokens fs.find *.ts in this repository',
      ours: ['fs.find', { path: REPO, pattern: '*.ts', maxResults: 10_000 }],
      official: ['search_files', { path: REPO, pattern: '**/*.ts', excludePatterns: ['**/node_modules/**', '**/.git/**', 'out/**', 'dist/**'] }],
    },
    {
      id: 'tokens fs.search "export function" in this repository',
      ours: ['fs.search', { path: REPO, pattern: 'export function', maxMatches: 1000 }],
    },
  ];
}

export async function answerTokensScenario({ ours: oursModule, wanted, progress }) {
  const wantedTasks = (dir) => tasks(dir).filter((t) => wanted(t.id));
  const rows = [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-tokens-')));
  try {
    if (wantedTasks(dir).length) rows.push(...(await fileTasks(oursModule, dir, wantedTasks(dir), progress)));
    if (wanted('tokens screen.capture')) rows.push(...(await screenshotTask(oursModule, progress)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function fileTasks(oursModule, dir, list, progress) {
  writeFixtures(dir);
  const configPath = oursModule.writeStdioConfig(path.join(dir, 'bench-config.json'), { filesystem: { read: true, roots: [dir, REPO] } });
  const spawnOurs = oursModule.stdioCommand(configPath);
  const [official, officialArgs] = officialFs(dir);
  const sides = {
    ours: await startStdioClient('ours', spawnOurs.command, spawnOurs.args, REPO, {}, {}, undefined, CHATGPT),
    official: await startStdioClient('server-filesystem', official, [...officialArgs, REPO], REPO),
  };
  const commander = await startCommander(dir, progress);
  if (commander) sides.commander = commander;
  const rows = [];
  try {
    for (const task of list) {
      progress(task.id);
      const ours = await oursWhole(sides.ours, task);
      const peers = {};
      for (const peer of ['official', 'commander']) {
        if (!task[peer] || !sides[peer]) continue;
        const result = await sides[peer].client.callTool({ name: task[peer][0], arguments: task[peer][1] }).catch((error) => ({ isError: true, error }));
        peers[peer] = result.isError
          ? { failed: oneLine(result.error?.message ?? JSON.stringify(result.content).slice(0, 200)) }
          : { tokens: await tokensOf(result) };
      }
      rows.push(tokenRow(task.id, ours, peers, commander ? undefined : 'DesktopCommander: not installed (BENCH_DESKTOP_COMMANDER)'));
    }
    const mainOut = process.env.BENCH_MAIN_OUT;
    if (mainOut) rows.push(...(await againstMain(oursModule, configPath, mainOut, list, progress)));
  } finally {
    for (const side of Object.values(sides)) await side.close().catch(() => {});
  }
  return rows;
}

function writeFixtures(dir) {
  const line = (i) => `export function handler${i}(request: Request): Response { return respond(request, ${i}, 'item-${i}'); }\n`;
  let text = '';
  for (let i = 0; text.length < FILE_BYTES; i++) text += line(i);
  fs.writeFileSync(path.join(dir, 'big.ts'), text.slice(0, FILE_BYTES));
  fs.mkdirSync(path.join(dir, 'many'));
  for (let i = 0; i < ENTRIES; i++) fs.writeFileSync(path.join(dir, 'many', `module-${String(i).padStart(4, '0')}.ts`), 'export {};\n');
}

/** The first answer, and the whole in pages: every answer.more page of every cut, and the tool's own next pages. */
async function oursWhole(session, task) {
  let [name, args] = task.ours;
  let first;
  let total = 0;
  let answers = 0;
  for (;;) {
    const result = await session.call(name, args);
    const tokens = await tokensOf(result);
    first ??= tokens;
    total += tokens;
    answers++;
    for (const text of cutTexts(result)) ({ total, answers } = await readRest(session, text, total, answers));
    const next = task.next?.(result);
    if (next === undefined) break;
    [name, args] = task.page(next);
  }
  return { tokens: first, whole: total, answers };
}

function cutTexts(result) {
  return (result.content ?? []).filter((c) => c.type === 'text' && /"id":"ans_[\w-]{24}"/.test(c.text)).map((c) => c.text);
}

async function readRest(session, text, total, answers) {
  const id = /"id":"(ans_[\w-]{24})"/.exec(text)[1];
  let offset;
  for (;;) {
    const page = await session.call('answer.more', { id, ...(offset === undefined ? {} : { offset }) });
    total += await tokensOf(page);
    answers++;
    if (page.structuredContent.done) return { total, answers };
    offset = page.structuredContent.nextOffset;
  }
}

function tokenRow(id, ours, peers, note) {
  const completed = Object.entries(peers).filter(([, p]) => p.tokens !== undefined);
  const best = completed.sort(([, a], [, b]) => a.tokens - b.tokens)[0];
  const names = { official: 'server-filesystem', commander: 'DesktopCommander' };
  const peerText = Object.entries(peers)
    .map(([peer, p]) => `${names[peer]} ${p.tokens !== undefined ? `${p.tokens} tokens` : `failed: ${p.failed}`}`)
    .join('; ');
  return {
    id,
    baselineName: best ? `${names[best[0]]} (best peer)` : 'no peer can do it',
    kind: 'tokens',
    judgedOn: 'tokens',
    goal: best ? AT_MOST_BEST_PEER : NO_GOAL,
    ours,
    baseline: Object.fromEntries(Object.entries(peers)),
    ratio: { tokens: best ? round3(ours.tokens / best[1].tokens) : 1, whole: best ? round3(ours.whole / best[1].tokens) : null },
    cells: {
      ours: `${ours.tokens} tokens`,
      baseline: best ? `${best[1].tokens} tokens` : '-',
      detail: `whole: ${ours.whole} tokens in ${ours.answers} answer${ours.answers === 1 ? '' : 's'}${best ? ` (${(ours.whole / best[1].tokens).toFixed(2)}x)` : ''}`,
      oursSide: 'as ChatGPT reads it (text + structuredContent)',
      baselineSide: [peerText, note].filter(Boolean).join('; '),
    },
  };
}

const oneLine = (text) => String(text).replace(/\s+/g, ' ').slice(0, 160);

/** DesktopCommander from BENCH_DESKTOP_COMMANDER (a folder holding node_modules/@wonderwhy-er/desktop-commander), if it starts. */
async function startCommander(dir, progress) {
  const where = process.env.BENCH_DESKTOP_COMMANDER;
  if (!where) return undefined;
  const main = path.join(where, 'node_modules/@wonderwhy-er/desktop-commander/dist/index.js');
  const home = path.join(dir, 'commander-home');
  fs.mkdirSync(home);
  try {
    return await startStdioClient('DesktopCommander', process.execPath, [main], REPO, { HOME: home });
  } catch (error) {
    progress(`DesktopCommander did not start: ${oneLine(error.message)}`);
    return undefined;
  }
}

/** A screenshot of a 1280x800 display: ours at its defaults against computer-use-mcp's get_screenshot. */
async function screenshotTask(oursModule, progress) {
  const id = 'tokens screen.capture 1280x800';
  const missing = missingXvfb();
  if (missing) return [{ id, skipped: missing }];
  progress(id);
  const x = await startXDisplay({ width: 1280, height: 800 });
  const env = [`DISPLAY=${x.display}`, `HOME=${x.home}`];
  const sessions = [];
  try {
    const configPath = oursModule.writeStdioConfig(path.join(x.home, 'bench-config.json'), { desktop: { hostDisplayAccess: true, screen: true } });
    const spawnOurs = oursModule.stdioCommand(configPath);
    const ours = await startStdioClient('ours', 'env', [...env, spawnOurs.command, ...spawnOurs.args], REPO, {}, {}, undefined, CHATGPT);
    sessions.push(ours);
    const theirs = await startStdioClient(
      'computer-use-mcp',
      'env',
      [...env, process.execPath, path.join(REPO, 'node_modules/computer-use-mcp/dist/main.js')],
      REPO,
    );
    sessions.push(theirs);
    const mine = await ours.call('screen.capture', {});
    const small = await ours.call('screen.capture', { maxWidth: 512, maxHeight: 512 });
    const their = await theirs.call('computer', { action: 'get_screenshot' });
    const row = tokenRow(id, { tokens: await tokensOf(mine), whole: await tokensOf(mine), answers: 1 }, { computerUse: { tokens: await tokensOf(their) } });
    row.baselineName = 'computer-use-mcp get_screenshot';
    row.cells.baselineSide = `computer-use-mcp ${row.baseline.computerUse.tokens} tokens`;
    row.cells.detail = `maxWidth/maxHeight 512: ${await tokensOf(small)} tokens`;
    return [row];
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    await x.stop();
  }
}

/** Fresh servers of this build and of main's, alternated: the first answer's time and CPU, then CPU per warm call. */
async function againstMain(oursModule, configPath, mainOut, list, progress) {
  const builds = {
    ours: oursModule.stdioCommand(configPath),
    main: { command: process.execPath, args: [path.join(mainOut, 'main/cli.js'), 'serve', '--stdio', '--config', configPath] },
  };
  const rows = [];
  for (const task of list) {
    const id = `${task.id.replace(/^tokens/, 'tokens time')} vs main`;
    progress(id);
    const figures = { ours: [], main: [] };
    for (let i = 0; i < LAUNCHES; i++) {
      for (const side of i % 2 ? ['main', 'ours'] : ['ours', 'main']) {
        const { command, args } = builds[side];
        const session = await startStdioClient(side, command, args, REPO, {}, {}, undefined, CHATGPT);
        try {
          const cpu0 = session.cpuMs();
          const t0 = performance.now();
          await session.call(...task.ours);
          const first = { ms: performance.now() - t0, cpu: session.cpuMs() - cpu0 };
          // Per call, the median: the encoding's one-time load (ours, after the first cut answer) lands in one of them.
          const warm = [];
          for (let n = 0; n < WARM_CALLS; n++) {
            const before = session.cpuMs();
            await session.call(...task.ours);
            warm.push(session.cpuMs() - before);
          }
          figures[side].push({ ...first, warmCpu: median(warm), warmMax: Math.max(...warm) });
        } finally {
          await session.close();
        }
      }
    }
    const pick = (side, key) => round1(median(figures[side].map((f) => f[key])));
    const ratio = {
      cpu: round3(pick('ours', 'cpu') / pick('main', 'cpu')),
      time: round3(pick('ours', 'ms') / pick('main', 'ms')),
      warm: round3(pick('ours', 'warmCpu') / pick('main', 'warmCpu')),
    };
    rows.push({
      id,
      baselineName: `main (${mainOut})`,
      kind: 'first-answer',
      judgedOn: 'cpu',
      goal: AS_FAST_AS_OFFICIAL,
      ours: figures.ours,
      baseline: figures.main,
      ratio,
      cells: {
        ours: `${pick('ours', 'ms')} ms, CPU ${pick('ours', 'cpu')} ms`,
        baseline: `${pick('main', 'ms')} ms, CPU ${pick('main', 'cpu')} ms`,
        detail: `first answer time ${ratio.time.toFixed(2)}x; warm CPU/call ${pick('ours', 'warmCpu')} vs ${pick('main', 'warmCpu')} ms (${ratio.warm.toFixed(2)}x); slowest warm call ${pick('ours', 'warmMax')} vs ${pick('main', 'warmMax')} ms`,
        oursSide: `median of ${LAUNCHES} fresh servers`,
        baselineSide: 'the same config on main’s build',
      },
    });
  }
  return rows;
}
