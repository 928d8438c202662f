#!/usr/bin/env node
/**
 * The layout rules ESLint cannot see, run by `npm run lint`: `node build/check-layout.mjs [root]`
 * (root defaults to this repository). Each failure names its rule and what to do about it.
 *
 * - import-cycles: the relative imports of adapter/ and main/ (static, `export ... from`, dynamic
 *   `import('...')`, type-only ones too) form no cycle, so every folder can be read bottom-up.
 * - test-mirror: a test under test/ sits where its source sits, named after it (end-to-end tests,
 *   helpers and fixtures excepted), so the test of any file is found without searching.
 * - file-size: no source file is over 400 lines unless docs/ARCHITECTURE.md says why.
 */
import fs from 'node:fs';
import path from 'node:path';

export const MAX_LINES = 400;
const CYCLE_ROOTS = ['adapter', 'main'];
const SIZE_ROOTS = ['main', 'adapter', 'renderer', 'build'];
const SIZE_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.c', '.css'];
const CODE_EXTENSIONS = ['.ts', '.tsx', '.mjs'];
/** What a test may be of: code, and a C program (its test runs the built program). */
const MIRRORED_EXTENSIONS = [...CODE_EXTENSIONS, '.c'];
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist']);
const SIZE_TABLE = { file: 'docs/ARCHITECTURE.md', heading: '## Files over 400 lines' };

