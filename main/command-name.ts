/**
 * How the owner runs the CLI, so every hint names a command they can paste: "chatgpt-mcp" once
 * it is on PATH (npm link, a global install), else the way they started it ("node
 * out/main/cli.js" from a clone, which is also what `npm start` runs headless). The entry
 * point sets it once at start; everything else only reads it.
 */
import fs from 'node:fs';
import path from 'node:path';

export const INSTALLED_NAME = 'chatgpt-mcp';

let current = INSTALLED_NAME;

/** The command prefix for hints, e.g. `${cliName()} token show`. */
export function cliName(): string {
  return current;
}

export function setCliName(name: string): void {
  current = name;
}

/** `${cliName()} <rest>` in quotes, as a hint shows it. */
export function cliHint(rest: string): string {
  return `"${current} ${rest}"`;
}

/**
 * The same hint for answers anyone may read (a 401 through a tunnel, the OAuth pages): a path
 * to the script is cut to its last folders, so it never tells a stranger the owner's home
 * folder or user name.
 */
export function publicCliHint(rest: string): string {
  const name = current.replace(/^node (.+)$/, (_whole, script: string) => {
    const parts = script.replace(/^"|"$/g, '').split(/[\\/]/).filter(Boolean);
    return parts.length > 3 || path.isAbsolute(script) ? `node …/${parts.slice(-3).join('/')}` : `node ${script}`;
  });
  return `"${name} ${rest}"`;
}

/**
 * The name for a script path (process.argv[1]): the installed name when it was run through the
 * bin link, or when that link on PATH leads to this very file; otherwise `node <path>`, relative
 * to the working folder when the script is inside it.
 */
export function detectCliName(script: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (!script) return INSTALLED_NAME;
  if (path.basename(script).replace(/\.(c|m)?js$/, '') === INSTALLED_NAME) return INSTALLED_NAME;
  if (linkedOnPath(script, env)) return INSTALLED_NAME;
  const relative = path.relative(cwd, script);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script;
  return `node ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`;
}

function linkedOnPath(script: string, env: NodeJS.ProcessEnv): boolean {
  const target = realpath(script);
  if (!target) return false;
  const names = process.platform === 'win32' ? [`${INSTALLED_NAME}.cmd`, INSTALLED_NAME] : [INSTALLED_NAME];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      if (realpath(path.join(dir, name)) === target) return true;
    }
  }
  return false;
}

function realpath(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
}
