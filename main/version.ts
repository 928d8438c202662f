import fs from 'node:fs';
import { findUp } from '../adapter/os/find-up.js';

const NAME = 'chatgpt-computer-mcp';

/** This package's version, from its package.json wherever this module was compiled or bundled to. */
function findVersion(): string {
  const file = findUp(import.meta.url, ['package.json'], (candidate) => readPackage(candidate)?.name === NAME);
  return (file && readPackage(file)?.version) || '0.0.0';
}

function readPackage(file: string): { name?: string; version?: string } | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
  } catch {
    return null;
  }
}

export const VERSION = findVersion();
export const SERVER_NAME = NAME;
