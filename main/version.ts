import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function findVersion(): string {
  // The compiled file sits one level deeper (out/main/) than the source (main/).
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string };
      if (pkg.name === 'chatgpt-computer-mcp' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = findVersion();
export const SERVER_NAME = 'chatgpt-computer-mcp';
