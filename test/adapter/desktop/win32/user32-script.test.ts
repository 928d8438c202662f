/**
 * The C# of the Windows window tools (user32-script.ts), on Linux: it compiles as Windows
 * PowerShell's Add-Type compiles it, and what needs no Windows runs under Mono: the JSON quoting
 * every answer goes through, a request that names no window, the frame structure's size, and
 * every request against a stand-in for user32 written in C from its documentation
 * (fixtures/fake-user32.c, reached through a Mono dllmap). Its PowerShell parses, everywhere.
 * win32-windows.test.ts runs the whole script on the workflow's Windows runner.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER32_SCRIPT } from '../../../../adapter/desktop/win32/user32-script.js';
import { addTypeSources, compileCSharp, mapDlls, runMono } from '../../../helpers/csharp.js';
import { powershellSyntaxErrors } from '../../../helpers/powershell-syntax.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

/** Prints the Rect's marshalled size, then one line per argument (base64 of a UTF-8 line): Handle's answer, or Quote's. */
const DRIVER = String.raw`
using System;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
public static class Driver {
  public static void Main(string[] args) {
    Console.WriteLine(Marshal.SizeOf(typeof(ChatgptMcpWindows).GetNestedType("Rect", BindingFlags.NonPublic)));
    foreach (string arg in args) {
      string text = Encoding.UTF8.GetString(Convert.FromBase64String(arg.Substring(2)));
      Console.WriteLine(arg.StartsWith("h:") ? ChatgptMcpWindows.Handle(text) : ChatgptMcpWindows.Quote(text));
    }
  }
}`;

it('parses as PowerShell', async () => {
  expect(await powershellSyntaxErrors(USER32_SCRIPT)).toEqual([]);
});

describe.runIf(process.platform === 'linux')("user32-script's C#, under Mono", () => {
  let dir: string;
  let run: (...args: string[]) => string[];
  beforeAll(() => {
    dir = makeTempDir('user32-cs-');
    const sources = addTypeSources(USER32_SCRIPT);
    expect(sources).toHaveLength(1);
    const library = compileCSharp(dir, 'windows', sources);
    const exe = compileCSharp(dir, 'driver', [DRIVER], [library]);
    run = (...args) =>
      runMono(
        exe,
        args.map((a) => a.slice(0, 2) + Buffer.from(a.slice(2)).toString('base64')),
      )
        .trimEnd()
        .split('\n');
  }, 60_000);
  afterAll(() => removeDir(dir));

  it('compiles as C# 5, and its window frame is the 16 bytes of a RECT', () => {
    expect(run()).toEqual(['16']);
  });

  it('quotes any title as JSON that reads back the same, in ASCII', () => {
    const titles = ['Notes – café', 'say "hi" \\ back', 'tab\there\r\nnew line\u0001', '日本語 😀 ok', ''];
    const answers = run(...titles.map((t) => `q:${t}`)).slice(1);
    expect(answers.map((a) => JSON.parse(a) as string)).toEqual(titles);
    for (const answer of answers) expect(answer).toMatch(/^[\x20-\x7e]*$/);
  });

  it('answers a request without a window id with an error line, without touching user32', () => {
    const answers = run('h:focus', 'h:close 12ab', 'h:place').slice(1);
    expect(answers.map((a) => JSON.parse(a) as unknown)).toEqual(Array(3).fill({ error: 'failed', message: 'a request names a window' }));
  });
});

/** Init, as the script does first, then Handle for each argument (base64 of a request line), an answer a line. */
const REQUESTS_DRIVER = String.raw`
using System;
using System.Text;
public static class Driver {
  public static void Main(string[] args) {
    ChatgptMcpWindows.Init();
    foreach (string arg in args) Console.WriteLine(ChatgptMcpWindows.Handle(Encoding.UTF8.GetString(Convert.FromBase64String(arg))));
  }
}`;

