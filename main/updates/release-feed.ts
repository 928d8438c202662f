/**
 * Where this build's releases are published: the GitHub repository in its package.json
 * (`repository`), which the release workflow stamps from the repository it runs in. A build that
 * names none (a clone of the sources) knows of no releases and says so rather than guessing: an
 * update feed is code the computer will run.
 */
import fs from 'node:fs';
import { findUp } from '../../adapter/os/find-up.js';

const NAME = 'chatgpt-computer-mcp';

/** The metadata file electron-builder publishes beside each release's installers, per OS. */
export function feedFileName(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? 'latest-mac.yml' : platform === 'win32' ? 'latest.yml' : 'latest-linux.yml';
}

/** "owner/repo" from a package.json `repository` (a GitHub URL, "github:owner/repo" or "owner/repo"), or null. */
export function githubRepository(repository: unknown): string | null {
  const text = typeof repository === 'string' ? repository : (repository as { url?: unknown } | null)?.url;
  if (typeof text !== 'string') return null;
  const match = /^(?:github:|(?:git\+)?https:\/\/github\.com\/|git@github\.com:)?([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(text.trim());
  return match ? `${match[1]}/${match[2]}` : null;
}

/** The latest release's metadata for this OS, or null when this build names no repository. */
export function releaseFeed(platform: NodeJS.Platform = process.platform, from: string = import.meta.url): string | null {
  const file = findUp(from, ['package.json'], (candidate) => readPackage(candidate)?.name === NAME);
  const repo = file ? githubRepository(readPackage(file)?.repository) : null;
  return repo ? `https://github.com/${repo}/releases/latest/download/${feedFileName(platform)}` : null;
}

function readPackage(file: string): { name?: string; repository?: unknown } | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; repository?: unknown };
  } catch {
    return null;
  }
}
