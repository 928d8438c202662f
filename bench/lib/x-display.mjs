/**
 * A throwaway X display for the desktop scenario: Xvfb on a display number it picks itself
 * (-displayfd, as test/adapter/desktop does, so parallel runs never collide) and one window on it so a
 * capture is not a blank frame: a headful Chromium showing a page of text, or xmessage (x11-utils)
 * when Chromium is missing or does not come up. Every process started here runs in its own
 * process group and is killed by stop(), or by an exit/signal hook if the bench dies first.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CHROMIUM = '/usr/bin/chromium';
const TITLE = 'ChatGPT Computer MCP bench page';
const WINDOW_TIMEOUT_MS = 30_000;
/** After the window is mapped, time for the first paint. */
const PAINT_SETTLE_MS = 1500;

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Why the scenario cannot run here, or undefined when it can. */
export function missingXvfb() {
  if (process.platform !== 'linux') return 'the desktop scenario needs Linux (Xvfb)';
  if (!onPath('Xvfb')) return 'Xvfb is not installed (apt-get install xvfb)';
  return undefined;
}

/** Whether the accessibility rows can run: a D-Bus daemon and the AT-SPI bus launcher. */
export function missingAccessibility() {
  if (!onPath('dbus-daemon')) return 'dbus-daemon is not installed (apt-get install dbus)';
  if (!fs.existsSync('/usr/libexec/at-spi-bus-launcher')) return 'at-spi2-core is not installed (apt-get install at-spi2-core)';
  if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} is not installed (the accessibility rows read its tree)`;
  return undefined;
}

/**
 * Starts Xvfb (width x height x 24) and a window. Returns {display, home, screen, sessionBus,
 * stop}: `home` is an empty temp dir to use as HOME for anything started on the display;
 * `screen` says what is on it. With `accessibility`, a private session bus is started first
 * (the AT-SPI launcher and registry are activated on it) and Chromium exposes its tree there;
 * `sessionBus` is its address (undefined otherwise).
 */
export async function startXDisplay({ width, height, accessibility = false }) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-x-'));
  const children = [];
  const killAll = () => {
    for (const child of children) killGroup(child, 'SIGKILL');
  };
  const onSignal = (signal) => {
    killAll();
    fs.rmSync(home, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  process.once('exit', killAll);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const stop = async () => {
    for (const child of children.reverse()) await stopGroup(child);
    process.off('exit', killAll);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    fs.rmSync(home, { recursive: true, force: true });
  };

  try {
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'], {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    track(xvfb, children);
    const display = `:${await displayNumber(xvfb)}`;
    const env = { ...process.env, DISPLAY: display, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') };
    const sessionBus = accessibility ? await startSessionBus(env, home, children) : undefined;
    if (sessionBus) Object.assign(env, { DBUS_SESSION_BUS_ADDRESS: sessionBus, ACCESSIBILITY_ENABLED: '1' });
    const screen = await startWindow(env, home, width, height, children, Boolean(sessionBus));
    return { display, home, screen, sessionBus, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function displayNumber(xvfb) {
  let stderr = '';
  xvfb.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not report a display within 10 s: ${stderr.slice(-500)}`)), 10_000);
    xvfb.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.trim());
      }
    });
    xvfb.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb could not start: ${error.message}`));
    });
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${stderr.slice(-500)}`));
    });
  });
}

