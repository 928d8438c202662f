/**
 * What can be checked of packaging without building installers (no Electron downloads here):
 * the electron-builder config against electron-builder's own schema and validation, the
 * settings that matter for security and the OS integrations, the icons and the release workflow.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TRAY_ICONS } from '../../main/tray/tray-state.js';
import { REPO } from '../tray/helpers/build-app.js';

const require = createRequire(import.meta.url);
const CONFIG = path.join(REPO, 'build', 'electron-builder.config.mjs');

type BuilderConfig = Record<string, any>;

/** electron-builder's own check: its scheme.json through its ajv setup, plus its extra rules. */
async function validate(config: unknown): Promise<void> {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    validateConfiguration(c: unknown, logger: unknown): Promise<void>;
  };
  await validateConfiguration(config, { isEnabled: false, add() {} });
}

/** Loads the config module fresh with the given environment (it reads signing settings from env). */
async function loadConfig(env: Record<string, string>): Promise<BuilderConfig> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const module = (await import(`${pathToFileURL(CONFIG).href}?env=${encodeURIComponent(JSON.stringify(env))}`)) as { default: BuilderConfig };
    return module.default;
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

describe('electron-builder config', () => {
  it('passes electron-builder validation, unsigned and with every signing option set', async () => {
    const unsigned = await loadConfig({});
    await validate(unsigned);
    expect(unsigned.win.azureSignOptions).toBeUndefined();
    expect(unsigned.mac.notarize).toBe(false);

    const signed = await loadConfig({
      AZURE_SIGNING_ENDPOINT: 'https://eus.codesigning.azure.net',
      AZURE_SIGNING_ACCOUNT: 'account',
      AZURE_SIGNING_PROFILE: 'profile',
      AZURE_SIGNING_PUBLISHER: 'Publisher',
      APPLE_API_KEY: '/tmp/AuthKey.p8',
      APPLE_API_KEY_ID: 'KEYID',
      APPLE_API_ISSUER: 'issuer',
    });
    await validate(signed);
    expect(signed.win.azureSignOptions).toEqual({
      endpoint: 'https://eus.codesigning.azure.net',
      codeSigningAccountName: 'account',
      certificateProfileName: 'profile',
      publisherName: 'Publisher',
    });
    expect(signed.mac.notarize).toBe(true);
  });

  it('is really checked: the validator rejects a misspelt option', async () => {
    const config = await loadConfig({});
    await expect(validate({ ...config, mac: { ...config.mac, hardendRuntime: true } })).rejects.toThrow(/configuration\.mac\b/);
    await expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNoed: false } })).rejects.toThrow(/configuration\.electronFuses\b/);
    await expect(validate({ ...config, nsis: { ...config.nsis, oneClick: 'sometimes' } })).rejects.toThrow(/configuration\.nsis\b/);
  });

  it('sets the fuses, asar unpacking and per-OS settings the app relies on', async () => {
    const config = await loadConfig({});
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/@nut-tree-fork/**', '**/*.node']));
    expect(config.extraMetadata.main).toBe('out/app/main/index.js');
    expect(config.files).toContain('out/app/**/*');
    // The views the tray's server serves (main/mcp/views.ts looks in out/main/views from out/app/main).
    expect(config.files).toContain('out/main/views/*.html');

    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.extendInfo.LSUIElement).toBe(true);
    expect(config.mac.extendInfo.NSScreenCaptureUsageDescription).toMatch(/screen/i);
    expect(config.mac.target.map((t: { target: string }) => t.target)).toEqual(['dmg']);
    expect(config.win.target.map((t: { target: string }) => t.target)).toEqual(['nsis']);
    expect(config.linux.target.map((t: { target: string }) => t.target)).toEqual(['AppImage', 'deb']);
    expect(config.deb.depends).toEqual(expect.arrayContaining(['libxtst6', 'libx11-6']));

    // Every file the config points at exists.
    for (const file of [
      config.mac.entitlements,
      config.mac.icon,
      config.win.icon,
      config.linux.icon,
      ...config.extraResources.map((r: { from: string }) => r.from),
    ]) {
      expect(fs.existsSync(path.join(REPO, file)), file).toBe(true);
    }
    const plist = fs.readFileSync(path.join(REPO, config.mac.entitlements), 'utf8');
    expect(plist).toContain('com.apple.security.cs.allow-jit');
    expect(plist).not.toContain('disable-library-validation');
  });
});

