/**
 * Attacks through the environment, against real servers with real clients: caller variables that
 * make an allowed program run other code (BROWSER made xdg-open run a planted script,
 * XDG_DATA_DIRS pointing into a root, and the rest of the code-running names), an owner list that
 * tries to allow one of them, and the helper processes the server starts on its own.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { CODE_RUNNING_NAMES } from '../helpers/env-attacks.js';
import { childEnv, runCli, startCliHttp, startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import { missingDesktopPrereq, skipDesktop, startXvfb, type Xvfb } from '../adapter/desktop/fixtures/xvfb.js';

const XDG_OPEN = ['/usr/bin/xdg-open', '/usr/local/bin/xdg-open'].find((file) => fs.existsSync(file));
const posix = process.platform !== 'win32';

let home: string;
let root: string;
beforeAll(() => {
  home = makeTempDir();
  root = path.join(home, 'root');
  fs.mkdirSync(root);
});
afterAll(() => removeDir(home));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function connect(input: ConfigInput): Promise<TestClient> {
  const server = await startTestServer({ filesystem: { write: true, roots: [root] }, ...input });
  open.push(server);
  const client = await connectModernHttp(server.url);
  open.push(client);
  return client;
}

const exec = (client: TestClient, command: string, args: string[], env: Record<string, string>) =>
  client.callTool({ name: 'shell.exec', arguments: { command, args, env } });

/** A script a model could plant with fs.write, which leaves a marker when it runs. */
function plantScript(name: string): { script: string; marker: string } {
  const marker = path.join(home, `${name}.ran`);
  const script = path.join(root, `${name}.sh`);
  fs.writeFileSync(script, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  return { script, marker };
}

describe.skipIf(!XDG_OPEN)('BROWSER makes an allowed xdg-open run a planted program', () => {
  it('is a real attack when the variable reaches xdg-open', () => {
    const { script, marker } = plantScript('browser-direct');
    execFileSync(XDG_OPEN!, ['https://example.com/'], { env: { PATH: '/usr/bin:/bin', HOME: home, BROWSER: script }, stdio: 'ignore' });
    expect(fs.existsSync(marker)).toBe(true);
  });

  it('is refused through the server, with the allowed names listed, and nothing runs', async () => {
    const { script, marker } = plantScript('browser-server');
    const client = await connect({ shell: { enabled: true, allowedCommands: ['xdg-open'], allowEnv: true } });
    const result = await exec(client, 'xdg-open', ['https://example.com/'], { BROWSER: script });
    expect(textOf(result)).toMatch(/^COMMAND_NOT_ALLOWED: env BROWSER is not on the allow-list\. Allowed names: LANG, LANGUAGE, LC_\*, TZ, TERM/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('caller variables that change which code runs', () => {
  it.each(CODE_RUNNING_NAMES)('%s is refused even with shell.allowEnv', async (name) => {
    const client = await connect({ shell: { enabled: true, allowedCommands: ['env'], allowEnv: true, allowedEnv: ['MY_APP_MODE'] } });
    const result = await exec(client, 'env', [], { [name]: path.join(root, 'planted') });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^COMMAND_NOT_ALLOWED: .*Allowed names: .*shell\.allowedEnv\): MY_APP_MODE/);
  });

  it('XDG_DATA_DIRS pointing at .desktop entries planted in a root is refused', async () => {
    fs.mkdirSync(path.join(root, 'share', 'applications'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'share', 'applications', 'evil.desktop'),
      '[Desktop Entry]\nType=Application\nExec=sh -c "touch /tmp/x"\nMimeType=x-scheme-handler/https;\n',
    );
    const client = await connect({ shell: { enabled: true, allowedCommands: ['*'], allowEnv: true } });
    const result = await exec(client, 'env', [], { XDG_DATA_DIRS: path.join(root, 'share') });
    expect(textOf(result)).toMatch(/^COMMAND_NOT_ALLOWED: env XDG_DATA_DIRS is not on the allow-list/);
  });

  it.skipIf(!posix)('built-in harmless names and the owner’s names reach the child; the server’s secrets do not', async () => {
    const client = await connect({ shell: { enabled: true, allowedCommands: ['env'], allowEnv: true, allowedEnv: ['MY_APP_MODE'] } });
    const result = await exec(client, 'env', [], { LANG: 'C.UTF-8', TZ: 'Europe/Paris', NO_COLOR: '1', MY_APP_MODE: 'fast' });
    const stdout = (result.structuredContent as { stdout: string }).stdout;
    for (const line of ['LANG=C.UTF-8', 'TZ=Europe/Paris', 'NO_COLOR=1', 'MY_APP_MODE=fast']) expect(stdout.split('\n')).toContain(line);
  });

  it('a config that allows a code-running name does not load, and says which entry', async () => {
    const config = writeJson(path.join(home, 'allow-browser.json'), { shell: { enabled: true, allowEnv: true, allowedEnv: ['LC_PAPER', 'BROWSER'] } });
    const checked = await runCli(['config', 'check', '--config', config], childEnv(home));
    expect(checked.code).not.toBe(0);
    expect(checked.stderr).toMatch(/shell\.allowedEnv\[1\]: BROWSER changes which code programs run .* cannot be allowed/);
  });
});

const noDesktop = missingDesktopPrereq();

describe.skipIf(!posix || skipDesktop(noDesktop, 'the helper environment test under Xvfb'))('helper processes the server starts on its own', () => {
  const TOKEN = 'helper-env-token-0123456789abcdef';
  const SECRET = 'helper-env-owner-secret-value';
  let xvfb: Xvfb;
  beforeAll(async () => {
    if (noDesktop) throw new Error(noDesktop);
    xvfb = await startXvfb(320, 200);
  });
  afterAll(() => xvfb?.stop());

  it('get the short environment: the browser opener, the desktop worker and its display probe never see the token or other secrets', async () => {
    const bin = path.join(home, 'fake-bin');
    fs.mkdirSync(bin, { recursive: true });
    const record = (name: string) => {
      const file = path.join(home, `${name}.env`);
      fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nenv > ${file}\n`, { mode: 0o755 });
      return file;
    };
    const opener = record('xdg-open');
    const xrandr = record('xrandr');
    const config = writeJson(path.join(home, 'helpers.json'), { desktop: { hostDisplayAccess: true, browser: true, screen: true } });
    const env = childEnv(home, {
      PATH: `${bin}:${process.env.PATH}`,
      CHATGPT_MCP_TOKEN: TOKEN,
      OWNER_API_KEY: SECRET,
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
      DISPLAY: xvfb.display,
    });
    const server = await startCliHttp(['--config', config], env);
    try {
      const client = await connectModernHttp(server.url, TOKEN);
      open.push(client);
      expect((await client.callTool({ name: 'browser.open', arguments: { url: 'https://example.com/' } })).isError).toBeFalsy();
      // display 0 makes the worker ask RandR (xrandr) for the monitor layout.
      const shot = await client.callTool({ name: 'screen.capture', arguments: { display: 0, maxWidth: 32, maxHeight: 32 } });
      expect(shot.isError).toBeFalsy();
      for (const file of [opener, xrandr]) {
        for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 20));
        const seen = fs.readFileSync(file, 'utf8');
        expect(seen.split('\n')).toContain(`DISPLAY=${xvfb.display}`);
        expect(seen).toContain(`PATH=${bin}`);
        expect(seen).not.toContain(TOKEN);
        expect(seen).not.toContain(SECRET);
        expect(seen).not.toMatch(/^(CHATGPT_MCP_|NODE_TLS|OWNER_)/m);
      }
      expect(fs.readFileSync(xrandr, 'utf8').split('\n')).toContain('LC_ALL=C');
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