/** dbus-daemon in the foreground (so it is a tracked child in its own group); resolves with its address. */
function startSessionBus(env, home, children) {
  const runtime = path.join(home, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...env, XDG_RUNTIME_DIR: runtime },
  });
  track(daemon, children);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('dbus-daemon did not print its address within 10 s')), 10_000);
    daemon.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.trim());
      }
    });
    daemon.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dbus-daemon exited (${code})`));
    });
  });
}

/** Chromium with the page, else xmessage; returns a description of what is on the screen. */
async function startWindow(env, home, width, height, children, accessibility = false) {
  let chromiumProblem = `${CHROMIUM} is not installed`;
  if (fs.existsSync(CHROMIUM)) {
    const args = chromiumArgs(home, width, height);
    if (accessibility) args.unshift('--force-renderer-accessibility');
    const chromium = spawn(CHROMIUM, args, { detached: true, stdio: 'ignore', env });
    track(chromium, children);
    chromiumProblem = await waitForWindow(env, TITLE, chromium);
    if (!chromiumProblem) return `Chromium showing a page of text, coloured panels and ${CONTROLS} controls${accessibility ? ' (accessibility on)' : ''}`;
    await stopGroup(chromium);
  }
  if (!onPath('xmessage')) return `blank screen (${chromiumProblem}; xmessage (x11-utils) is not installed either)`;
  const text = Array.from({ length: 30 }, (_, i) => `${i + 1}. ${TITLE}: the quick brown fox jumps over the lazy dog.`).join('\n');
  const xmessage = spawn('xmessage', ['-geometry', `${width - 100}x${height - 100}+20+20`, '-title', TITLE, text], { detached: true, stdio: 'ignore', env });
  track(xmessage, children);
  const problem = await waitForWindow(env, TITLE, xmessage);
  return problem ? `blank screen (${chromiumProblem}; xmessage: ${problem})` : `an xmessage window of text (${chromiumProblem})`;
}

function chromiumArgs(home, width, height) {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-default-apps',
    '--disable-domain-reliability',
    '--disable-client-side-phishing-detection',
    '--disable-breakpad',
    '--disable-features=Translate,MediaRouter,OptimizationHints',
    '--password-store=basic',
    `--user-data-dir=${path.join(home, 'chromium')}`,
    '--window-position=0,0',
    `--window-size=${width},${height}`,
    `data:text/html;charset=utf-8,${encodeURIComponent(pageHtml())}`,
  ];
}

/** Buttons, fields and links on the page: with their labels about 200 accessible elements, a busy form. */
const CONTROLS = 60;

/**
 * Something like a real screen: text in two fonts, colour panels, a table and a grid of controls.
 * Not selectable, and the controls are below the point the input rows click, so repeated clicks change nothing.
 */
function pageHtml() {
  const controls = Array.from({ length: CONTROLS }, (_, i) =>
    i % 3 === 0 ? `<button>Action ${i}</button>` : i % 3 === 1 ? `<label>Field ${i} <input value="v${i}"></label>` : `<a href="#l${i}">Link ${i}</a>`,
  ).join(' ');
  const paragraph =
    'Screenshots of real desktops are mostly text and flat colour. This page gives the encoder the same kind of work: ' +
    'anti-aliased glyphs at several sizes, a few coloured panels and lines, and plenty of empty background between them. ';
  const rows = Array.from(
    { length: 8 },
    (_, i) => `<tr><td>row ${i + 1}</td><td>${(i * 37) % 101} ms</td><td>${(i * 7919) % 10007} bytes</td><td>ok</td></tr>`,
  ).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${TITLE}</title><style>
    body { margin: 0; font: 15px sans-serif; color: #222; background: #fafafa; user-select: none; }
    header { background: #2b5797; color: #fff; padding: 12px 24px; font-size: 22px; }
    nav { position: absolute; left: 0; top: 54px; bottom: 0; width: 220px; background: #e8eef7; padding: 16px; line-height: 2; }
    main { margin-left: 260px; padding: 16px 24px; }
    .panel { display: inline-block; width: 150px; height: 60px; margin: 6px; border-radius: 6px; color: #fff; padding: 8px; }
    table { border-collapse: collapse; margin-top: 12px; } td { border: 1px solid #bbb; padding: 4px 12px; font-family: monospace; }
  </style></head><body>
    <header>${TITLE}</header>
    <nav>${['Overview', 'Screen', 'Input', 'Files', 'Shell', 'Processes', 'Settings'].map((s) => `<div>${s}</div>`).join('')}</nav>
    <main>
      <h2>Desktop benchmark</h2><p>${paragraph.repeat(3)}</p>
      <div><span class="panel" style="background:#c0392b">red</span><span class="panel" style="background:#27ae60">green</span><span class="panel" style="background:#8e44ad">violet</span><span class="panel" style="background:#f39c12">amber</span></div>
      <p style="font: 13px serif">${paragraph.repeat(2)}</p>
      <table>${rows}</table>
      <div style="position:absolute; left:260px; top:600px; right:0; font-size:12px; line-height:1.9">${controls}</div>
    </main></body></html>`;
}

/** Polls the window tree for `title`; returns undefined once it is shown, else why not. */
async function waitForWindow(env, title, child) {
  if (!onPath('xwininfo')) {
    await sleep(5000); // x11-utils missing: give the window a fixed time instead
    return child.exitCode === null ? undefined : `exited with code ${child.exitCode}`;
  }
  const deadline = Date.now() + WINDOW_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.spawnError) return `could not start: ${child.spawnError.message}`;
    if (child.exitCode !== null || child.signalCode !== null) return `exited (${child.exitCode ?? child.signalCode}) before showing a window`;
    const tree = spawnSync('xwininfo', ['-root', '-tree'], { env, encoding: 'utf8', timeout: 5000 });
    if (tree.stdout?.includes(title)) {
      await sleep(PAINT_SETTLE_MS);
      return undefined;
    }
    await sleep(250);
  }
  return `no window within ${WINDOW_TIMEOUT_MS / 1000} s`;
}

/** Remembered for stop(); a failed spawn is kept as a reason instead of an unhandled 'error'. */
function track(child, children) {
  child.once('error', (error) => (child.spawnError = error));
  children.push(child);
}

/** A signal to the child's whole process group (Chromium's zygote and renderers too); it may be gone already. */
function killGroup(child, signal) {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is empty
  }
}

/** SIGTERM to the group, SIGKILL after 3 s; resolved once the leader has exited, its stragglers killed. */
function stopGroup(child) {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) {
    killGroup(child, 'SIGKILL');
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      killGroup(child, 'SIGKILL');
      resolve();
    });
    killGroup(child, 'SIGTERM');
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
