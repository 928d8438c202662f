/**
 * Attacks through shell.exec, against real servers with real clients: a flood of concurrent
 * calls (and one legacy JSON-RPC batch) that would start a process each, and the display gate's
 * blind spots (Debian's real ImageMagick names, -display, quoting tricks inside sh -c, X clients
 * that read the session, microphone and camera grabbers).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectModernHttp, textOf, type CallResult } from '../helpers/clients.js';
import { startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const posix = process.platform !== 'win32';

let home: string;
beforeAll(() => {
  home = makeTempDir();
});
afterAll(() => removeDir(home));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function serve(input: ConfigInput) {
  const server = await startTestServer(input);
  open.push(server);
  const client = await connectModernHttp(server.url);
  open.push(client);
  return { server, client };
}

/** A child that appends + when it starts and - when it ends, so the log shows how many ran at once. */
function countingCommand(log: string, seconds: number): { command: string; args: string[] } {
  return { command: 'sh', args: ['-c', `echo + >> ${log}; sleep ${seconds}; echo - >> ${log}`] };
}

function peakConcurrency(log: string): { started: number; peak: number } {
  let running = 0;
  let peak = 0;
  let started = 0;
  for (const mark of fs.readFileSync(log, 'utf8').split('\n')) {
    if (mark === '+') {
      started++;
      peak = Math.max(peak, ++running);
    } else if (mark === '-') running--;
  }
  return { started, peak };
}

describe.skipIf(!posix)('a flood of shell.exec calls', () => {
  it('150 concurrent calls over HTTP never run more than shell.maxConcurrent at once, and system.info answers meanwhile', async () => {
    const log = path.join(home, 'flood.log');
    fs.writeFileSync(log, '');
    // The log lives in a writable root: sandboxed commands write nowhere else.
    const { server, client } = await serve({ filesystem: { write: true, roots: [home] }, shell: { enabled: true, allowedCommands: ['sh'] } });
    expect(server.config.shell.maxConcurrent).toBe(8);
    const call = countingCommand(log, 0.5);
    const calls = Array.from({ length: 150 }, () => client.callTool({ name: 'shell.exec', arguments: call }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const started = Date.now();
    const info = await client.callTool({ name: 'system.info', arguments: {} });
    const infoMs = Date.now() - started;
    const results = await Promise.all(calls);
    const floodMs = Date.now() - started;

    expect(info.isError).toBeFalsy();
    // Not queued behind the flood (at least 5 rounds of 0.5 s commands): a fraction of it, however loaded the machine.
    expect(infoMs).toBeLessThan(floodMs / 2);
    const { started: ran, peak } = peakConcurrency(log);
    expect(peak).toBeLessThanOrEqual(8);
    expect(peak).toBeGreaterThanOrEqual(2);
    const ok = results.filter((r) => !r.isError);
    const refused = results.filter((r) => r.isError);
    expect(ok.length).toBe(ran);
    expect(ok.length).toBeGreaterThanOrEqual(8 + 32);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect(textOf(result)).toMatch(/^TIMEOUT: .*shell\.maxConcurrent is 8, with 32 waiting/);
  });

  it('one legacy JSON-RPC batch of 100 calls cannot bypass the bound', async () => {
    const log = path.join(home, 'batch.log');
    fs.writeFileSync(log, '');
    const { server } = await serve({ filesystem: { write: true, roots: [home] }, shell: { enabled: true, allowedCommands: ['sh'], maxConcurrent: 4 } });
    const call = countingCommand(log, 0.2);
    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'shell.exec', arguments: call } }));
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(200);
    const results = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { id: number; result: CallResult });
    expect(results).toHaveLength(100);
    const { started, peak } = peakConcurrency(log);
    expect(peak).toBeLessThanOrEqual(4);
    expect(started).toBe(results.filter((r) => !r.result.isError).length);
    expect(results.filter((r) => r.result.isError).every((r) => /^TIMEOUT: .*shell\.maxConcurrent is 4/.test(textOf(r.result)))).toBe(true);
  });
});

describe('the display gate, with every command allowed and no display access', () => {
  const refused: Array<[string, string, string[]]> = [
    ["Debian's import", 'import-im6.q16', ['-window', 'root', 'shot.png']],
    ["Debian's convert with the x: coder", 'convert-im6.q16', ['x:root', 'shot.png']],
    ['magick with the x: coder', 'magick', ['x:root', 'shot.png']],
    ['-display on any X client', 'xterm', ['-display', ':0']],
    ['quotes inside a word', 'sh', ['-c', 'imp""ort -window root /tmp/shot.png']],
    ['a backslash inside a word', 'bash', ['-c', 'i\\mport -window root /tmp/shot.png']],
    ['a command name in a variable', 'sh', ['-c', 'x=import; $x -window root /tmp/shot.png']],
    ['a command name from command substitution', 'sh', ['-c', '$(printf imp)ort -window root /tmp/shot.png']],
    ['a glob for the command', 'sh', ['-c', '/usr/bin/imp*rt -window root /tmp/shot.png']],
    ['eval of a quoted command', 'sh', ['-c', 'eval "xw""d -root"']],
    ['xwininfo', 'xwininfo', ['-root', '-tree']],
    ['xprop', 'xprop', ['-root']],
    ['xmodmap', 'xmodmap', ['-pke']],
    ['xinput', 'xinput', ['list']],
    ['xclip', 'xclip', ['-o']],
    ['xsel', 'xsel', ['-b']],
    ['wmctrl', 'wmctrl', ['-l']],
    ['xdotool', 'xdotool', ['getmouselocation']],
    ['arecord', 'arecord', ['-d', '3', 'mic.wav']],
    ['parecord', 'parecord', ['mic.wav']],
    ['pw-record', 'pw-record', ['mic.wav']],
    ['ffmpeg from the camera', 'ffmpeg', ['-f', 'v4l2', '-i', '/dev/video0', 'cam.mkv']],
    ['ffmpeg from the microphone', 'ffmpeg', ['-f', 'alsa', '-i', 'default', 'mic.wav']],
    ['ffmpeg from PulseAudio', 'ffmpeg', ['-f', 'pulse', '-i', 'default', 'mic.wav']],
    ['ffmpeg on macOS devices', 'ffmpeg', ['-f', 'avfoundation', '-i', '0:0', 'cam.mov']],
    ['ffmpeg on Windows devices', 'ffmpeg', ['-f', 'dshow', '-i', 'audio=Microphone', 'mic.wav']],
    ['the camera device file', 'cat', ['/dev/video0']],
    ['the framebuffer', 'dd', ['if=/dev/fb0', 'of=/tmp/screen.raw']],
    ['keyboard events', 'cat', ['/dev/input/event0']],
  ];

  it.each(refused)('refuses %s', async (_what, command, args) => {
    const { client } = await serve({ shell: { enabled: true, allowedCommands: ['*'] } });
    const result = await client.callTool({ name: 'shell.exec', arguments: { command, args } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^COMMAND_NOT_ALLOWED: .*\(rule [a-z/-]+\); screen and input access is off \(desktop\.hostDisplayAccess is false\)$/);
  });

  it('still runs ordinary shell code', async () => {
    const { client } = await serve({ shell: { enabled: true, allowedCommands: ['*'] } });
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', 'x=$(echo hi); echo "$x" | tr a-z A-Z'] } });
    expect((result.structuredContent as { stdout: string }).stdout).toBe('HI\n');
  });
});
