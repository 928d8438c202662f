/**
 * The Claude Desktop bundle (`npm run bundle:mcpb`): built from out/, validated and packed by
 * Anthropic's own mcpb tool, unpacked by it, and its server started the way the host starts it:
 * the manifest's command line with the owner's settings filled in. A real client then sees
 * exactly the grants those settings give, and nothing else.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleMcpb, runtimePackages, type McpbManifest, type PackageJson } from '../../build/bundle-mcpb.mjs';
import { connectCommand, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const MCPB_CLI = path.join(root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;

type Manifest = McpbManifest;
type UserConfig = Record<string, string | boolean | string[]>;

/**
 * The command line as the host builds it: ${__dirname} is the unpacked bundle, ${user_config.X}
 * the owner's value, a list filling its own argument expanded into one argument per item.
 */
function hostCommandLine(manifest: Manifest, dir: string, values: UserConfig): string[] {
  const settings = { ...Object.fromEntries(Object.entries(manifest.user_config).map(([key, field]) => [key, field.default])), ...values };
  return manifest.server.mcp_config.args.flatMap((arg) => {
    const whole = /^\$\{user_config\.(\w+)\}$/.exec(arg);
    const value = whole ? settings[whole[1]!] : undefined;
    if (Array.isArray(value)) return value;
    return [arg.replace('${__dirname}', dir).replace(/\$\{user_config\.(\w+)\}/g, (_, key: string) => String(settings[key] ?? ''))];
  });
}

let work: string;
let bundle: string;
let unpacked: string;
let manifest: Manifest;
let home: string;
let shared: string;
let outside: string;

beforeAll(() => {
  work = makeTempDir('mcpb-');
  bundle = bundleMcpb({ outFile: path.join(work, 'server.mcpb'), stage: path.join(work, 'stage') });
  unpacked = path.join(work, 'unpacked');
  execFileSync(process.execPath, [MCPB_CLI, 'unpack', bundle, unpacked], { stdio: 'pipe' });
  manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
  home = path.join(work, 'home');
  shared = path.join(work, 'shared');
  outside = path.join(work, 'outside');
  for (const dir of [home, shared, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(shared, 'note.txt'), 'shared note\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not shared\n');
}, 120_000);
afterAll(() => removeDir(work));

async function startBundle(values: UserConfig): Promise<TestClient> {
  const [command, ...args] = [manifest.server.mcp_config.command, ...hostCommandLine(manifest, unpacked, values)];
  // The host runs "node" from its own runtime: this test's Node stands in for it.
  return connectCommand(command === 'node' ? process.execPath : command!, args, childEnv(home) as Record<string, string>);
}

describe('the .mcpb bundle', () => {
  it('validates with the mcpb tool and asks the owner for each grant, all off by default', () => {
    const check = spawnSync(process.execPath, [MCPB_CLI, 'validate', path.join(unpacked, 'manifest.json')], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(Object.keys(manifest.user_config).sort()).toEqual(['app_settings', 'commands', 'folders', 'input', 'screen', 'writable']);
    expect(Object.values(manifest.user_config).map((field) => field.default)).toEqual([[], false, '', false, false, false]);
    expect(manifest.compatibility.platforms).toEqual([process.platform]);
    expect(manifest.server.entry_point).toBe('server/out/main/mcpb-server.js');
    expect(fs.existsSync(path.join(unpacked, manifest.server.entry_point))).toBe(true);
  });

  it('holds the packages its server loads, and not the Electron app', () => {
    expect(fs.existsSync(path.join(unpacked, 'server', 'out', 'app'))).toBe(false);
    expect(fs.existsSync(path.join(unpacked, 'server', 'node_modules', 'electron'))).toBe(false);
    const names = runtimePackages(pkg).map((dir) => path.relative(path.join(root, 'node_modules'), dir));
    expect(names).toEqual(expect.arrayContaining(['sharp', '@napi-rs/keyring', '@modelcontextprotocol/server']));
    for (const name of names) expect(fs.existsSync(path.join(unpacked, 'server', 'node_modules', name, 'package.json')), name).toBe(true);
  });

  it('started as the host starts it: the folders and commands chosen, read-only unless writing was allowed', async () => {
    const client = await startBundle({ folders: [shared], commands: 'echo' });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['system.info', 'fs.read', 'fs.list', 'shell.exec']));
      expect(names).not.toContain('fs.write');
      expect(names.some((name) => name.startsWith('screen.') || name.startsWith('input.'))).toBe(false);
      expect(textOf(await client.callTool({ name: 'fs.read', arguments: { path: path.join(shared, 'note.txt') } }))).toContain('shared note');
      const refused = await client.callTool({ name: 'fs.read', arguments: { path: path.join(outside, 'secret.txt') } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('PATH_NOT_ALLOWED');
      const echoed = await client.callTool({ name: 'shell.exec', arguments: { command: 'echo', args: ['from the bundle'], cwd: shared } });
      expect(echoed.structuredContent).toMatchObject({ exitCode: 0, stdout: 'from the bundle\n' });
      const other = await client.callTool({ name: 'shell.exec', arguments: { command: 'cat', args: ['note.txt'], cwd: shared } });
      expect(textOf(other)).toContain('COMMAND_NOT_ALLOWED');
    } finally {
      await client.close();
    }
  });

  it('with writing allowed, files in the folders may change', async () => {
    const client = await startBundle({ folders: [shared], writable: true });
    try {
      const written = await client.callTool({ name: 'fs.write', arguments: { path: path.join(shared, 'new.txt'), content: 'written\n' } });
      expect(written.isError, textOf(written)).toBeFalsy();
      expect(fs.readFileSync(path.join(shared, 'new.txt'), 'utf8')).toBe('written\n');
    } finally {
      await client.close();
    }
  });

  it("with the app's settings chosen, its config file decides instead", async () => {
    writeJson(path.join(home, '.config', 'chatgpt-mcp', 'config.json'), { filesystem: { roots: [outside] } });
    const client = await startBundle({ folders: [shared], app_settings: true });
    try {
      const read = await client.callTool({ name: 'fs.read', arguments: { path: path.join(outside, 'secret.txt') } });
      expect(textOf(read)).toContain('not shared');
      const other = await client.callTool({ name: 'fs.read', arguments: { path: path.join(shared, 'note.txt') } });
      expect(textOf(other)).toContain('PATH_NOT_ALLOWED');
    } finally {
      await client.close();
      fs.rmSync(path.join(home, '.config'), { recursive: true, force: true });
    }
  });

  it('a host that leaves the settings unfilled gets a refusal that says so, and nothing starts', () => {
    const args = manifest.server.mcp_config.args.map((arg) => arg.replace('${__dirname}', unpacked));
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: childEnv(home), input: '' });
    expect(run.status).toBe(64);
    expect(run.stderr).toMatch(/the host passed "\$\{user_config\.\w+\}" unfilled/);
  });
});
