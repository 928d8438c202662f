/**
 * The CLI and the tray build their server through the same host (main/host/server-host.ts), so
 * they protect the same files: the config in use, the one CHATGPT_MCP_CONFIG names, and every
 * folder of this app. Checked from outside: a real MCP client asks each running server to read
 * every candidate inside a root that covers them all, and the refusals are compared.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp } from '../helpers/clients.js';
import { childEnv, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { AppProcess, REGISTER } from '../tray/helpers/app-process.js';
import { buildApp, REPO, type BuiltApp } from '../tray/helpers/build-app.js';

const TOKEN = 'protected-paths-token-0123456789';

describe('the CLI and the tray protect the same paths', () => {
  let dir: string;
  let home: string;
  let app: BuiltApp;
  const children: ChildProcess[] = [];
  /** Every place a tool must not reach, and one it may, inside the one root. */
  let probes: { envConfig: string; flagConfig: string; appFolder: string; productFolder: string; ordinary: string };

  beforeAll(async () => {
    dir = makeTempDir('protected-paths-');
    home = path.join(dir, 'home');
    const appDir = path.join(home, '.config', 'chatgpt-mcp');
    const productDir = path.join(home, '.config', 'ChatGPT Computer MCP');
    fs.mkdirSync(appDir, { recursive: true });
    fs.mkdirSync(productDir, { recursive: true });
    const config = { server: { token: TOKEN, port: 0 }, filesystem: { read: true, roots: [home] } };
    probes = {
      envConfig: path.join(home, 'tray.json'),
      flagConfig: path.join(home, 'cli.json'),
      appFolder: path.join(appDir, 'notes.txt'),
      productFolder: path.join(productDir, 'Preferences'),
      ordinary: path.join(home, 'ordinary.txt'),
    };
    for (const file of [probes.envConfig, probes.flagConfig]) fs.writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
    for (const file of [probes.appFolder, probes.productFolder, probes.ordinary]) fs.writeFileSync(file, 'x');
    app = await buildApp();
  }, 180_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    app?.cleanup();
    removeDir(dir);
  });

  /** Which probes the server at `url` refuses to read. */
  async function refused(url: string): Promise<string[]> {
    const client = await connectModernHttp(url, TOKEN);
    try {
      const out: string[] = [];
      for (const [name, file] of Object.entries(probes)) {
        const result = await client.callTool({ name: 'fs.read', arguments: { path: file } });
        if (result.isError) {
          expect(result.content[0]?.text).toMatch(/PATH_NOT_ALLOWED/);
          out.push(name);
        }
      }
      return out.sort();
    } finally {
      await client.close();
    }
  }

  async function cli(args: string[]): Promise<string> {
    const started = await startCliHttp(args, childEnv(home, { CHATGPT_MCP_CONFIG: probes.envConfig }));
    children.push(started.child);
    return started.url;
  }

  async function tray(): Promise<string> {
    const child = fork(app.mainEntry, [], {
      execArgv: ['--import', REGISTER],
      env: { ...childEnv(home, { CHATGPT_MCP_CONFIG: probes.envConfig }), FAKE_ELECTRON_APP_PATH: REPO },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    children.push(child);
    const items = await new AppProcess(child)
      .next((r) => r.type === 'menu' && /^Running at /.test(String((r.items as Array<{ label?: string }>)[0]?.label)))
      .then((r) => r.items as Array<{ label: string }>);
    return items[0]!.label.replace('Running at ', '');
  }

  it('with the same environment, the tray and "serve --http" refuse the same files', async () => {
    const fromTray = await refused(await tray());
    const fromCli = await refused(await cli([]));
    expect(fromTray).toEqual(['appFolder', 'envConfig', 'productFolder']);
    expect(fromCli).toEqual(fromTray);
  });

  it('with --config, the CLI protects that file and still the one CHATGPT_MCP_CONFIG names', async () => {
    expect(await refused(await cli(['--config', probes.flagConfig]))).toEqual(['appFolder', 'envConfig', 'flagConfig', 'productFolder']);
  });
});
