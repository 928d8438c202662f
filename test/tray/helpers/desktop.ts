/**
 * Whether tests that need a real browser can run here. Without Chromium they skip loudly,
 * unless REQUIRE_DESKTOP_TESTS=1 (CI), where a missing browser is a failure.
 */
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumAvailable(): boolean {
  const found = fs.existsSync(CHROMIUM);
  if (!found && process.env.REQUIRE_DESKTOP_TESTS === '1') {
    throw new Error(`REQUIRE_DESKTOP_TESTS=1 but Chromium is missing at ${CHROMIUM} (apt-get install -y chromium)`);
  }
  if (!found)
    process.stderr.write(
      `\n*** SKIPPING settings-window browser tests: Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH) ***\n\n`,
    );
  return found;
}
