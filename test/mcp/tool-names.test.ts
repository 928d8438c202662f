/** Tool names in the server's own texts, rewritten to the exposed form (main/mcp/tool-names.ts). */
import { describe, expect, it } from 'vitest';
import { toolNameRewriter } from '../../main/mcp/tool-names.js';
import { ALL_TOOLS } from '../../main/mcp/tools/index.js';

const NAMES = ALL_TOOLS.map((t) => t.name);
const underscore = toolNameRewriter(NAMES, 'underscore');

describe('toolNameRewriter', () => {
  it('rewrites every known tool name to its underscore form', () => {
    for (const name of NAMES) expect(underscore.rewrite(`call ${name} next`)).toBe(`call ${name.replace(/\./g, '_')} next`);
    expect(underscore.rewrite('read it with process.output, end it with process.stop. system.info lists them')).toBe(
      'read it with process_output, end it with process_stop. system_info lists them',
    );
    expect(underscore.rewrite('(from screen.capture / ui.snapshot / ui.find)')).toBe('(from screen_capture / ui_snapshot / ui_find)');
    expect(underscore.rewrite('`fs.write`, "fs.edit" and fs.read:')).toBe('`fs_write`, "fs_edit" and fs_read:');
  });

  it('leaves words that only look like tool names alone', () => {
    const untouched = [
      'fs.readFile and fs.readdir',
      'config.json and shell.allowedCommands',
      '/tmp/fs.read and C:\\x\\fs.read',
      'fs.read.bak',
      'my.fs.read',
      'fs.read-old',
      'process.outputs',
      'search and fetch',
      'listing processes is disabled (process.list is false)',
      'process.kill is true',
      'not an allowed remote (git.push is [me/app]; settings: Git)',
    ];
    for (const text of untouched) expect(underscore.rewrite(text)).toBe(text);
    expect(underscore.rewrite('push it with git.push, as git.push is the tool')).toBe('push it with git_push, as git_push is the tool');
  });

  it('rewrites only whole names, also next to a longer one with the same start', () => {
    expect(underscore.rewrite('fs.find or fs.read, then fs.readFile')).toBe('fs_find or fs_read, then fs.readFile');
    expect(underscore.rewrite('process.kill may signal your processes')).toBe('process_kill may signal your processes');
  });

  it('keeps the names that occur in the data, however deep', () => {
    const args = { path: '/x/fs.write' };
    const data = { stdout: 'docs say: call fs.read', entries: [{ name: 'notes' }, { deep: [{ text: 'ui.find here' }] }], n: 3 };
    expect(underscore.rewrite('docs say: call fs.read; use fs.write or ui.find', args, data)).toBe('docs say: call fs.read; use fs_write or ui.find');
  });

  it('skips a long data string inside the text and rewrites the words around it', () => {
    const stdout = `${'line of output\n'.repeat(10)}the tool printed this.`;
    const text = `still running (process.output reads more)\nstdout:\n${stdout}\n[see process.stop]`;
    expect(underscore.rewrite(text, { stdout })).toBe(`still running (process_output reads more)\nstdout:\n${stdout}\n[see process_stop]`);
    // A name the data carries stays in the server's words too: when in doubt, it is data.
    const mentioning = `${'x'.repeat(80)} then process.output`;
    expect(underscore.rewrite(`use process.output\n${mentioning}`, { stdout: mentioning })).toBe(`use process.output\n${mentioning}`);
  });

  it('is cheap on a megabyte of file content that names tools', () => {
    const content = 'call fs.read, then fs.write; process.env.X\n'.repeat(25_000);
    const started = performance.now();
    expect(underscore.rewrite(`${content}\n\n[truncated: read on with fs.read]`, { content })).toBe(`${content}\n\n[truncated: read on with fs.read]`);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('changes nothing when the config exposes the dotted names', () => {
    const dotted = toolNameRewriter(NAMES, 'dotted');
    expect(dotted.rewrite('read it with process.output')).toBe('read it with process.output');
  });

  it('is cheap on a long text that names no tool', () => {
    const text = 'x'.repeat(1_000_000);
    const started = performance.now();
    expect(underscore.rewrite(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
