/**
 * electron-builder configuration for the tray app's installers:
 *   Windows  NSIS (x64, arm64), signed with Azure Trusted Signing or a certificate file
 *   macOS    dmg (arm64, x64), hardened runtime, notarized with an App Store Connect API key
 *   Linux    AppImage and deb
 * Everything secret comes from the environment (the release workflow maps repository secrets
 * onto these variables); with none set, the build is simply unsigned.
 *
 *   npx electron-vite build && npx electron-builder --config build/electron-builder.config.mjs
 *
 * Windows signing, either:
 *   AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET (Entra app) plus
 *   AZURE_SIGNING_ENDPOINT, AZURE_SIGNING_ACCOUNT, AZURE_SIGNING_PROFILE, AZURE_SIGNING_PUBLISHER
 *   or WIN_CSC_LINK (base64 or path of a .pfx) and WIN_CSC_KEY_PASSWORD, read by electron-builder.
 * macOS signing: CSC_LINK / CSC_KEY_PASSWORD (Developer ID Application .p12).
 * macOS notarization: APPLE_API_KEY (path of the .p8), APPLE_API_KEY_ID, APPLE_API_ISSUER.
 */
const env = process.env;

/** Azure Trusted Signing, only when all of its settings are present. */
function azureSignOptions() {
  const { AZURE_SIGNING_ENDPOINT: endpoint, AZURE_SIGNING_ACCOUNT: account, AZURE_SIGNING_PROFILE: profile, AZURE_SIGNING_PUBLISHER: publisherName } = env;
  if (!endpoint || !account || !profile || !publisherName) return undefined;
  return { endpoint, codeSigningAccountName: account, certificateProfileName: profile, publisherName };
}

/** The repository the release workflow runs in ("owner/repo"): where the updater and `version --check` look, never a guess. */
const repository = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(env.GITHUB_REPOSITORY ?? '') ? env.GITHUB_REPOSITORY : undefined;
const [owner, repo] = repository ? repository.split('/') : [];

const notarize = Boolean(env.APPLE_API_KEY && env.APPLE_API_KEY_ID && env.APPLE_API_ISSUER);
const azure = azureSignOptions();

/** @type {import('app-builder-lib').Configuration} */
const config = {
  appId: 'io.github.chatgpt-computer-mcp.app',
  productName: 'ChatGPT Computer MCP',
  executableName: 'chatgpt-computer-mcp',
  copyright: 'Copyright © ChatGPT Computer MCP contributors',
  directories: { output: 'dist', buildResources: 'build' },
  // The electron-vite bundles only; production dependencies are added by electron-builder.
  // The MCP Apps views (build/views.mjs) too: the server finds them at out/main/views beside out/app.
  files: ['out/app/**/*', 'out/main/views/*.html', 'package.json', '!**/*.map'],
  extraMetadata: { main: 'out/app/main/index.js', ...(repository ? { repository: `https://github.com/${repository}` } : {}) },
  extraResources: [
    { from: 'build/tray', to: 'tray' },
    { from: 'build/icons', to: 'icons' },
  ],
  asar: true,
  // Native code cannot be loaded from inside the asar archive.
  asarUnpack: ['node_modules/@nut-tree-fork/**', '**/*.node'],
  electronFuses: {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    enableCookieEncryption: true,
    // grantFileProtocolExtraPrivileges stays on: the settings window is an ES-module page on file://.
  },
  // Also what electron-updater reads (app-update.yml in the app's resources) and what makes latest*.yml beside the installers.
  publish: [{ provider: 'github', releaseType: 'draft', ...(repository ? { owner, repo } : {}) }],

  mac: {
    category: 'public.app-category.developer-tools',
    target: [{ target: 'dmg', arch: ['arm64', 'x64'] }],
    icon: 'build/icon.png',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
    notarize,
    extendInfo: {
      // A menu-bar (tray) app: no Dock icon, no app menu bar of its own.
      LSUIElement: true,
      NSScreenCaptureUsageDescription: 'ChatGPT Computer MCP takes screenshots only when you have turned on display access and screen capture in its settings.',
      NSAppleEventsUsageDescription: 'ChatGPT Computer MCP controls apps only when you have turned on app control in its settings.',
    },
  },
  dmg: { title: '${productName} ${version}' },

  win: {
    target: [{ target: 'nsis', arch: ['x64', 'arm64'] }],
    icon: 'build/icon.ico',
    ...(azure ? { azureSignOptions: azure } : {}),
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    createDesktopShortcut: false,
    runAfterFinish: true,
    deleteAppDataOnUninstall: false,
  },

  linux: {
    target: [
      { target: 'AppImage', arch: ['x64', 'arm64'] },
      { target: 'deb', arch: ['x64', 'arm64'] },
    ],
    icon: 'build/icons',
    category: 'Utility',
    maintainer: 'ChatGPT Computer MCP contributors',
    synopsis: 'Lets ChatGPT act on this computer through typed MCP tools, only as far as you allow',
    // The menu entry; StartupWMClass ties the running tray app's windows to it.
    desktop: {
      entry: {
        Name: 'ChatGPT Computer MCP',
        Comment: 'Let ChatGPT act on this computer through typed MCP tools, only as far as you allow',
        Categories: 'Utility;Development;',
        Keywords: 'MCP;ChatGPT;AI;automation;',
        StartupWMClass: 'chatgpt-computer-mcp',
        Terminal: 'false',
      },
    },
  },
  // No version in the file name: an update replaces the AppImage in place, so the autostart entry
  // (main/tray/autostart-linux.ts) and the owner's shortcuts keep pointing at it.
  appImage: { artifactName: '${name}-${arch}.${ext}' },
  deb: {
    // electron-builder's defaults plus the X11 libraries screen capture and input need, and a tray host.
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'libx11-6',
      'libxext6',
      'libxinerama1',
      'libxrandr2',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
      'libayatana-appindicator3-1 | libappindicator3-1',
    ],
  },
};

export default config;
