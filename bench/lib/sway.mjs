/**
 * A throwaway sway (headless, pixman rendering) for the Wayland capture scenario, with a foot
 * window so a capture is not a flat frame. sway refuses root: as root it runs as the tests'
 * unprivileged user (test/adapter/desktop/fixtures/sway.ts creates the same one), through
 * runuser, and so must every program of its session.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const USER = 'chatgpt-mcp-wl';
const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

export function missingSway() {
  if (process.platform !== 'linux') return 'the Wayland scenario needs Linux (sway)';
  for (const program of ['sway', 'grim', 'foot']) if (!onPath(program)) return `${program} is not installed (apt-get install sway grim foot)`;
  if (process.getuid() === 0 && spawnSync('id', ['-u', USER]).status !== 0 && spawnSync('useradd', ['--system', '--no-create-home', USER]).status !== 0) {
    return `sway refuses root and the user ${USER} could not be created`;
  }
  return undefined;
}

export async function startSway({ width, height }) {
  const root = process.getuid() === 0;
  const id = (flag) => Number(spawnSync('id', [flag, USER], { encoding: 'utf8' }).stdout.trim());
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-sway-'));
  const runtime = path.join(home, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const config = path.join(home, 'sway.conf');
  fs.writeFileSync(config, `output HEADLESS-1 resolution ${width}x${height} position 0 0 bg #204060 solid_color\ndefault_border none\n`);
  fs.chmodSync(home, 0o755);
  if (root) for (const p of [home, runtime, config]) fs.chownSync(p, id('-u'), id('-g'));
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, XDG_RUNTIME_DIR: runtime, LANG: 'C.UTF-8' };
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => fs.existsSync(p));
  const as = (command, args) => (root ? { command: runuser, args: ['-m', '-u', USER, '--', command, ...args] } : { command, args });
  const children = [];
  const run = (command, args, extra = {}) => {
    const how = as(command, args);
    const child = spawn(how.command, how.args, { env: { ...env, ...extra }, stdio: 'ignore', detached: true });
    children.push(child);
    return child;
  };
  run('sway', ['-c', config], { WLR_BACKENDS: 'headless', WLR_RENDERER: 'pixman', WLR_LIBINPUT_NO_DEVICES: '1' });
  let display;
  for (let i = 0; i < 100 && !display; i++) {
    display = fs.readdirSync(runtime).find((name) => /^wayland-\d+$/.test(name));
    if (!display) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    for (const child of children.reverse()) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.rmSync(home, { recursive: true, force: true });
  };
  if (!display) {
    await stop();
    throw new Error('sway did not start');
  }
  Object.assign(env, { WAYLAND_DISPLAY: display, XDG_CURRENT_DESKTOP: 'sway' });
  run('foot', ['sh', '-c', 'ls -la /usr/bin | head -60; sleep 1000']);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return { env, home, socket: path.join(runtime, display), as, uid: root ? id('-u') : process.getuid(), gid: root ? id('-g') : process.getgid(), stop };
}
