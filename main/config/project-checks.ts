/**
 * The checks a project's files suggest, read from disk for the owner (the settings window's
 * "Detect" button and `config check`): never used until the owner adds them to checks.projects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { detectChecks, PROJECT_FILES, type ProjectFile, type ProposedCheck } from '../policy/check-detect.js';

/** A project file larger than this is not read (a package.json is a few KiB). */
const MAX_FILE_BYTES = 1024 * 1024;
/** Folders looked at below a root when proposing projects. */
const MAX_FOLDERS = 64;

export function detectProjectChecks(dir: string): Record<string, ProposedCheck> {
  const files: Partial<Record<ProjectFile, string>> = {};
  for (const name of PROJECT_FILES) {
    const file = path.join(dir, name);
    try {
      const stat = fs.statSync(file);
      if (stat.isFile() && stat.size <= MAX_FILE_BYTES) files[name] = fs.readFileSync(file, 'utf8');
    } catch {
      // missing or unreadable: nothing to propose from it
    }
  }
  return detectChecks(files);
}

/** Projects in a root and the folders just below it, with the checks their files suggest. */
export function proposeProjects(root: string): Array<{ path: string; checks: Record<string, ProposedCheck> }> {
  let names: string[];
  try {
    names = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
      .map((e) => e.name)
      .sort()
      .slice(0, MAX_FOLDERS);
  } catch {
    return [];
  }
  return [root, ...names.map((name) => path.join(root, name))]
    .map((dir) => ({ path: dir, checks: detectProjectChecks(dir) }))
    .filter((p) => Object.keys(p.checks).length > 0);
}
