// Lint rules for the whole repository: typescript-eslint's recommended type-aware-free set,
// plus the house rules that keep layers apart (see docs/ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeOnly = ['node:fs', 'node:fs/promises', 'fs', 'fs/promises', 'node:child_process', 'child_process'];
const ban = (name, message) => ({ name, message });
const pattern = (group, message) => ({ group, message });
const electron = ban('electron', 'rule 3: only main/tray/ (and its preload) imports electron');
const mcpSdk = pattern(['@modelcontextprotocol/*'], 'rule 1: only main/mcp/ speaks MCP');
/** Past the seam: anything in adapter/ but its contract. */
const adapterInternals = (rule) => ({
  regex: '(^|/)adapter/(?!contract/)',
  message: `${rule}: import the adapter's types and errors from adapter/contract/ only`,
});
/** One folder's bans, with the rule each one keeps in its message. */
const layer = (files, ignores, options) => ({ files: [files], ignores, rules: { 'no-restricted-imports': ['error', options] } });

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-artifacts/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // The layers' "never" arrows (docs/ARCHITECTURE.md, "Rules"): one block per folder, because a
  // later block's no-restricted-imports replaces an earlier one's for the same files.
  layer('main/policy/**/*.ts', [], {
    paths: [...nodeOnly.map((name) => ban(name, "rule 9: the policy reaches the computer only through the adapter's PolicyPort")), electron],
    patterns: [
      pattern(
        ['**/mcp/**', '**/host/**', '**/cli/**', '**/tray/**', '**/tunnel/**'],
        'rule 8: main/policy/ decides from the config alone; it imports no tool, host or entry point',
      ),
      mcpSdk,
      adapterInternals('rule 9'),
    ],
  }),
  layer('main/mcp/tools/**/*.ts', [], {
    paths: [...nodeOnly.map((name) => ban(name, 'rule 2: a tool is one policy call plus one adapter call; it never touches fs or child_process')), electron],
    patterns: [
      pattern(['**/host/**', '**/cli/**', '**/tray/**', '**/tunnel/**'], 'rule 2: a tool sees its ToolDeps only, never the host or an entry point'),
      adapterInternals('rule 2'),
    ],
  }),
  layer('main/mcp/**/*.ts', ['main/mcp/tools/**'], {
    paths: [electron],
    patterns: [
      pattern(['**/host/**', '**/cli/**', '**/tray/**'], 'rule 2: the tool host is built by main/host/ and knows no entry point'),
      adapterInternals('rule 2'),
    ],
  }),
  layer('main/gateway/**/*.ts', [], {
    paths: [electron],
    patterns: [
      pattern(
        ['**/mcp/**', '**/host/**', '**/cli/**', '**/tray/**'],
        'rule 14: the gateway is a service the tool host uses; it knows no tool host, host or entry point',
      ),
      adapterInternals('rule 14'),
    ],
  }),
  layer('main/**/*.ts', ['main/tray/**', 'main/policy/**', 'main/mcp/**', 'main/gateway/**'], {
    paths: [electron],
    patterns: [pattern(['**/tray/**'], 'rule 3: only the Electron shell in main/tray/ builds on main/tray/')],
  }),
  layer('adapter/contract/**/*.ts', [], {
    paths: [electron],
    patterns: [
      pattern(['../*', 'node:*', '@*/*', 'zod'], 'rule 10: a contract file imports only other contract files (./x.js): it is what every adapter implements'),
    ],
  }),
  layer('adapter/**/*.ts', ['adapter/contract/**'], {
    paths: [electron, ban('zod', 'rule 1: the adapter speaks plain TypeScript; schemas belong to the tools')],
    patterns: [mcpSdk, pattern(['**/main/**'], 'rule 1: adapter/ knows nothing of main/ (MCP, policy, config, host)')],
  }),
  layer('renderer/**/*.{ts,tsx}', [], {
    paths: [electron],
    patterns: [
      pattern(
        ['node:*', '**/adapter/**', '**/host/**', '**/cli/**'],
        'rule 4: the settings window runs in a browser page and talks to main only through the preload bridge',
      ),
    ],
  }),
  {
    // Locale formatting loads ICU's locale data: ~7 MiB more resident memory in every server (the idle RSS goal in docs/PERFORMANCE.md).
    files: ['main/**/*.ts', 'adapter/**/*.ts'],
    ignores: ['main/tray/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'toLocaleString', message: 'format numbers by hand; toLocaleString loads ICU locale data (~7 MiB RSS)' },
        { property: 'localeCompare', message: 'compare with < or a plain comparator; localeCompare loads ICU collation data' },
        { object: 'Intl', message: 'Intl loads ICU locale data (~7 MiB RSS) into the server' },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.{mjs,ts}', 'build/**/*.mjs'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
