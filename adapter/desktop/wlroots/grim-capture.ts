/**
 * Screen captures on a wlroots compositor through grim (its screencopy client, packaged by
 * every distribution), asked for uncompressed PPM on stdout, whose RGB samples the encoder
 * takes as they are (grim is found as system-program.ts says). Measured against grim run directly in
 * bench/scenarios/wayland-capture.mjs.
 */
import { execFile } from 'node:child_process';
import { adapterError } from '../../contract/errors.js';
import type { ScreenRect } from '../../contract/geometry.js';
import type { RawFrame } from '../desktop-backend.js';
import { compositorEnvironment, findSystemProgram } from './system-program.js';

const GRIM_TIMEOUT_MS = 10_000;
const MAX_FRAME_BYTES = 16_384 * 16_384 * 3;

export const findGrim = (): string | undefined => findSystemProgram('grim');

/** The pixels of `area` (compositor coordinates), or of every output. */
export function grimGrab(env: Readonly<Record<string, string | undefined>>, area: ScreenRect | undefined, operation: string): Promise<RawFrame> {
  const grim = findGrim();
  if (!grim) return Promise.reject(adapterError('PRECONDITION_FAILED', operation, 'captures on a wlroots compositor need grim (apt-get install grim)'));
  const args = ['-t', 'ppm', ...(area ? ['-g', `${area.x},${area.y} ${area.width}x${area.height}`] : []), '-'];
  const childEnv = compositorEnvironment(env);
  return new Promise((resolve, reject) => {
    execFile(grim, args, { env: childEnv, encoding: 'buffer', maxBuffer: MAX_FRAME_BYTES + 64, timeout: GRIM_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error) {
        const why = stderr.toString('utf8').trim().split('\n')[0] || error.message;
        return reject(adapterError('OS_ERROR', operation, `grim could not capture the screen: ${why.slice(0, 200)}`));
      }
      try {
        resolve(fromPpm(stdout));
      } catch (cause) {
        reject(adapterError('OS_ERROR', operation, `grim's image could not be read: ${(cause as Error).message}`));
      }
    });
  });
}

/** A binary PPM (P6, maxval 255) as a packed RGB frame (no copy: the encoder takes RGB as it is). */
export function fromPpm(ppm: Buffer): RawFrame {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.toString('latin1', 0, 64));
  if (!header) throw new Error('not a binary PPM with 8-bit samples');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  if (ppm.length < start + width * height * 3) throw new Error('the PPM is shorter than its size says');
  return { data: ppm.subarray(start, start + width * height * 3), width, height, byteWidth: width * 3, rgb: true };
}
