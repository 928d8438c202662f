// Lint rules for the whole repository: typescript-eslint's recommended type-aware-free set,
// plus the house rules that keep layers apart (see docs/ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeOnly = ['node:fs', 'node:fs/promises', 'fs', 'fs/promises', 'node:child_process', 'child_process'];

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
  {
    // The policy decides; it asks the adapter's port to look at the computer (rule 9).
    files: ['main/policy/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: nodeOnly.map((name) => ({ name, message: 'main/policy/ reaches the computer only through the adapter port' })) },
      ],
    },
  },
  {
    // A tool is one policy call plus one adapter call (rule 2).
    files: ['main/mcp/tools/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: nodeOnly.map((name) => ({ name, message: 'tools go through the ComputerAdapter' })) }] },
  },
  {
    // Only main/tray/ and the preload import electron (rule 3).
    files: ['main/**/*.ts', 'adapter/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['main/tray/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'only main/tray/ imports electron' }] }] },
  },
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
