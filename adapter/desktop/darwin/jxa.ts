/**
 * One JXA run (`osascript -l JavaScript`): the script's `run(argv)` gets the request as JSON in
 * argv[0] and returns its answer. What System Events does needs the Accessibility grant; its
 * absence is PRECONDITION_FAILED saying where to give it.
 */
import { execFile } from 'node:child_process';
import { adapterError } from '../../contract/errors.js';
import { shortEnvironment } from '../../process/child-env.js';

/**
 * Before every script: `answer(value)`, the JSON it returns with every non-ASCII character
 * escaped (\uXXXX). osascript prints a result in the locale's encoding, and an app started from
 * the Finder has no LANG: escaped, a title in any script reads back whole whatever the locale.
 */
const PRELUDE = String.raw`function answer(value) {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, function (c) { return '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4); });
}
`;

/** A script as osascript runs it: the prelude, then the script. */
export function jxaSource(script: string): string {
  return PRELUDE + script;
}

/** `what` names the work in errors ("reading the accessibility tree"). */
export function runJxa(script: string, request: Record<string, unknown>, operation: string, what: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/osascript',
      ['-l', 'JavaScript', '-e', jxaSource(script), JSON.stringify(request)],
      // the short environment (never the server's own, which may hold its token), in the owner's locale: answers hold their titles
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: shortEnvironment(process.env) },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if (/not allowed assistive access|-1719|-25211/i.test(stderr)) {
          return reject(
            adapterError(
              'PRECONDITION_FAILED',
              operation,
              `${what} failed: the app running the server has no Accessibility grant: allow it in System Settings > Privacy & Security > Accessibility`,
            ),
          );
        }
        const said = String(stderr || error.message)
          .split('\n')[0]!
          .slice(0, 200);
        reject(adapterError('OS_ERROR', operation, `${what} failed: ${said}`));
      },
    );
  });
}