describe('Linux installers and updates', () => {
  it("a menu entry the tray app's windows belong to, and an AppImage an update replaces in place", async () => {
    const config = await loadConfig({});
    expect(config.linux.desktop.entry).toMatchObject({ Name: 'ChatGPT Computer MCP', StartupWMClass: 'chatgpt-computer-mcp', Terminal: 'false' });
    expect(config.linux.desktop.entry.Categories).toMatch(/^Utility;/);
    // electron-updater overwrites an AppImage whose name has no version; a versioned one moves, and the autostart entry would point at nothing.
    expect(config.appImage.artifactName).not.toMatch(/version/);
    expect(config.appImage.artifactName).toContain('${arch}');
  });

  it('publishes update metadata to the repository the workflow runs in, and only there', async () => {
    // Empty, as outside a workflow (the workflow's own runner sets it).
    const unnamed = await loadConfig({ GITHUB_REPOSITORY: '' });
    await validate(unnamed);
    expect(unnamed.publish).toEqual([{ provider: 'github', releaseType: 'draft' }]);
    expect(unnamed.extraMetadata.repository).toBeUndefined();

    const named = await loadConfig({ GITHUB_REPOSITORY: 'acme/chatgpt-computer-mcp' });
    await validate(named);
    expect(named.publish).toEqual([{ provider: 'github', releaseType: 'draft', owner: 'acme', repo: 'chatgpt-computer-mcp' }]);
    // What `chatgpt-mcp version --check` and main/updates/release-feed.ts read in the installed app.
    expect(named.extraMetadata.repository).toBe('https://github.com/acme/chatgpt-computer-mcp');

    const odd = await loadConfig({ GITHUB_REPOSITORY: 'acme/x y;rm' });
    expect(odd.publish).toEqual([{ provider: 'github', releaseType: 'draft' }]);
  });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const data = fs.readFileSync(file);
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [data.readUInt32BE(16), data.readUInt32BE(20)];
}

describe('icons', () => {
  it('app icons at the sizes each platform needs', () => {
    expect(pngSize(path.join(REPO, 'build', 'icon.png'))).toEqual([1024, 1024]);
    for (const n of [16, 32, 48, 64, 128, 256, 512]) expect(pngSize(path.join(REPO, 'build', 'icons', `${n}x${n}.png`))).toEqual([n, n]);
    const ico = fs.readFileSync(path.join(REPO, 'build', 'icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1); // type: icon
    const count = ico.readUInt16LE(4);
    const sizes = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256);
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256]));
  });

  it('a tray icon, with a 2x variant, for every tray state', () => {
    for (const name of TRAY_ICONS) {
      expect(pngSize(path.join(REPO, 'build', 'tray', `${name}.png`))).toEqual([16, 16]);
      expect(pngSize(path.join(REPO, 'build', 'tray', `${name}@2x.png`))).toEqual([32, 32]);
    }
  });
});

describe('release workflow', () => {
  const yaml = require('js-yaml') as { load(text: string): any };
  const text = fs.readFileSync(path.join(REPO, '.github', 'workflows', 'release.yml'), 'utf8');
  const workflow = yaml.load(text);

  it('builds each OS on its own runner from a tag, with the builder config', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'workflow_dispatch']));
    expect(workflow.on.push.tags).toEqual(['v*']);
    const matrix = workflow.jobs.build.strategy.matrix.include as { name: string; os: string }[];
    expect(matrix.map((m) => m.name).sort()).toEqual(['linux', 'macos', 'windows']);
    expect(new Set(matrix.map((m) => m.os)).size).toBe(3);
    expect(text).toContain('--config build/electron-builder.config.mjs');
  });

  it('keeps the update metadata and the Claude Desktop bundle beside the installers', () => {
    const upload = workflow.jobs.build.steps.find((step: { uses?: string }) => step.uses?.startsWith('actions/upload-artifact'));
    expect(upload.with.path).toContain('dist/latest*.yml');
    expect(upload.with.path).toContain('out/mcpb/*.mcpb');
    expect(text).toContain('npm run bundle:mcpb');
  });

  it('passes every signing variable the config reads, from secrets', () => {
    const config = fs.readFileSync(CONFIG, 'utf8');
    const read = new Set([...config.matchAll(/\b(AZURE_SIGNING_[A-Z]+|APPLE_API_[A-Z_]+)\b/g)].map((m) => m[1]!));
    for (const name of read) expect(text, name).toContain(name);
    for (const name of ['CSC_LINK', 'WIN_CSC_LINK', 'AZURE_CLIENT_SECRET', 'APPLE_API_KEY_ID'])
      expect(text).toMatch(new RegExp(`${name}: \\$\\{\\{.*secrets\\.`));
  });
});
