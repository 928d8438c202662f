/**
 * Finds a file by walking up from a module's own location. Compiled modules live in out/ and
 * bundled ones in out/main/chunks/, so a fixed relative path from import.meta.url breaks when
 * the layout changes; the first ancestor holding `relative` (where `accept` agrees) wins.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function findUp(moduleUrl: string, relatives: readonly string[], accept: (file: string) => boolean = () => true): string | null {
  for (let dir = path.dirname(fileURLToPath(moduleUrl)); ; dir = path.dirname(dir)) {
    for (const relative of relatives) {
      const candidate = path.join(dir, relative);
      if (fs.existsSync(candidate) && accept(candidate)) return candidate;
    }
    if (path.dirname(dir) === dir) return null;
  }
}
