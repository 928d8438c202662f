/**
 * The C# of the Windows window tools (user32-script.ts), on Linux: it compiles as Windows
 * PowerShell's Add-Type compiles it, and what needs no Windows runs under Mono: the JSON quoting
 * every answer goes through, a request that names no window, the frame structure's size. Its
 * PowerShell parses, everywhere.
 * win32-windows.test.ts runs the whole script on the workflow's Windows runner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER32_SCRIPT } from '../../../../adapter/desktop/win32/user32-script.js';
import { addTypeSources, compileCSharp, runMono } from '../../../helpers/csharp.js';
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
