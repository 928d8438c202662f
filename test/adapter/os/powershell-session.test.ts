/**
 * The long-lived PowerShell session (powershell-session.ts): here against a stand-in that speaks
 * its terms (a line in, a line out), on Windows (the workflow's runner) against PowerShell itself.
 */
import { describe, expect, it, vi } from 'vitest';
import { encodedCommand, plainLines, PowerShellSession, powershellArgs, runPowerShell } from '../../../adapter/os/powershell-session.js';
import { windowsPowerShell } from '../../../adapter/os/system-root.js';
import { alive } from '../../helpers/proc.js';
import { powershellSyntaxErrors } from '../../helpers/powershell-syntax.js';

/** A stand-in answering `<pid> <line>`; "die" writes to stderr and exits, "hang" never answers. */
const STAND_IN = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (line === 'die') { process.stderr.write('first\nwhat went wrong\n'); process.exit(3); }
  if (line === 'hang') return;
  if (line === 'env') return process.stdout.write(process.pid + ' ' + Object.keys(process.env).sort().join(',') + '\r\n');
  process.stdout.write(process.pid + ' ' + line + '\r\n');
});`;

const standIn = (timeoutMs = 5000) => new PowerShellSession('testing', { command: process.execPath, args: ['-e', STAND_IN] }, timeoutMs);

describe('PowerShell scripts', () => {
  it('go as base64 of their UTF-16LE text, without a byte-order mark', () => {
    const text = Buffer.from(encodedCommand("Write-Output 'ü'"), 'base64');
    expect(text.subarray(0, 2)).toEqual(Buffer.from('W\0', 'latin1'));
    expect(text.toString('utf16le')).toBe("Write-Output 'ü'");
    const args = powershellArgs('Write-Output 1');
    expect(args.slice(0, -1)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
    // every script runs after the lines that keep its errors plain text and its progress silent
    const script = Buffer.from(args.at(-1)!, 'base64').toString('utf16le');
    expect(script).toMatch(
      /^\$ProgressPreference = 'SilentlyContinue'\ntrap \{[^\n]*\[Console\]::Error\.WriteLine\(\$e\.Message\); exit 1 \}\nfunction ConvertTo-AsciiJson[^\n]*\nWrite-Output 1$/,
    );
  });

  it('parse with their preamble; a script cut short does not (the check can fail)', async () => {
    expect(await powershellSyntaxErrors("Write-Output 'one'")).toEqual([]);
    expect(await powershellSyntaxErrors("if ($true) { Write-Output 'one'")).not.toEqual([]);
    expect(await powershellSyntaxErrors("Write-Output @'\nnever closed")).not.toEqual([]);
  });

  it("read plainly what PowerShell wrote to stderr, without the CLIXML an encoded command's host writes", () => {
    const clixml =
      '#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04"><Obj S="progress" RefId="0"></Obj></Objs>\r\nelement not found\r\n';
    expect(plainLines(clixml)).toEqual(['element not found']);
    expect(plainLines('first\n\n  second  \n')).toEqual(['first', 'second']);
  });
});

describe('a PowerShell session', () => {
  it('answers each line with its own line, in order, from one process', async () => {
    const session = standIn();
    try {
      const answers = await Promise.all(['list', 'focus 1', 'close 2'].map((line) => session.request(line, 'window.list')));
      const pids = new Set(answers.map((a) => a.split(' ')[0]));
      expect(pids.size).toBe(1);
      expect(answers.map((a) => a.split(' ').slice(1).join(' '))).toEqual(['list', 'focus 1', 'close 2']);
    } finally {
      session.close();
    }
  });

  it('fails the request in flight when the process ends, with what it last said, and starts a new one for the next', async () => {
    const session = standIn();
    try {
      const first = (await session.request('a', 'window.list')).split(' ')[0];
      const queued = session.request('after', 'window.list');
      await expect(session.request('die', 'window.focus')).rejects.toMatchObject({
        code: 'OS_ERROR',
        operation: 'window.focus',
        message: expect.stringMatching(/^testing failed: PowerShell it ended: what went wrong$/),
      });
      // The line queued before the death was answered by the first process, not lost.
      expect(await queued).toBe(`${first} after`);
      const next = (await session.request('b', 'window.list')).split(' ')[0];
      expect(next).not.toBe(first);
    } finally {
      session.close();
    }
  });

  it('gives up on a request that takes too long, ends that process, and goes on', async () => {
    // Long enough for the stand-in's start on a loaded machine (the first request waits for it).
    const session = standIn(2000);
    try {
      const first = (await session.request('a', 'window.list')).split(' ')[0];
      const started = Date.now();
      await expect(session.request('hang', 'window.close')).rejects.toMatchObject({
        code: 'OS_ERROR',
        message: expect.stringContaining('did not answer within 2 s'),
      });
      expect(Date.now() - started).toBeLessThan(6000);
      await vi.waitFor(() => expect(alive(Number(first))).toBe(false));
      expect((await session.request('b', 'window.list')).split(' ')[1]).toBe('b');
    } finally {
      session.close();
    }
  });

  it("starts its program in the short helper environment, never the server's own", async () => {
    process.env.CHATGPT_MCP_PLANTED_SECRET = 'planted';
    const session = standIn();
    try {
      const names = (await session.request('env', 'window.list')).split(' ')[1]!.split(',');
      expect(names).not.toContain('CHATGPT_MCP_PLANTED_SECRET');
      expect(names).toEqual(expect.arrayContaining(['LC_ALL', 'PATH']));
    } finally {
      session.close();
      delete process.env.CHATGPT_MCP_PLANTED_SECRET;
    }
  });

  it('says when the program cannot start', async () => {
    const session = new PowerShellSession('testing', { command: '/nonexistent/powershell.exe', args: [] }, 5000);
    await expect(session.request('list', 'window.list')).rejects.toMatchObject({ code: 'OS_ERROR', message: expect.stringContaining('it could not start') });
  });

  it.runIf(process.platform === 'win32')('runs a real PowerShell script, reading every line it is sent', async () => {
    const script = "while ($null -ne ($line = [Console]::In.ReadLine())) { [Console]::Out.WriteLine('got ' + $line.Length) }";
    const session = new PowerShellSession('testing', { command: windowsPowerShell(), args: powershellArgs(script) }, 30_000);
    try {
      expect(await Promise.all(['a', 'bb', 'ccc'].map((line) => session.request(line, 'window.list')))).toEqual(['got 1', 'got 2', 'got 3']);
    } finally {
      session.close();
    }
  });

  it.runIf(process.platform === 'win32')("writes JSON in ASCII whatever the console's code page, and it reads back whole", async () => {
    const name = 'Grüße – 日本 😀';
    const out = await runPowerShell(
      'ConvertTo-AsciiJson @{ name = $env:NAME; list = @(1, 2) }',
      { vars: { NAME: name }, timeoutMs: 30_000 },
      'ui.snapshot',
      'testing',
    );
    expect(out.trim()).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(out)).toEqual({ name, list: [1, 2] });
  });
});
