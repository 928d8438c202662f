/**
 * build/electron-smoke.mjs, the script the electron-smoke workflow runs on Linux, macOS and
 * Windows with the real Electron binary, run here exactly as the workflow runs it but in its
 * stand-in mode: the built main bundle under plain Node with `electron` resolved to
 * test/tray/fixtures/fake-electron. Every step but the pixels is the same: first start in a
 * fresh profile, /healthz, the settings window (a second launch) and its IPC, a real MCP client
 * with the token the app wrote, Quit, and nothing left running.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, buildApp, type BuiltApp } from '../tray/helpers/build-app.js';
import { startTestServer } from '../helpers/servers.js';
import { alive } from '../helpers/proc.js';

const SCRIPT = path.join(REPO, 'build', 'electron-smoke.mjs');
const REGISTER = path.join(REPO, 'test', 'tray', 'fixtures', 'fake-electron', 'register.mjs');
const WORKFLOW = path.join(REPO, '.github', 'workflows', 'electron-smoke.yml');
const TOKEN = 'electron-smoke-test-token-0123456789';

interface Summary {
  ok: boolean;
  mode: string;
  url: string;
  configPath: string;
  tool?: string;
  error?: string;
  steps: Array<{ name: string; [key: string]: unknown }>;
}

describe('the Electron smoke script, in its stand-in mode', () => {
  let app: BuiltApp;
  let runnerHome: string;

  beforeAll(async () => {
    app = await buildApp();
    // The "runner's real profile" for the script: a temp folder, so this test never looks at the real home.
    runnerHome = fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-runner-'));
  }, 180_000);
  afterAll(() => {
    app?.cleanup();
    if (runnerHome) fs.rmSync(runnerHome, { recursive: true, force: true });
  });

  function run(args: string[]): Promise<{ code: number | null; summary: Summary | null; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: runnerHome, XDG_CONFIG_HOME: path.join(runnerHome, '.config') };
    for (const key of Object.keys(env)) if (key.startsWith('CHATGPT_MCP_')) delete env[key];
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    return new Promise((resolve) =>
      child.on('close', (code) => {
        const last = stdout.trim().split('\n').at(-1);
        resolve({ code, summary: last ? (JSON.parse(last) as Summary) : null, stderr });
      }),
    );
  }

  it('boots the built app, opens the settings, calls system info with the token the app wrote, quits, and leaves nothing', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-artifacts-'));
    try {
      const { code, summary, stderr } = await run(['--stand-in', REGISTER, '--main', app.mainEntry, '--artifacts', artifacts]);
      expect(summary?.error, stderr).toBeUndefined();
      expect(code).toBe(0);
      expect(summary).toMatchObject({ ok: true, mode: 'stand-in', tool: expect.stringMatching(/^system[._]info$/) });
      expect(summary!.steps.map((s) => s.name)).toEqual([
        'launched',
        'healthz',
        'token',
        'settings-window',
        'screenshot',
        'mcp',
        'processes',
        'quit',
        'nothing-left',
      ]);
      const step = (name: string) => summary!.steps.find((s) => s.name === name)!;
      // First start wrote the config, and the token file beside it (the CLI's too), in the script's own temp profile.
      expect(step('token')).toMatchObject({ source: 'token file', file: path.join(path.dirname(summary!.configPath), 'token') });
      expect(summary!.configPath.startsWith(os.tmpdir())).toBe(true);
      expect(summary!.configPath.startsWith(runnerHome)).toBe(false);
      expect(step('settings-window')).toMatchObject({
        status: 'running',
        configPath: summary!.configPath,
        page: expect.stringMatching(/renderer\/index\.html$/),
      });
      expect(step('quit')).toMatchObject({ code: 0 });
      expect(alive(step('launched').pid as number)).toBe(false);
      // The temp profile is gone, and the runner's profile got nothing.
      expect(fs.existsSync(summary!.configPath)).toBe(false);
      expect(fs.readdirSync(runnerHome)).toEqual([]);
      await expect(fetch(summary!.url.replace('/mcp', '/healthz'))).rejects.toThrow();
    } finally {
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails clearly when the server never answers, and still leaves nothing running', async () => {
    // A non-loopback host without its switch: the app refuses to serve (and opens the settings at the field).
    const { code, summary } = await run(['--stand-in', REGISTER, '--main', app.mainEntry, '--timeout', '4000', '--app-env', 'CHATGPT_MCP_HOST=0.0.0.0']);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ ok: false, error: expect.stringMatching(/\/healthz did not answer within 4000 ms/), leftover: [] });
    // The script waited for the app it killed: gone, not even a zombie, when the script exits.
    expect(alive(summary!.steps.find((s) => s.name === 'launched')!.pid as number)).toBe(false);
  }, 30_000);

  it('refuses unknown options with exit code 64', async () => {
    expect(await run(['--electron', '--bogus'])).toMatchObject({ code: 64, summary: null, stderr: expect.stringContaining('unknown option --bogus') });
    expect(await run([])).toMatchObject({ code: 64, stderr: expect.stringContaining('say --electron or --stand-in') });
  });
});

describe('the smoke script’s MCP step', () => {
  it('calls system info under either tool-name separator, with the bearer token, and refuses to pass without it', async () => {
    const { callSystemInfo } = (await import(pathToFileURL(SCRIPT).href)) as {
      callSystemInfo(url: string, token: string): Promise<{ tool: string; toolCount: number }>;
    };
    for (const toolNames of ['underscore', 'dotted'] as const) {
      const server = await startTestServer({ server: { auth: 'bearer', toolNames } }, { bearerToken: TOKEN });
      try {
        expect(await callSystemInfo(server.url, TOKEN)).toMatchObject({ tool: toolNames === 'underscore' ? 'system_info' : 'system.info' });
        await expect(callSystemInfo(server.url, 'not-the-token-0123456789abcdef')).rejects.toThrow(/Unauthorized/);
      } finally {
        await server.close();
      }
    }
    // A server without a token is not what the app starts: the script says so.
    const open = await startTestServer({ server: { auth: 'none' } });
    try {
      await expect(callSystemInfo(open.url, TOKEN)).rejects.toThrow(/not 401/);
    } finally {
      await open.close();
    }
  });

  it('lists a process tree from one listing', async () => {
    const { descendants } = (await import(pathToFileURL(SCRIPT).href)) as {
      descendants(list: Array<{ pid: number; ppid: number; command: string }>, pid: number): Array<{ pid: number; command: string }>;
    };
    const listing = [
      { pid: 10, ppid: 1, command: 'electron' },
      { pid: 11, ppid: 10, command: 'electron-gpu' },
      { pid: 12, ppid: 11, command: 'renderer' },
      { pid: 13, ppid: 1, command: 'other' },
      { pid: 14, ppid: 14, command: 'loop' },
    ];
    expect(descendants(listing, 10).map((p) => p.pid)).toEqual([10, 11, 12]);
    expect(descendants(listing, 14).map((p) => p.pid)).toEqual([14]);
    expect(descendants(listing, 99)).toEqual([]);
  });
});

describe('the workflow', () => {
  it('runs the same script with the real Electron on Linux (under xvfb-run), macOS and Windows, and uploads the screenshot', () => {
    const workflow = fs.readFileSync(WORKFLOW, 'utf8');
    expect(workflow).toMatch(/os: \[ubuntu-[\d.]+, macos-[\d]+, windows-[\d]+\]/);
    expect(workflow).toContain('npm ci');
    expect(workflow).toContain('npm run build && npm run build:app');
    expect(workflow).toMatch(/xvfb-run -a .*node build\/electron-smoke\.mjs --electron/);
    expect(workflow.match(/node build\/electron-smoke\.mjs --electron --artifacts test-artifacts\/electron-smoke/g)).toHaveLength(2);
    expect(workflow).toMatch(/actions\/upload-artifact@v4[\s\S]*path: test-artifacts\/electron-smoke/);
  });
});
