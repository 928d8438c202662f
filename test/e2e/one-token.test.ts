/**
 * The first hour's token, as a new user meets it on a fresh clone without a display: `npm
 * start` serves headless and creates the token; `token` alone, `config init`, a restart and
 * the tray's view all keep that one token; only `token rotate` changes it; a 401 says how to
 * get it, naming the CLI the way the owner runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config/load.js';
import { TokenPanel } from '../../main/tray/token-panel.js';
import { modernRequest, postModern } from '../helpers/raw-rpc.js';
import { CLI, childEnv, REPO_ROOT, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const LAUNCHER = path.join(REPO_ROOT, 'build', 'start-app.mjs');
/** How hints name the CLI from the repository folder, where `npm start` runs. */
const NAME = 'node out/main/cli.js';

let home: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];
beforeEach(() => {
  home = makeTempDir('one-token-');
  fs.mkdirSync(path.join(home, 'projects'));
  env = { ...childEnv(home), DISPLAY: undefined, WAYLAND_DISPLAY: undefined, CHATGPT_MCP_LOG_LEVEL: 'info' };
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  removeDir(home);
});

/** `npm start` as the launcher runs it: headless here, in the repository folder. */
function npmStart(): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [LAUNCHER, '--port', '0'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no server: ${stderr}`)), 90_000);
    child.stderr!.on('data', () => {
      const match = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, stderr: () => stderr });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function post(url: string, token: string | null): Promise<Response> {
  return postModern(url, modernRequest(1, 'tools/list'), token ? { authorization: `Bearer ${token}` } : {});
}

/** The CLI from the repository folder, as the owner types it there. */
const cli = (args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.relative(REPO_ROOT, CLI), ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

describe('one token, from npm start on', () => {
  it('stays the same through token, config init, a restart and the tray’s view; a 401 says how to get it', async () => {
    const started = await npmStart();
    const tokenFile = path.join(home, '.config', 'chatgpt-mcp', 'token');
    expect(started.stderr()).toContain(`"show":"\\"${NAME} token show\\""`);
    const token = (await cli(['token', 'show'])).stdout.trim();
    expect(token).toBe(fs.readFileSync(tokenFile, 'utf8').trim());

    const refused = await post(started.url, null);
    expect(refused.status).toBe(401);
    const message = ((await refused.json()) as { error: { message: string } }).error.message;
    expect(message).toBe(
      `Unauthorized: send "Authorization: Bearer <token>" with this server's token; get it on the computer running the server: "${NAME} token show" prints it, or Copy token in the tray app's menu.`,
    );
    expect((await post(started.url, token)).status).toBe(200);

    // `token` alone is `token show`, never a new token; `token new` says it is not the server's.
    const alone = await cli(['token']);
    expect(alone.stdout.trim()).toBe(token);
    const fresh = await cli(['token', 'new']);
    expect(fresh.stdout.trim()).not.toBe(token);
    expect(fresh.stderr).toContain(`a random token, NOT the one the server uses ("${NAME} token show" prints that)`);
    await stop(started.child);

    // config init writes the settings, not a token, and says the token stays.
    const init = await cli(['config', 'init', '--root', '~/projects']);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain(`the token stays the one in ${tokenFile}: clients set up before keep working ("${NAME} token show" prints it)`);
    const configFile = init.stdout.trim();
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).server.token).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).filesystem.roots).toEqual([path.join(home, 'projects')]);
    expect((await cli(['token', 'show'])).stdout.trim()).toBe(token);

    // A restart serves the same token, and token rotate (the only thing that changes it) is not refused.
    const again = await startCliHttp([], env);
    children.push(again.child);
    expect((await post(again.url, token)).status).toBe(200);

    // The tray reads the same files: its window shows and copies this token.
    const tray = new TokenPanel({
      configPath: configFile,
      appDir: path.dirname(tokenFile),
      env: {},
      running: () => null,
      readConfig: () => loadConfig({ env: { CHATGPT_MCP_CONFIG: configFile } }).config,
      restart: async () => ({ state: 'stopped' }),
    });
    expect(tray.current()).toMatchObject({ token, source: 'file' });

    const rotated = await runCli(['token', 'rotate'], env);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout.trim()).not.toBe(token);
    expect(tray.current().token).toBe(rotated.stdout.trim());
  }, 180_000);

  it('config init --force keeps a token the replaced file held, and says so', async () => {
    const configFile = path.join(home, '.config', 'chatgpt-mcp', 'config.json');
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(configFile, JSON.stringify({ server: { token: 'k'.repeat(43) } }), { mode: 0o600 });
    const init = await cli(['config', 'init', '--force', '--root', path.join(home, 'projects')]);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain('the token stays the one the replaced file held (server.token): clients keep working');
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).server.token).toBe('k'.repeat(43));
    expect((await cli(['token'])).stdout.trim()).toBe('k'.repeat(43));
  }, 60_000);

  it('serve refuses a config file holding the token that others can read; config check warns', async () => {
    const configFile = path.join(home, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { token: 'k'.repeat(43), port: 0 } }));
    fs.chmodSync(configFile, 0o644);
    const served = await runCli(['serve', '--http', '--config', configFile], env);
    expect(served.code).toBe(2);
    expect(served.stderr).toContain(`the config file ${configFile} holds server.token and other users can read it (mode 644): run "chmod 600 ${configFile}"`);
    expect(served.stderr).not.toContain('listening');
    const checked = await runCli(['config', 'check', '--config', configFile], env);
    expect(checked.code).toBe(0);
    expect(checked.stderr).toContain(`warning: the config file ${configFile} holds server.token and other users can read it`);
    fs.chmodSync(configFile, 0o600);
    const fixed = await runCli(['config', 'check', '--config', configFile], env);
    expect(fixed.stderr).not.toContain('holds server.token');
  });
});
