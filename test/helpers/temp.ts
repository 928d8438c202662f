import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory under the OS temp dir, realpath'd (macOS /var -> /private/var). */
export function makeTempDir(prefix = 'chatgpt-mcp-test-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A JSON file private to its owner, as the app writes its config (one holding a token must be). */
export function writeJson(file: string, value: unknown): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2), { mode: 0o600 });
  if (process.platform !== 'win32') fs.chmodSync(file, 0o600);
  return file;
}

/** A temp home with an allowed `root` and a sibling `outside` it, the layout escape tests need. */
export function makeRootAndOutside(): { home: string; root: string; outside: string } {
  const home = makeTempDir();
  const root = path.join(home, 'root');
  const outside = path.join(home, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  return { home, root, outside };
}