describe.runIf(process.platform === 'linux')("user32-script's requests, against a stand-in for user32", () => {
  let dir: string;
  let exe: string;
  beforeAll(() => {
    dir = makeTempDir('user32-world-');
    exe = compileCSharp(dir, 'world', [...addTypeSources(USER32_SCRIPT), REQUESTS_DRIVER]);
    mapDlls(exe, ['user32.dll', 'dwmapi.dll', 'kernel32.dll'], path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/fake-user32.c'));
  }, 60_000);
  afterAll(() => removeDir(dir));

  /** One process's run of `lines` (the stand-in's windows start as written each time): the answers, and what it asked user32 to do. */
  const session = (...lines: string[]) => {
    const log = path.join(dir, `log-${Math.random()}`);
    const answers = runMono(
      exe,
      lines.map((line) => Buffer.from(line).toString('base64')),
      { ...process.env, FAKE_USER32_LOG: log },
    )
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trimEnd().split('\n') : [];
    return { answers, calls };
  };
  const listed = (answer: Record<string, unknown>) => (answer.windows as Array<Record<string, unknown>>).map((w) => [w.id, w.title, w.b, w.fg, w.min, w.max]);

  it('lists what Alt+Tab offers: visible, titled, not a tool window unless an app window, not cloaked, not the desktop', () => {
    const { answers, calls } = session('list');
    expect(listed(answers[0]!)).toEqual([
      [65794, 'Notes – café "1"', [100, 100, 800, 600], true, false, false],
      [131331, 'App tool', [5, 5, 100, 50], false, false, false],
      [131336, 'Minimized from maximized', null, false, true, false],
      [131337, 'Locked', [10, 10, 200, 100], false, false, false],
      [131338, 'Stubborn', [20, 20, 200, 100], false, false, false],
    ]);
    expect((answers[0]!.windows as Array<{ pid: number; app: string }>)[0]).toMatchObject({ pid: expect.any(Number), app: 'world' }); // the stand-in's windows are the driver's own (Mono names it after world.exe)
    expect(calls).toEqual(['SetProcessDpiAwarenessContext -4']); // per-monitor aware v2, asked once
  });

  it('places the visible frame where asked, adding back the invisible borders SetWindowPos counts; "-" keeps a value', () => {
    const { answers, calls } = session('place 65794 10 20 800 600', 'place 65794 - - 500 -', 'list');
    expect(answers.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]);
    // borders: 7 left, 0 top, 7 right, 7 bottom; SWP_NOZORDER | SWP_NOACTIVATE | SWP_ASYNCWINDOWPOS
    expect(calls.slice(1)).toEqual(['SetWindowPos 65794 0 3 20 814 607 16404', 'SetWindowPos 65794 0 3 20 514 607 16404']);
    expect(listed(answers[2]!)[0]).toEqual([65794, 'Notes – café "1"', [10, 20, 500, 600], true, false, false]);
  });

  it('restores a window minimized from maximized all the way out of both', () => {
    const { answers, calls } = session('restore 131336', 'list');
    expect(calls.slice(1)).toEqual(['ShowWindowAsync 131336 9', 'ShowWindowAsync 131336 9']);
    expect(listed(answers[1]!)[2]).toEqual([131336, 'Minimized from maximized', [0, 0, 1920, 1040], false, false, false]);
  });

  it('takes the foreground past the lock: joined to the foreground input, else with an Alt press, and lets go after', () => {
    const locked = session('focus 131337', 'list');
    expect(locked.calls.slice(1)).toEqual([
      'SetForegroundWindow 131337',
      'AttachThreadInput 1 1000 1',
      'BringWindowToTop 131337',
      'SetForegroundWindow 131337',
      'AttachThreadInput 1 1000 0',
    ]);
    expect(
      listed(locked.answers[1]!)
        .filter((w) => w[3])
        .map((w) => w[0]),
    ).toEqual([131337]);
    const stubborn = session('focus 131338', 'list');
    expect(stubborn.calls.slice(-4)).toEqual(['AttachThreadInput 1 1000 0', 'keybd_event 18 0', 'keybd_event 18 2', 'SetForegroundWindow 131338']);
    expect(
      listed(stubborn.answers[1]!)
        .filter((w) => w[3])
        .map((w) => w[0]),
    ).toEqual([131338]);
  });

  it('minimizes, maximizes and closes by posting, and refuses a window it does not list', () => {
    const { answers, calls } = session('minimize 65794', 'maximize 131331', 'close 131331', 'focus 131330', 'list');
    expect(answers.slice(0, 4)).toEqual([{ ok: true }, { ok: true }, { ok: true }, { error: 'NOT_FOUND' }]);
    expect(calls.slice(1)).toEqual(['ShowWindowAsync 65794 6', 'ShowWindowAsync 131331 3', 'PostMessageW 131331 16']);
    expect(listed(answers[4]!).map((w) => [w[0], w[4]])).toEqual([
      [65794, true],
      [131336, true],
      [131337, false],
      [131338, false],
    ]);
  });
});