/** Every file below `dir` (relative to root, with '/'), skipping build output and dependencies. */
function listFiles(root, dir) {
  const out = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The code with comments blanked out (strings kept), so an import shown in a comment is not an
 * edge. Regular-expression literals are skipped whole, so a quote inside one opens no string.
 */
export function stripComments(code) {
  let out = '';
  let i = 0;
  let last = ''; // the last significant character of code, to tell a regex from a division
  while (i < code.length) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      while (i < code.length && code[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      const stop = end === -1 ? code.length : end + 2;
      out += code.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      out += code.slice(i, j + 1);
      i = j + 1;
      last = c;
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last))) {
      let j = i + 1;
      let inClass = false;
      while (j < code.length && code[j] !== '\n' && (inClass || code[j] !== '/')) {
        if (code[j] === '\\') j++;
        else if (code[j] === '[') inClass = true;
        else if (code[j] === ']') inClass = false;
        j++;
      }
      out += code.slice(i, j + 1);
      i = j + 1;
      last = '/';
    } else {
      out += c;
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return out;
}

const NAME = String.raw`[\w$]+`;
const CLAUSE = String.raw`(?:${NAME}\s*,\s*)?(?:\{[^}]*\}|\*\s*(?:as\s+${NAME})?|${NAME})`;
const IMPORT_PATTERNS = [
  new RegExp(String.raw`(?<![\w$.])import\s+(?:type\s+)?${CLAUSE}\s*from\s*(['"])([^'"\n]+)\1`, 'g'),
  new RegExp(String.raw`(?<![\w$.])export\s+(?:type\s+)?(?:\{[^}]*\}|\*(?:\s*as\s+${NAME})?)\s*from\s*(['"])([^'"\n]+)\1`, 'g'),
  /(?<![\w$.])import\s*(['"])([^'"\n]+)\1/g,
  /(?<![\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*[,)]/g,
];

/** The module specifiers a file imports, in any of the four forms. */
export function importSpecifiers(code) {
  const clean = stripComments(code);
  const found = [];
  for (const pattern of IMPORT_PATTERNS) for (const m of clean.matchAll(pattern)) found.push(m[2]);
  return found;
}

/** The file a relative specifier names ('./x.js' is x.ts in the source tree), or undefined. */
function resolveImport(from, specifier, files) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.join(path.posix.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|ts|tsx)$/, '');
  const candidates = [base, ...CODE_EXTENSIONS.map((ext) => stem + ext), ...CODE_EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  return candidates.find((candidate) => files.has(candidate));
}

/** The relative import graph of the code files under `dirs`: file -> the files it imports. */
export function importGraph(root, dirs = CYCLE_ROOTS) {
  const files = new Set(dirs.flatMap((dir) => listFiles(root, dir)).filter((file) => CODE_EXTENSIONS.some((ext) => file.endsWith(ext))));
  const graph = new Map();
  for (const file of files) {
    const code = fs.readFileSync(path.join(root, file), 'utf8');
    const targets = importSpecifiers(code)
      .map((specifier) => resolveImport(file, specifier, files))
      .filter((target) => target !== undefined);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** Strongly connected groups of more than one file (or a file importing itself): Tarjan's algorithm. */
function cyclicGroups(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest path from `from` to `to` inside `group`, as a list of files (both ends included). */
function shortestPath(graph, group, from, to) {
  const members = new Set(group);
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift();
    if (node === to) break;
    for (const next of graph.get(node) ?? []) {
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  const chain = [to];
  for (let node = previous.get(to); node !== undefined; node = previous.get(node)) chain.unshift(node);
  return chain;
}

/**
 * The import cycles, each as a chain of files that ends where it starts: for every group of files
 * that import each other, shortest cycles until each import inside the group is in one.
 */
export function findCycles(graph) {
  const cycles = [];
  for (const group of cyclicGroups(graph)) {
    const members = new Set(group);
    const covered = new Set();
    for (const from of group) {
      for (const to of graph.get(from) ?? []) {
        if (!members.has(to) || covered.has(`${from}>${to}`)) continue;
        const cycle = from === to ? [from, from] : [from, ...shortestPath(graph, group, to, from)];
        for (let i = 0; i + 1 < cycle.length; i++) covered.add(`${cycle[i]}>${cycle[i + 1]}`);
        cycles.push(cycle);
      }
    }
  }
  return cycles;
}

function checkCycles(root) {
  return findCycles(importGraph(root)).map(
    (cycle) =>
      `import-cycles: ${cycle.join(' -> ')}\n  Files must not import each other in a circle: move what they share (often types) into a file both import, ` +
      `or let the lower one receive what it needs as a parameter.`,
  );
}

/** Tests that are not unit tests of one source file: end-to-end tests, shared helpers, fixtures. */
function isMirroredTest(file) {
  if (!/\.test\.tsx?$/.test(file)) return false;
  if (file.startsWith('test/e2e/') || file.startsWith('test/helpers/')) return false;
  return !file.split('/').some((part) => part === 'helpers' || part === 'fixtures');
}

/** Where the source of a test folder is: test/adapter/ adapter/, test/build/ build/, test/renderer/ renderer/src/, any other main/ (the top of test/: main/ or the repository's top). */
function sourceFolder(dir) {
  const [top = '.', ...rest] = dir.split('/');
  const tail = rest.length > 0 ? `/${rest.join('/')}` : '';
  if (top === 'adapter' || top === 'build') return dir;
  if (top === 'renderer') return `renderer/src${tail}`;
  return top === '.' ? 'main' : `main/${dir}`;
}

/** The source files a test may mirror: test/<path>/<file>[.<aspect>].test.ts -> <source folder>/<path>/<file>.{ts,tsx,mjs,c}. */
export function mirrorCandidates(test) {
  const rel = test.slice('test/'.length);
  const names = path.posix
    .basename(rel)
    .replace(/\.test\.tsx?$/, '')
    .split('.');
  const sourceDir = sourceFolder(path.posix.dirname(rel));
  const candidates = [];
  // longest name first: electron-builder.config.test.ts is electron-builder.config.mjs, not an aspect of electron-builder
  for (let keep = names.length; keep >= 1; keep--) {
    const stem = `${sourceDir}/${names.slice(0, keep).join('.')}`;
    candidates.push(...MIRRORED_EXTENSIONS.map((ext) => stem + ext));
    // A test at the top of test/ may also be of a file at the top of the repository (eslint.config.mjs).
    if (sourceDir === 'main') candidates.push(...CODE_EXTENSIONS.map((ext) => names.slice(0, keep).join('.') + ext));
    if (sourceDir === 'build' || sourceDir.startsWith('build/')) candidates.push(`${stem}.config.mjs`);
  }
  return candidates;
}

function checkTestMirror(root) {
  const failures = [];
  for (const test of listFiles(root, 'test').filter(isMirroredTest)) {
    if (mirrorCandidates(test).some((candidate) => fs.existsSync(path.join(root, candidate)))) continue;
    const expected = mirrorCandidates(test)[0].replace(/\.ts$/, '.{ts,tsx,mjs}');
    failures.push(
      `test-mirror: ${test} mirrors no source file (expected ${expected})\n  A unit test sits at test/<path>/<file>[.<aspect>].test.ts for <path>/<file>.ts ` +
        `(renderer/src/ is test/renderer/, build/X.mjs is test/build/X.test.ts): rename or move it after the file it tests, ` +
        `or move a test through real clients to test/e2e/, named by behaviour.`,
    );
  }
  return failures;
}

/** The files docs/ARCHITECTURE.md allows over the limit: its table under "## Files over 400 lines". */
export function allowedLongFiles(markdown) {
  const start = markdown.indexOf(`${SIZE_TABLE.heading}\n`);
  if (start === -1) return undefined;
  const rest = markdown.slice(start + SIZE_TABLE.heading.length + 1);
  const end = rest.search(/^#{1,2} /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  const allowed = new Map();
  for (const m of section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|\s*$/gm)) allowed.set(m[1], m[2]);
  return allowed;
}

export function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function checkFileSizes(root) {
  const tablePath = path.join(root, SIZE_TABLE.file);
  const allowed = fs.existsSync(tablePath) ? allowedLongFiles(fs.readFileSync(tablePath, 'utf8')) : undefined;
  if (!allowed) {
    return [`file-size: ${SIZE_TABLE.file} has no "${SIZE_TABLE.heading}" section\n  Add it, with a table of | \`path\` | why | rows (it may be empty).`];
  }
  const failures = [];
  const long = new Set();
  for (const file of SIZE_ROOTS.flatMap((dir) => listFiles(root, dir))) {
    if (!SIZE_EXTENSIONS.some((ext) => file.endsWith(ext))) continue;
    const lines = lineCount(fs.readFileSync(path.join(root, file), 'utf8'));
    if (lines <= MAX_LINES) continue;
    long.add(file);
    if (allowed.has(file)) continue;
    failures.push(
      `file-size: ${file} has ${lines} lines (the limit is ${MAX_LINES})\n  Split it into modules named for what they do; ` +
        `if it must stay whole, add a row | \`${file}\` | why | to the table under "${SIZE_TABLE.heading}" in ${SIZE_TABLE.file}.`,
    );
  }
  for (const file of allowed.keys()) {
    if (long.has(file)) continue;
    failures.push(
      `file-size: ${SIZE_TABLE.file} lists ${file}, which ${fs.existsSync(path.join(root, file)) ? `is not over ${MAX_LINES} lines` : 'does not exist'}\n` +
        `  Remove its row from the table under "${SIZE_TABLE.heading}".`,
    );
  }
  return failures;
}

/** Every failure of the three rules under `root`, as messages; empty when the layout is right. */
export function checkLayout(root) {
  return [...checkCycles(root), ...checkTestMirror(root), ...checkFileSizes(root)];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  const failures = checkLayout(root);
  for (const failure of failures) console.error(failure);
  if (failures.length > 0) {
    console.error(`check-layout: ${failures.length} problem(s) in ${root}`);
    process.exitCode = 1;
  } else console.log('check-layout: import cycles, test mirrors and file sizes are fine');
}
