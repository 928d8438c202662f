/**
 * gateway.servers in the config: bad entries are clear errors naming the entry (unknown keys, a
 * missing command, both a command and a URL, duplicate names and prefixes, a secret written
 * inline in env, args or a URL), and a good entry gets its safe defaults.
 */
import { describe, expect, it } from 'vitest';
import { configSchema, prefixOf } from '../../../main/config/schema.js';

function problems(servers: unknown[]): string[] {
  const parsed = configSchema.safeParse({ gateway: { servers } });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('gateway.servers', () => {
  it('an entry gets safe defaults: lazy, sandboxed, no folders, no network, no display', () => {
    const config = configSchema.parse({ gateway: { servers: [{ name: 'my-tool', command: 'node', args: ['x.js'] }] } });
    const entry = config.gateway.servers[0]!;
    expect(entry).toMatchObject({ enabled: true, start: 'lazy', sandbox: true, folders: [], network: false, display: false, env: {}, idleStopMs: 600_000 });
    expect(prefixOf(entry)).toBe('mytool');
  });

  it('an unknown key names the entry and lists the keys', () => {
    expect(problems([{ name: 'gh', command: 'node', bogus: 1 }])).toEqual([
      expect.stringMatching(/^gateway\.servers\.0\.bogus: unknown key in the entry "gh"; its keys are: name, prefix/),
    ]);
  });

  it('a missing command (or both a command and a URL) names the entry', () => {
    expect(problems([{ name: 'nothing' }])).toEqual([expect.stringContaining('the entry "nothing" needs either "command"')]);
    expect(problems([{ name: 'both', command: 'x', url: 'https://example.com/mcp' }])).toEqual([expect.stringContaining('the entry "both" needs either')]);
  });

  it('duplicate names and prefixes are refused, naming both entries', () => {
    const found = problems([
      { name: 'one', prefix: 'p', command: 'a' },
      { name: 'two', prefix: 'P', command: 'b' },
      { name: 'ONE', prefix: 'q', command: 'c' },
    ]);
    expect(found).toEqual([
      'gateway.servers.1.prefix: "P" (two) is already the prefix of servers[0] (one); give each server its own',
      'gateway.servers.2.name: "ONE" is already the name of servers[0]',
    ]);
  });

  it('a secret written inline is refused, saying how to store it', () => {
    expect(problems([{ name: 'gh', command: 'x', env: { GITHUB_TOKEN: 'abc123' } }])).toEqual([
      'gateway.servers.0.env.GITHUB_TOKEN: is a secret written inline in the config file; store it with "chatgpt-mcp gateway set-secret gh/GITHUB_TOKEN" and write {"secret": "gh/GITHUB_TOKEN"}',
    ]);
    // KEY as a word of the name (ENCRYPTION_KEY, SIGNINGKEY); not inside another word.
    for (const name of ['ENCRYPTION_KEY', 'SIGNINGKEY', 'KEY', 'key_id'])
      expect(problems([{ name: 'k', command: 'x', env: { [name]: 'hunter2' } }])).toHaveLength(1);
    expect(problems([{ name: 'k', command: 'x', env: { KEYBOARD_LAYOUT: 'us' } }])).toEqual([]);
    // Settings whose names only resemble a secret's are written inline (main/config/secret-name.ts).
    expect(
      problems([
        {
          name: 'p',
          command: 'x',
          env: { MAX_TOKENS: '4096', GIT_AUTHOR_NAME: 'Alex', SESSION_DIR: '/tmp/s', OAUTH_CALLBACK_PORT: '8765', TOKENIZER: 'cl100k' },
        },
      ]),
    ).toEqual([]);
    // A token shape under a harmless name, in args, or in a URL.
    expect(problems([{ name: 'a', command: 'x', env: { CONFIG: 'sk-abcdefghijklmnopqrstuvwxyz' } }])).toHaveLength(1);
    expect(problems([{ name: 'b', command: 'x', args: ['--api-key=hunter2'] }])).toEqual([
      expect.stringContaining('gateway.servers.0.args.0: looks like a secret'),
    ]);
    expect(problems([{ name: 'c', url: 'https://user:pass@example.com/mcp' }])).toEqual([expect.stringContaining('must not contain a user name or password')]);
    expect(problems([{ name: 'd', url: 'https://example.com/mcp?token=abc' }])).toEqual([expect.stringContaining('must not carry a credential')]);
    // References are how secrets are given.
    expect(problems([{ name: 'e', command: 'x', env: { GITHUB_TOKEN: { secret: 'e/GITHUB_TOKEN' } } }])).toEqual([]);
    expect(problems([{ name: 'f', url: 'https://example.com/mcp', bearerToken: { secret: 'f' } }])).toEqual([]);
  });

  it('refuses an env value holding NUL (no program could be given it), naming the entry and the variable', () => {
    expect(problems([{ name: 'nul', command: 'x', env: { MODE: 'a\0b' } }])).toEqual(['gateway.servers.0.env.MODE: must not contain NUL']);
  });

  it("refuses the loader's variables, naming the entry and the variable; others steer only the upstream's own program", () => {
    const found = problems([
      {
        name: 'lib',
        command: 'x',
        env: {
          LD_PRELOAD: '/data/libevil.so',
          GCONV_PATH: '/x',
          NODE_OPTIONS: '--max-old-space-size=512',
          PYTHONPATH: '/opt/py',
          PATH: '/opt/bin',
          MEMORY_FILE: '/m',
        },
      },
      { name: 'raw', command: 'x', sandbox: false, env: { ld_library_path: { secret: 'raw/x' }, DYLD_INSERT_LIBRARIES: '/x.dylib' } },
    ]);
    expect(found).toEqual([
      expect.stringMatching(/^gateway\.servers\.0\.env\.LD_PRELOAD: the entry "lib": LD_PRELOAD makes the system's loader load code/),
      expect.stringMatching(/^gateway\.servers\.0\.env\.GCONV_PATH: the entry "lib": GCONV_PATH makes/),
      expect.stringMatching(/^gateway\.servers\.1\.env\.ld_library_path: the entry "raw": ld_library_path makes/),
      expect.stringMatching(/^gateway\.servers\.1\.env\.DYLD_INSERT_LIBRARIES: the entry "raw": DYLD_INSERT_LIBRARIES makes/),
    ]);
  });

  it('an HTTP upstream takes no command settings, and plain http only to this computer', () => {
    expect(problems([{ name: 'h', url: 'https://example.com/mcp', folders: ['/data'] }])).toEqual([
      'gateway.servers.0.folders: is for a command; an HTTP upstream (url) runs elsewhere',
    ]);
    expect(problems([{ name: 'h', url: 'http://example.com/mcp' }])).toEqual([expect.stringContaining('must use https://')]);
    expect(problems([{ name: 'h', url: 'http://127.0.0.1:3211/mcp' }])).toEqual([]);
  });
});
