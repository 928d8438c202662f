/** Help for the whole CLI or one command, read from the one help text, naming the CLI as it is run. */
import { describe, expect, it } from 'vitest';
import { optionNames, renderHelp } from '../../main/cli/command-help.js';

const HELP = `tool 1.0: does things.

Usage:
  chatgpt-mcp [serve] [--http]      serve it
  chatgpt-mcp config check          check "chatgpt-mcp config path" first
  chatgpt-mcp config init           create it (takes --root,
                                    --force)
  chatgpt-mcp tunnel start          start it
  chatgpt-mcp --version | --help

Options:
  --config FILE       the file
  --tunnel-id ID      tunnel start|status: the tunnel

Run "chatgpt-mcp token show" for the token.`;

describe('help', () => {
  it('for one command: its lines, its options, re-aligned for the name in use', () => {
    expect(renderHelp(HELP, ['config', 'init'], 'chatgpt-mcp')).toBe(`Usage:
  chatgpt-mcp config init  create it (takes --root,
                           --force)

Options:
  --config FILE  the file`);
    const config = renderHelp(HELP, ['config'], 'node out/main/cli.js')!;
    expect(config).toContain('  node out/main/cli.js config check  check "chatgpt-mcp config path" first');
    expect(config).toContain('  node out/main/cli.js config init   create it');
    expect(config).not.toContain('tunnel');
    expect(config).toContain('("npm link" in this folder makes "chatgpt-mcp" a command of its own.)');
    expect(renderHelp(HELP, ['tunnel'], 'chatgpt-mcp')).toContain('--tunnel-id ID  tunnel start|status: the tunnel');
    expect(renderHelp(HELP, ['serve'], 'chatgpt-mcp')).toContain('chatgpt-mcp [serve] [--http]  serve it');
  });

  it('whole: every entry and paragraph, the name replaced in quoted hints; null for an unknown command', () => {
    const whole = renderHelp(HELP, [], 'node cli.js')!;
    expect(whole.startsWith('tool 1.0: does things.')).toBe(true);
    expect(whole).toContain('  node cli.js --version | --help');
    expect(whole).toContain('Run "node cli.js token show" for the token.');
    expect(renderHelp(HELP, ['nope'], 'x')).toBeNull();
  });

  it('lists every option it names, for "did you mean"', () => {
    expect(optionNames(HELP)).toEqual(['http', 'root', 'force', 'version', 'help', 'config', 'tunnel-id']);
  });
});
