#!/usr/bin/env node
/**
 * `npm run bundle:mcpb`: the headless server as a Claude Desktop bundle (.mcpb), packed and
 * validated with Anthropic's own tool (@anthropic-ai/mcpb). The bundle holds the built server
 * (out/main, out/adapter, out/native) and its runtime packages copied from node_modules, so
 * installing it downloads nothing. The owner's grants (folders, writing, commands, screen,
 * input) are the manifest's user_config, passed to the server as arguments
 * (main/cli/mcpb-serve.ts). Packages with native parts are this machine's: a bundle is built per
 * platform (the release workflow builds one on each runner).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const MCPB_CLI = path.join(root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
/** What the server needs of out/: the Electron app and its window are not part of it. */
const OUT_PARTS = ['main', 'adapter', 'native'];
/** Packages only the tray app loads. */
const APP_ONLY = new Set(['electron', 'electron-updater']);

/** The manifest Claude Desktop reads: the server's command line and the settings it asks the owner for. */
export function mcpbManifest(pkg, platform = process.platform) {
  const serverArgs = [
    '${__dirname}/server/out/main/mcpb-server.js',
    '--writable=${user_config.writable}',
    '--commands=${user_config.commands}',
    '--screen=${user_config.screen}',
    '--input=${user_config.input}',
    '--app-settings=${user_config.app_settings}',
    // Last: a folder list the host expands into one argument each.
    '--',
    '${user_config.folders}',
  ];
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: 'ChatGPT Computer MCP',
    version: pkg.version,
    description: 'Typed tools that act on this computer (files, commands, processes, screen, input), only as far as you allow.',
    long_description:
      'Nothing is allowed until you allow it: choose the folders to share, whether files there may change, the commands that may run ' +
      '(each inside a sandbox where the system has one) and whether the screen and input may be used. Secret files (.ssh, .env, keys) ' +
      'stay hidden even inside shared folders.',
    author: { name: 'ChatGPT Computer MCP contributors' },
    license: pkg.license,
    icon: 'icon.png',
    server: {
      type: 'node',
      entry_point: 'server/out/main/mcpb-server.js',
      mcp_config: { command: 'node', args: serverArgs, env: {} },
    },
    tools_generated: true,
    keywords: ['files', 'shell', 'computer-use', 'desktop', 'automation'],
    compatibility: { platforms: [platform], runtimes: { node: pkg.engines.node } },
    user_config: {
      folders: {
        type: 'directory',
        title: 'Folders to share',
        description: 'The folders tools may read (nothing outside them). Secret files inside stay hidden.',
        multiple: true,
        required: false,
        default: [],
      },
      writable: {
        type: 'boolean',
        title: 'Let tools change files in those folders',
        description: 'Write, edit, move and delete inside the shared folders.',
        required: false,
        default: false,
      },
      commands: {
        type: 'string',
        title: 'Commands that may run',
        description: 'Program names separated by commas (for example: git, npm, python3). Empty: no commands.',
        required: false,
        default: '',
      },
      screen: { type: 'boolean', title: 'See the screen', description: 'Screenshots and the accessibility tree.', required: false, default: false },
      input: { type: 'boolean', title: 'Use the mouse and keyboard', description: 'Clicks, typing and key presses.', required: false, default: false },
      app_settings: {
        type: 'boolean',
        title: "Use the app's settings file instead",
        description: "Ignore the choices above and use the ChatGPT Computer MCP app's own settings (its config file).",
        required: false,
        default: false,
      },
    },
  };
}

/** Every package the server loads at run time, with what they load, as folders under node_modules. */
export function runtimePackages(pkg, modules = path.join(root, 'node_modules')) {
  const found = new Set();
  const visit = (name, from) => {
    const dir = resolvePackage(name, from, modules);
    if (!dir || found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) visit(dep, dir);
  };
  for (const name of Object.keys(pkg.dependencies)) if (!APP_ONLY.has(name)) visit(name, path.dirname(modules));
  return [...found].sort();
}

/** Node's lookup: node_modules/<name> in the folder and each parent, up to the repository (optional packages for other platforms are absent). */
function resolvePackage(name, from, modules) {
  const top = path.dirname(modules);
  for (let dir = from; dir.startsWith(top); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === top) break;
  }
  return null;
}

/** Builds the bundle from out/ (run `npm run build` first); returns its path. */
export function bundleMcpb({ outFile, stage = path.join(root, 'out', 'mcpb', 'stage') } = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (!fs.existsSync(path.join(root, 'out', 'main', 'mcpb-server.js'))) throw new Error('out/main/mcpb-server.js is missing: run "npm run build" first');
  fs.rmSync(stage, { recursive: true, force: true });
  const server = path.join(stage, 'server');
  fs.mkdirSync(server, { recursive: true });
  fs.writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify(mcpbManifest(pkg), null, 2) + '\n');
  fs.copyFileSync(path.join(root, 'build', 'icons', '512x512.png'), path.join(stage, 'icon.png'));
  // version.ts finds the version in the nearest package.json of this name; "type" makes out/'s .js files modules.
  // The release workflow names its repository: `version --check` reads the releases there.
  const repository = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(process.env.GITHUB_REPOSITORY ?? '')
    ? `https://github.com/${process.env.GITHUB_REPOSITORY}`
    : pkg.repository;
  const serverPackage = { name: pkg.name, version: pkg.version, type: 'module', private: true, license: pkg.license, ...(repository ? { repository } : {}) };
  fs.writeFileSync(path.join(server, 'package.json'), JSON.stringify(serverPackage, null, 2) + '\n');
  for (const part of OUT_PARTS) fs.cpSync(path.join(root, 'out', part), path.join(server, 'out', part), { recursive: true });
  for (const dir of runtimePackages(pkg)) {
    fs.cpSync(dir, path.join(server, path.relative(root, dir)), { recursive: true, dereference: true });
  }
  const target = outFile ?? path.join(root, 'out', 'mcpb', `${pkg.name}-${pkg.version}-${process.platform}-${process.arch}.mcpb`);
  fs.rmSync(target, { force: true });
  mcpb(['validate', path.join(stage, 'manifest.json')]);
  mcpb(['pack', stage, target]);
  return target;
}

function mcpb(args) {
  execFileSync(process.execPath, [MCPB_CLI, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = bundleMcpb();
  process.stdout.write(`${path.relative(process.cwd(), file)}: ${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MiB\n`);
}
