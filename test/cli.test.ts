/**
 * The CLI as a person runs it: the built out/main/cli.js as a child process with a temp HOME.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandsWarning } from '../renderer/src/dangers.js';
import { toDraft } from '../renderer/src/draft.js';
import { CLI, childEnv, runCli } from './helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from './helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

describe('serve and config check fail closed on a malformed config', () => {
  it('exits non-zero before listening, with one message naming file, key and expectation', async () => {
    const file = writeJson(path.join(dir, 'bad.json'), { server: { port: 'eighty' }, shell: { enabled: true, allowedCommands: [''] } });
    const run = await runCli(['serve', '--http', '--config', file], childEnv(dir));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`Invalid configuration in ${file}`);
    expect(run.stderr).toContain('server.port: expected a port number');
    expect(run.stderr).toContain('shell.allowedCommands[0]: must not be empty');
    expect(run.stderr).not.toContain('listening');
  });

  it('fails closed for stdio too, writing nothing on stdout', async () => {
    const file = writeJson(path.join(dir, 'bad.json'), { nope: 1 });
    const run = await runCli(['serve', '--stdio', '--config', file], childEnv(dir));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('config check prints the effective config with secrets masked', async () => {
    const file = writeJson(path.join(dir, 'c.json'), { server: { token: 'cli-secret-token-123456' }, filesystem: { roots: [dir] } });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir, { CHATGPT_MCP_PORT: '4321' }));
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { server: { port: number; token: string }; filesystem: { roots: string[] } };
    expect(printed.server.port).toBe(4321);
    expect(printed.server.token).toBe('<redacted>');
    expect(printed.filesystem.roots).toEqual([dir]);
    expect(run.stdout + run.stderr).not.toContain('cli-secret-token-123456');
    expect(run.stderr).toContain('configuration is valid');
  });

  it('config path prints the file in use even when it is invalid', async () => {
    const file = writeJson(path.join(dir, 'broken.json'), { nope: true });
    const run = await runCli(['config', 'path', '--config', file], childEnv(dir));
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(file);
    const fallback = await runCli(['config', 'path'], childEnv(dir));
    expect(fallback.stdout.trim()).toBe(path.join(dir, '.config', 'chatgpt-mcp', 'config.json'));
  });

  it('answers --version, --help, and usage errors', async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await runCli(['--version'], childEnv(dir))).stdout.trim()).toBe(pkg.version);
    const help = await runCli(['--help'], childEnv(dir));
    expect(help.stdout).toContain('serve --stdio');
    // Hints name the CLI as it was started here: node and the script's path.
    const name = `node ${path.relative(process.cwd(), CLI)}`;
    expect(help.stdout).toContain(`  ${name} token [show]`);
    const init = await runCli(['config', 'init', '--help'], childEnv(dir));
    expect(init.stdout.startsWith(`Usage:\n  ${name} config init  create the config file`)).toBe(true);
    expect(init.stdout).not.toContain('token');
    expect(init.stdout).not.toContain('--tunnel-id');
    expect((await runCli(['frobnicate'], childEnv(dir))).stderr).toContain('unknown command "frobnicate"');
  });
});

describe('usage errors exit 64 in our own words', () => {
  it.each([
    [['serve', '--token', 'x'], /there is no --token option .*server\.token.*CHATGPT_MCP_TOKEN/],
    [['serve', '--token=x'], /there is no --token option/],
    [['serve', '--frob'], /^chatgpt-mcp: unknown option --frob$/m],
    [['serve', '--prot', '3210'], /^chatgpt-mcp: unknown option --prot \(did you mean --port\?\)$/m],
    [['tunnel', 'start', '--tunel-id', 'x'], /unknown option --tunel-id \(did you mean --tunnel-id\?\)/],
    [['serve', '--port', 'abc'], /--port abc: expected a port number from 0 to 65535/],
    [['serve', '--port', '70000'], /--port 70000: expected a port number/],
    [['serve', '--port'], /--port needs a value/],
    [['config', 'frob'], /expected "config check", "config path" or "config init"/],
  ])('%j', async (args, message) => {
    const run = await runCli(args, childEnv(dir));
    expect(run.code).toBe(64);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });
});

describe('config check applies every rule serve applies, and warns', () => {
  it('refuses a bind address serve refuses', async () => {
    const file = writeJson(path.join(dir, 'c.json'), { server: { host: '0.0.0.0' } });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/server would refuse to start over HTTP \(serve --http\): Refusing to listen on 0\.0\.0\.0/);
  });

  const tokenFile = () => path.join(dir, '.config', 'chatgpt-mcp', 'token');
  it.each([
    ['a public tunnel host with server.auth "none"', { server: { auth: 'none', allowedHosts: ['abc.trycloudflare.com'] } }, null],
    ['OAuth with several public hosts and no publicUrl', { server: { auth: 'oauth', allowedHosts: ['a.example.com', 'b.example.com'] } }, null],
    ['OAuth beyond loopback without publicUrl', { server: { auth: 'bearer+oauth', host: '0.0.0.0', allowNonLoopback: true, token: 'x'.repeat(32) } }, null],
    ['a token file that holds no usable token', {}, 'short\n'],
    ['a token file that cannot be read (a folder)', {}, 'folder'],
  ])('refuses %s with the message serve gives', async (_name, settings, token) => {
    const file = writeJson(path.join(dir, 'c.json'), settings);
    if (token === 'folder') fs.mkdirSync(tokenFile(), { recursive: true });
    else if (token) {
      fs.mkdirSync(path.dirname(tokenFile()), { recursive: true });
      fs.writeFileSync(tokenFile(), token, { mode: 0o600 });
    }
    const serve = await runCli(['serve', '--http', '--port', '0', '--config', file], childEnv(dir));
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).not.toContain('listening');
    const message = serve.stderr
      .trim()
      .split('\n')
      .at(-1)!
      .replace(/^chatgpt-mcp: /, '');
    expect(message).toMatch(/Refusing|OAuth|token file/);
    const check = await runCli(['config', 'check', '--port', '0', '--config', file], childEnv(dir));
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(`server would refuse to start over HTTP (serve --http): ${message}`);
    expect(check.stdout).toBe('');
    if (token === 'short\n') expect(fs.readFileSync(tokenFile(), 'utf8')).toBe('short\n'); // check changes nothing
  });

  it('creates no token file, and passes when serve would create one', async () => {
    const file = writeJson(path.join(dir, 'c.json'), {});
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code).toBe(0);
    expect(fs.existsSync(tokenFile())).toBe(false);
  });

  it('lists the tools by the names clients see', async () => {
    const file = writeJson(path.join(dir, 'c.json'), { filesystem: { roots: [dir] } });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.stderr).toMatch(/tools exposed \(profile "Full"\): .*\bsystem_info\b.*\bfs_list\b/);
    expect(run.stderr).not.toContain('system.info');
    const dotted = writeJson(path.join(dir, 'd.json'), { server: { toolNames: 'dotted' }, filesystem: { roots: [dir] } });
    expect((await runCli(['config', 'check', '--config', dotted], childEnv(dir))).stderr).toMatch(
      /tools exposed \(profile "Full"\): .*\bsystem\.info\b.*\bfs\.list\b/,
    );
  });

  it('says which profile each kind of caller gets, and how many tools that leaves it', async () => {
    const file = writeJson(path.join(dir, 'p.json'), {
      filesystem: { roots: [dir], write: true },
      profiles: { active: 'Read-only', token: 'Coding', clients: { 'phone-client': 'Desktop' } },
    });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code).toBe(0);
    const exposed = /tools exposed \(profile "Read-only"\): (.*)/.exec(run.stderr)![1]!.split(', ');
    expect(exposed).toContain('fs_read');
    expect(exposed).not.toContain('fs_write');
    expect(run.stderr).toContain(`profiles: stdio hosts and unbound callers: "Read-only" (profiles.active), ${exposed.length} of the granted tools;`);
    expect(run.stderr).toMatch(
      /profiles: callers with the static token: "Coding" \(profiles.token binds the static token\), \d+ of the granted tools; it allows read files/,
    );
    expect(run.stderr).toMatch(/profiles: the OAuth client phone-client: "Desktop" \(profiles.clients binds this OAuth client\), \d+ of the granted tools/);
  });

  it('warns about "*" in the words the settings window uses for the same config', async () => {
    const file = writeJson(path.join(dir, 'c.json'), { shell: { enabled: true, allowedCommands: ['*'], sandbox: 'off' } });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code).toBe(0);
    const draft = toDraft({ shell: { enabled: true, allowedCommands: ['*'], sandbox: 'off' } });
    expect(run.stderr).toContain(`warning: shell.allowedCommands is ["*"]: ${commandsWarning(draft, process.platform)}`);
    expect(run.stderr).toContain("with your account's rights");
  });

  it('warns about grants that cannot work as meant', async () => {
    const file = writeJson(path.join(dir, 'c.json'), {
      filesystem: { roots: [path.join(dir, 'missing'), path.join(dir, 'c.json')] },
      shell: { allowedCommands: ['git'] },
      desktop: { screen: true },
    });
    const run = await runCli(['config', 'check', '--config', file], childEnv(dir));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: filesystem\.roots\[0\]: .*missing does not exist/);
    expect(run.stderr).toMatch(/warning: filesystem\.roots\[1\]: .* is not a directory/);
    expect(run.stderr).toMatch(/warning: shell\.allowedCommands is set, but shell\.enabled is false/);
    expect(run.stderr).toMatch(/warning: desktop\.screen is on, but the master switch desktop\.hostDisplayAccess is off/);
  });
});

describe('config path and config init', () => {
  it('says when the file does not exist yet', async () => {
    const run = await runCli(['config', 'path'], childEnv(dir));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/does not exist yet.*config init/);
  });

  it('creates an owner-only config with the given grants and no token (the token file stays the token), and never replaces one without --force', async () => {
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    const env = childEnv(dir);
    const made = await runCli(['config', 'init', '--root', project, '--read-only-root', dir, '--command', 'ls', '--write'], env);
    expect(made.code).toBe(0);
    const file = made.stdout.trim();
    expect(file).toBe(path.join(dir, '.config', 'chatgpt-mcp', 'config.json'));
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.server.token).toBeUndefined();
    expect(written.filesystem).toMatchObject({ write: true, roots: [project, { path: dir, readOnly: true }] });
    expect(written.shell).toMatchObject({ enabled: true, allowedCommands: ['ls'] });
    expect(made.stderr).toMatch(/the first start creates the token; ".* token show" prints it/);

    const again = await runCli(['config', 'init', '--root', project], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists.*--force/);
    expect((await runCli(['config', 'init', '--root', project, '--force'], env)).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).server.token).toBeUndefined();
  });

  it.runIf(typeof process.getuid === 'function' && process.getuid() === 0)('explains a config file this user may not read (run as another user)', async () => {
    const file = writeJson(path.join(dir, 'private.json'), {});
    fs.chmodSync(dir, 0o755);
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [CLI, 'config', 'check', '--config', file], { env: childEnv(dir), uid: 65534, gid: 65534, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`Cannot read config file ${file}: permission denied (EACCES): this user may not read it; check its owner and mode (ls -l)`);
  });

  it('refuses a folder that does not exist, naming it, and writes nothing', async () => {
    const run = await runCli(['config', 'init', '--root', path.join(dir, 'nope')], childEnv(dir));
    expect(run.code).toBe(64);
    expect(run.stderr).toContain(`--root: ${path.join(dir, 'nope')} does not exist: create it first, or name another folder`);
    expect(fs.existsSync(path.join(dir, '.config', 'chatgpt-mcp', 'config.json'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')(
    'asks on a terminal, checking each answer as it is given, expanding ~',
    async () => {
      fs.mkdirSync(path.join(dir, 'project'));
      // `script` gives the CLI a real terminal; the answers are typed into it one by one.
      const { spawn } = await import('node:child_process');
      const child = spawn('script', ['-qec', `"${process.execPath}" "${CLI}" config init`, '/dev/null'], {
        env: childEnv(dir),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      const answers = ['projects/x', '~/project', '', 'rg'];
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (/: $/.test(out.trimEnd() + ' ') && answers.length) child.stdin.write(`${answers.shift()}\n`);
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(out).toContain(`projects/x: give the whole path, like ${path.join(dir, 'projects')} (or ~/projects)`);
      const written = JSON.parse(fs.readFileSync(path.join(dir, '.config', 'chatgpt-mcp', 'config.json'), 'utf8'));
      expect(written.filesystem).toMatchObject({ write: true, roots: [path.join(dir, 'project')] });
      expect(written.shell).toMatchObject({ enabled: true, allowedCommands: ['rg'] });
    },
    30_000,
  );

  it('refuses a relative folder', async () => {
    const run = await runCli(['config', 'init', '--root', 'relative/dir'], childEnv(dir));
    expect(run.code).toBe(64);
    expect(fs.existsSync(path.join(dir, '.config', 'chatgpt-mcp', 'config.json'))).toBe(false);
  });
});
