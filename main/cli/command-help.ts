/**
 * The help text, shown whole (`--help`) or for one command (`config --help`, `config init
 * --help`), always naming the program the way the owner runs it. Read from the one HELP text in
 * cli.ts, so a command added there has its own help at once.
 *
 * HELP's layout: a first paragraph, a "Usage:" block of `  chatgpt-mcp <command>   <what>`
 * entries (deeper-indented lines continue the entry above), an "Options:" block of
 * `  --option VALUE   <what>` entries (a description starting "tunnel start|status:" belongs to
 * those commands), then free paragraphs.
 */
import { INSTALLED_NAME } from '../command-name.js';

interface Entry {
  /** `config init`, `--port PORT`. */
  head: string;
  lines: string[];
}

const GAP = /\s{2,}/;

export function renderHelp(help: string, words: readonly string[], name: string): string | null {
  const { intro, usage, options, rest } = parse(help);
  const wanted = words.length ? usage.filter((entry) => startsWith(commandWords(entry.head), words)) : usage;
  if (wanted.length === 0) return null;
  const shownUsage = wanted.map((entry) => ({ ...entry, head: `${name} ${entry.head}` }));
  const shownOptions = words.length ? options.filter((option) => appliesTo(option, words)) : options;
  const parts = words.length ? [] : [rename(intro, name)];
  parts.push(`Usage:\n${columns(shownUsage)}`);
  if (shownOptions.length) parts.push(`Options:\n${columns(shownOptions)}`);
  if (!words.length) parts.push(...rest.map((paragraph) => rename(paragraph, name)));
  if (name !== INSTALLED_NAME) parts.push(`("npm link" in this folder makes "${INSTALLED_NAME}" a command of its own.)`);
  return parts.join('\n\n');
}

function parse(help: string): { intro: string; usage: Entry[]; options: Entry[]; rest: string[] } {
  const paragraphs = help.split(/\n\s*\n/);
  const block = (title: string) => {
    const found = paragraphs.find((p) => p.startsWith(`${title}:\n`));
    return found ? entries(found.slice(title.length + 2)) : [];
  };
  const usage = block('Usage').map((entry) => ({ ...entry, head: entry.head.replace(new RegExp(`^${INSTALLED_NAME} `), '') }));
  const rest = paragraphs.filter((p, i) => i > 0 && !p.startsWith('Usage:\n') && !p.startsWith('Options:\n'));
  return { intro: paragraphs[0] ?? '', usage, options: block('Options'), rest };
}

function entries(text: string): Entry[] {
  const out: Entry[] = [];
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    const body = line.trim();
    if (!body) continue;
    const last = out.at(-1);
    if (indent > 2 && last) {
      last.lines.push(body);
      continue;
    }
    const [head, ...what] = body.split(GAP);
    out.push({ head: head!, lines: [what.join('  ')] });
  }
  return out;
}

/** `[serve] [--http]` -> serve; `oauth approve CODE` -> oauth approve CODE. */
function commandWords(head: string): string[] {
  return head
    .replace(/^\[(\w+)\]/, '$1')
    .split(' ')
    .filter((word) => /^[a-z][\w-]*$/.test(word));
}

function startsWith(have: string[], wanted: readonly string[]): boolean {
  return wanted.every((word, i) => have[i] === word);
}

/** An option scoped "tunnel start|status|doctor: ..." belongs to those commands; any other to all. */
function appliesTo(option: Entry, words: readonly string[]): boolean {
  const scope = /^([a-z]+)(?: ([a-z|-]+))?:/.exec(option.lines[0] ?? '');
  if (!scope) return true;
  if (scope[1] !== words[0]) return false;
  return !words[1] || !scope[2] || scope[2].split('|').includes(words[1]);
}

function columns(list: Entry[]): string {
  const width = Math.max(...list.map((entry) => entry.head.length)) + 2;
  return list.map((entry) => entry.lines.map((line, i) => `  ${(i === 0 ? entry.head : '').padEnd(width)}${line}`.trimEnd()).join('\n')).join('\n');
}

function rename(text: string, name: string): string {
  return name === INSTALLED_NAME ? text : text.replace(new RegExp(`"${INSTALLED_NAME} `, 'g'), `"${name} `);
}

/** Every --option the help names, for "did you mean". */
export function optionNames(help: string): string[] {
  return [...new Set([...help.matchAll(/--([a-z][a-z-]*[a-z])/g)].map((m) => m[1]!))];
}
