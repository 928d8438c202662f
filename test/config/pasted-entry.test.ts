/**
 * Pasted entries from Claude Desktop, Claude Code, Cursor, Cline, VS Code, Zed and Codex become
 * gateway.servers entries the config schema accepts, with secret values (and values their host
 * fills in) left behind as references, and the owner told what was not carried over.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { MAX_PASTE_CHARS, parsePasted, referencedSecrets, secretNames } from '../../main/config/pasted-entry.js';

const valid = (entries: unknown[]) => configSchema.safeParse({ gateway: { servers: entries } }).success;

describe('parsePasted', () => {
  it("Claude Desktop's mcpServers: the command, its args and env, a secret turned into a reference", () => {
    const pasted = parsePasted(
      JSON.stringify({
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', LOG: 'info' },
          },
        },
      }),
    );
    expect(pasted.entries).toEqual([
      {
        name: 'github',
        prefix: 'github',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: { secret: 'github/GITHUB_PERSONAL_ACCESS_TOKEN' }, LOG: 'info' },
      },
    ]);
    expect(JSON.stringify(pasted)).not.toContain('ghp_');
    expect(pasted.notes.join('\n')).toContain('chatgpt-mcp gateway set-secret github/GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(pasted.notes.join('\n')).toContain('npx downloads the server');
    expect(valid(pasted.entries)).toBe(true);
  });

  it("keeps settings whose names only resemble a secret's as they are, and still takes the secrets beside them", () => {
    const pasted = parsePasted(
      JSON.stringify({
        mcpServers: {
          llm: {
            command: 'llm-mcp',
            env: { MAX_TOKENS: '4096', GIT_AUTHOR_NAME: 'Alex', SESSION_DIR: '/tmp/llm', PWD: '/home/me', OPENAI_API_KEY: 'hunter2hunter2', DB_PASS: 'pw' },
          },
        },
      }),
    );
    expect(pasted.entries[0]!.env).toEqual({
      MAX_TOKENS: '4096',
      GIT_AUTHOR_NAME: 'Alex',
      SESSION_DIR: '/tmp/llm',
      PWD: '/home/me',
      OPENAI_API_KEY: { secret: 'llm/OPENAI_API_KEY' },
      DB_PASS: { secret: 'llm/DB_PASS' },
    });
    expect(valid(pasted.entries)).toBe(true);
  });

  it('one member of the object, as copied from a README, and a bare entry', () => {
    expect(parsePasted('"memory": { "command": "node", "args": ["/opt/memory/index.js"] },').entries[0]).toMatchObject({ name: 'memory', command: 'node' });
    expect(parsePasted('{"command": "uvx", "args": ["mcp-server-time"]}').entries[0]).toMatchObject({ name: 'server', command: 'uvx' });
  });

  it("Cursor's URL entry with an Authorization header: a bearer token reference", () => {
    const pasted = parsePasted(
      '{"mcpServers": {"remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer abc.def", "X-Team": "a"}}}}',
    );
    expect(pasted.entries[0]).toEqual({ name: 'remote', prefix: 'remote', url: 'https://mcp.example.com/mcp', bearerToken: { secret: 'remote/token' } });
    expect(pasted.notes.join('\n')).toContain('X-Team were not carried over');
    expect(JSON.stringify(pasted)).not.toContain('abc.def');
    expect(valid(pasted.entries)).toBe(true);
  });

  it("Codex's [mcp_servers.NAME] TOML, with its timeouts and disabled tools", () => {
    const pasted = parsePasted(
      [
        '[mcp_servers.my_docs]',
        'command = "docs-server"',
        'args = ["--root", "/srv/docs"]',
        'startup_timeout_sec = 20',
        'tool_timeout_sec = 45',
        'disabled_tools = ["delete"]',
        '',
        '[mcp_servers.my_docs.env]',
        'API_KEY = "s3cret-value"',
        'MODE = "ro"',
      ].join('\n'),
    );
    expect(pasted.entries[0]).toEqual({
      name: 'my_docs',
      prefix: 'mydocs',
      command: 'docs-server',
      args: ['--root', '/srv/docs'],
      env: { API_KEY: { secret: 'my_docs/API_KEY' }, MODE: 'ro' },
      startupTimeoutMs: 20_000,
      callTimeoutMs: 45_000,
      tools: { exclude: ['delete'] },
    });
    expect(valid(pasted.entries)).toBe(true);
  });

  it("Codex's allow-list, passed-through variables, bearer variable and a timeout past the gateway's, kept within it", () => {
    const pasted = parsePasted(
      [
        '[mcp_servers.docs]',
        'command = "docs-server"',
        'enabled_tools = ["search", "fetch"]',
        'env_vars = ["DOCS_KEY", "PATH"]',
        'startup_timeout_ms = 900000',
        '',
        '[mcp_servers.lab]',
        'url = "https://lab.example.com/mcp"',
        'bearer_token_env_var = "LAB_TOKEN"',
      ].join('\n'),
    );
    expect(pasted.entries).toEqual([
      {
        name: 'docs',
        prefix: 'docs',
        command: 'docs-server',
        env: { DOCS_KEY: { secret: 'docs/DOCS_KEY' } },
        startupTimeoutMs: 300_000,
        tools: { include: ['search', 'fetch'] },
      },
      { name: 'lab', prefix: 'lab', url: 'https://lab.example.com/mcp', bearerToken: { secret: 'lab/token' } },
    ]);
    const notes = pasted.notes.join('\n');
    expect(notes).toContain('docs: env_vars DOCS_KEY came from Codex');
    expect(notes).toContain('docs: its start-up timeout of 900 s is outside what the gateway takes (1-300 s): 300 s.');
    expect(notes).toContain('lab: store its bearer token as lab/token');
    expect(notes).not.toContain('lab: it runs sandboxed');
    expect(valid(pasted.entries)).toBe(true);
  });

  it("VS Code's servers with inputs, Claude Code's ${VAR}: values their host fills in become references, and none is copied", () => {
    const pasted = parsePasted(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'gh', password: true }],
        servers: {
          github: {
            type: 'stdio',
            command: 'github-mcp-server',
            args: ['--root', '${workspaceFolder}'],
            env: { GH: '${input:gh}', LEVEL: 'info' },
            envFile: '${workspaceFolder}/.env',
          },
          api: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
        },
      }),
    );
    expect(pasted.entries).toEqual([
      {
        name: 'github',
        prefix: 'github',
        command: 'github-mcp-server',
        args: ['--root', '${workspaceFolder}'],
        env: { GH: { secret: 'github/GH' }, LEVEL: 'info' },
      },
      { name: 'api', prefix: 'api', url: 'https://api.example.com/mcp', bearerToken: { secret: 'api/token' } },
    ]);
    const notes = pasted.notes.join('\n');
    expect(notes).toContain('github: its command line holds ${workspaceFolder}, which its host fills in: write the value itself.');
    expect(notes).toContain('github: store GH as github/GH under "Secrets"');
    expect(notes).toContain('the entry had ${input:gh}, which its host fills in');
    expect(notes).toContain('github: its envFile is not read');
    expect(valid(pasted.entries)).toBe(true);
  });

  it("Cline's and Zed's shapes: auto-approval and keys with no setting here are named, an SSE server is told apart", () => {
    const cline = parsePasted(
      JSON.stringify({
        mcpServers: {
          weather: {
            command: 'node',
            args: ['/opt/weather.js'],
            disabled: false,
            autoApprove: ['forecast'],
            timeout: 90,
            transportType: 'stdio',
            autoStart: true,
          },
          old: { url: 'https://old.example.com/sse', transportType: 'sse' },
        },
      }),
    );
    expect(cline.entries).toEqual([
      { name: 'weather', prefix: 'weather', command: 'node', args: ['/opt/weather.js'], enabled: true, callTimeoutMs: 90_000 },
      { name: 'old', prefix: 'old', url: 'https://old.example.com/sse' },
    ]);
    const notes = cline.notes.join('\n');
    expect(notes).toContain('weather: its auto-approved tools were not carried over');
    expect(notes).toContain('weather: not carried over (no such setting here): autoStart.');
    expect(notes).toContain('old: it speaks SSE, the older HTTP transport');
    const zed = parsePasted(
      JSON.stringify({
        context_servers: { 'mcp-time': { source: 'custom', command: { path: 'uvx', args: ['mcp-server-time'], env: { TZ: 'UTC' } }, settings: {} } },
      }),
    );
    expect(zed.entries).toEqual([{ name: 'mcp-time', prefix: 'mcptime', command: 'uvx', args: ['mcp-server-time'], env: { TZ: 'UTC' } }]);
    expect(zed.notes.join('\n')).toContain('mcp-time: not carried over (no such setting here): settings.');
    expect(valid([...cline.entries, ...zed.entries])).toBe(true);
  });

  it('variable names that objects have already stay plain names; __proto__ and what is no variable name are left out, before any note names them', () => {
    const pasted = parsePasted(
      '{"s": {"command": "srv", "env": {"__proto__": "x", "X$(touch /tmp/p)": "${input:t}", "N": {"a": 1}}, "env_vars": ["constructor"]}}',
    );
    const env = pasted.entries[0]!.env!;
    expect(Object.keys(env)).toEqual(['constructor']);
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
    const notes = pasted.notes.join('\n');
    expect(notes).toContain('s: left out of env: __proto__, a name that is not a variable name, N');
    expect(notes).not.toContain('touch');
  });

  it('a working folder that is not a full path is left for the owner to set', () => {
    const pasted = parsePasted('{"srv": {"command": "srv", "cwd": "./app"}}');
    expect(pasted.entries[0]).toEqual({ name: 'srv', prefix: 'srv', command: 'srv' });
    expect(pasted.notes.join('\n')).toContain('srv: its working folder is not a full path here: set cwd yourself.');
  });

  it('a secret name stored already is never reused: the reference gets a name of its own, and the note says so', () => {
    const text = '{"github": {"url": "http://127.0.0.1:18777/mcp", "headers": {"Authorization": "Bearer ${input:pat}"}, "env": {}}}';
    const pasted = parsePasted(text, new Set(['github/token', 'github/token-2']));
    expect(pasted.entries[0]!.bearerToken).toEqual({ secret: 'github/token-3' });
    expect(pasted.notes.join('\n')).toContain(
      "the secret name github/token is taken (stored already, or another entry's): this entry refers to github/token-3 instead",
    );
    expect(secretNames(parsePasted(text).entries)).toEqual(['github/token']);
    const servers = [
      { name: 'gh-work', url: 'https://api.example/mcp', bearerToken: { secret: 'github/token' }, env: { A: { secret: 'x/A' }, B: 'plain' } },
      'junk',
    ];
    expect([...referencedSecrets(servers)]).toEqual(['github/token', 'x/A']);
  });

  it("secrets in a README's shapes stay behind: a placeholder's default, a header in JSON, a connection string, a key after its flag", () => {
    const pasted = parsePasted(
      JSON.stringify({
        mcpServers: {
          notion: {
            command: 'notion-mcp',
            env: { OPENAPI_MCP_HEADERS: '{"Authorization": "Bearer ntn_abcdefghijklmnop1234", "Notion-Version": "2022-06-28"}' },
          },
          db: {
            command: 'pg-mcp',
            args: [
              'postgresql://admin:hunter2@db.internal/prod',
              '--api-key',
              'hunter2-very-secret',
              '--token=abc',
              '--level',
              '${LEVEL:-sk-live-abcdefghijklmnopqrstuvwx}',
            ],
            env: {
              DATABASE_URL: 'postgres://admin:hunter2@db/x',
              API_KEY: '${API_KEY:-sk-live-abcdefghijklmnopqrstuvwx}',
              PEM: '-----BEGIN RSA PRIVATE KEY-----\nMII',
              DIR: '${workspaceFolder}/data',
            },
          },
          sig: { url: 'https://h.example/mcp?x=${TOKEN:-sk-live-abcdefghijklmnopqrstuvwx}' },
        },
      }),
    );
    const [notion, db, sig] = pasted.entries;
    expect(notion!.env).toEqual({ OPENAPI_MCP_HEADERS: { secret: 'notion/OPENAPI_MCP_HEADERS' } });
    expect(db!.args).toEqual([
      'postgresql://admin:SECRET-NOT-COPIED@db.internal/prod',
      '--api-key',
      'SECRET-NOT-COPIED',
      '--token=SECRET-NOT-COPIED',
      '--level',
      '${LEVEL}',
    ]);
    expect(db!.env).toEqual({
      DATABASE_URL: { secret: 'db/DATABASE_URL' },
      API_KEY: { secret: 'db/API_KEY' },
      PEM: { secret: 'db/PEM' },
      DIR: '${workspaceFolder}/data',
    });
    expect(sig!.url).toBe('https://h.example/mcp?x=${TOKEN}');
    const all = JSON.stringify(pasted);
    for (const secret of ['hunter2', 'ntn_', 'sk-live', 'BEGIN RSA']) expect(all).not.toContain(secret);
    expect(pasted.notes.join('\n')).toContain('db: 3 of its arguments looked secret and read SECRET-NOT-COPIED instead');
    expect(pasted.notes.join('\n')).toContain('the entry had ${API_KEY}, which its host fills in');
  });

  it('more of what READMEs carry stays behind: a name that says password, a Redis URL, query keys, NAME=value arguments, header and flag forms, the command', () => {
    const pasted = parsePasted(
      JSON.stringify({
        mcpServers: {
          m: {
            command: 'API_KEY=pw0123456789 npx',
            args: [
              '-e',
              'DB_PASSWORD=pw',
              '--env=OPENAI_KEY=abc',
              '--secret-key',
              'v1',
              '--header',
              'x-api-key: pw',
              'https://server.smithery.ai/x/mcp?api_key=0d1e',
              '--api-key=abc',
              'postgresql://h/db?user=u&password=pw',
            ],
            env: { MYSQL_PASS: 'Sup3r', REDIS_URL: 'redis://:pw@host:6379', LIBPQ: 'host=h password=pw', GROQ: 'gsk_abcdefghijklmnopqrstuv' },
          },
        },
      }),
    );
    const [m] = pasted.entries;
    expect(m!.command).toBe('SECRET-NOT-COPIED');
    expect(m!.args).toEqual([
      '-e',
      'SECRET-NOT-COPIED',
      '--env=SECRET-NOT-COPIED',
      '--secret-key',
      'SECRET-NOT-COPIED',
      '--header',
      'SECRET-NOT-COPIED',
      'SECRET-NOT-COPIED',
      '--api-key=SECRET-NOT-COPIED',
      'SECRET-NOT-COPIED',
    ]);
    expect(Object.values(m!.env!).every((value) => typeof value === 'object')).toBe(true);
    for (const secret of ['pw', 'abc', 'v1', '0d1e', 'Sup3r', 'gsk_']) expect(JSON.stringify(m)).not.toMatch(new RegExp(`[^a-z]${secret}`));
    // The config takes what the paste wrote, --api-key=SECRET-NOT-COPIED included.
    expect(valid(pasted.entries)).toBe(true);
  });

  it('ordinary arguments stay as they are: ports, key and credential files, paths with Basic or Token in them', () => {
    const args = [
      '--port',
      '8080',
      '--key-file',
      '/k',
      '--credentials',
      '/c.json',
      '--key',
      '/home/me/.ssh/id_ed25519',
      '/Users/alice/Token Economics/q1',
      '--max-tokens',
      '100',
      'postgres://localhost/db',
    ];
    expect(parsePasted(JSON.stringify({ s: { command: 'x', args } })).entries[0]!.args).toEqual(args);
  });

  it('grants are never taken from a paste, names that clean alike are told apart, a tool list that is not one exposes nothing', () => {
    const pasted = parsePasted(
      JSON.stringify({ mcpServers: { 'a b': { command: 'x', network: true, folders: ['/'], sandbox: false, enabled_tools: 'all' }, 'a-b': { command: 'y' } } }),
    );
    expect(pasted.entries.map((e) => [e.name, e.prefix])).toEqual([
      ['a-b', 'ab'],
      ['a-b-2', 'ab2'],
    ]);
    expect(pasted.entries[0]).toEqual({ name: 'a-b', prefix: 'ab', command: 'x', tools: { include: [] } });
    const notes = pasted.notes.join('\n');
    expect(notes).toContain('a-b: not taken from a paste (set them here once you have read the entry): network, folders, sandbox.');
    expect(notes).toContain('a-b: its enabled_tools is not a list: no tool is exposed');
  });

  it('a paste of a megabyte of what each pattern looks for costs linear time, and one past the size limit is refused', () => {
    for (const piece of ['${env:', '${A:-', 'a', '-eyJ', 'Bearer ', 'a://b:', 'x=']) {
      const started = performance.now();
      const value = piece.repeat(Math.floor(300_000 / piece.length));
      parsePasted(JSON.stringify({ s: { command: 'x', args: [value, 'y'], env: { A: value, B: value.slice(0, 4000) } } }));
      expect(performance.now() - started, piece).toBeLessThan(2000);
    }
    expect(() => parsePasted(`{"s": {"command": "x", "args": ["${'a'.repeat(MAX_PASTE_CHARS)}"]}}`)).toThrow(/an entry is far shorter/);
  });

  it('what is not an entry says what is expected', () => {
    expect(() => parsePasted('')).toThrow(/Paste an "mcpServers" entry .* a "servers" entry \(VS Code\)/);
    expect(() => parsePasted('hello there')).toThrow(/neither JSON nor TOML/);
    expect(() => parsePasted('[other]\nx = 1')).toThrow(/Expected \[mcp_servers.NAME\] tables/);
    expect(() => parsePasted('{"mcpServers": {"x": {"args": []}}}')).toThrow(/"x" has neither "command" nor "url"/);
  });
});
