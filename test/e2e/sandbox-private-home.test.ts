/**
 * shell.sandbox "private-home": the owner's home is hidden from commands except the roots and the
 * toolchain folders. A file in ~/Documents outside the roots is unreadable by cat and python3
 * (and readable in "workspace", so the test can fail); the common toolchains run exactly as they
 * do in "workspace". The toolchain half runs with the real HOME, whose toolchains (pyenv, rustup
 * and cargo) it only reads: the sandbox keeps the home read-only, and the server's own state goes
 * to a temp XDG_CONFIG_HOME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectModernStdio, type TestClient } from '../helpers/clients.js';
import { childEnv } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const linuxWithBwrap = process.platform === 'linux' && fs.existsSync('/usr/bin/bwrap');
const SECRET = 'PRIVATE-DOCUMENT-4b1e';

type Run = { exitCode: number | null; stdout: string; stderr: string };

async function exec(client: TestClient, command: string, args: string[], cwd: string): Promise<Run> {
  const result = await client.callTool({ name: 'shell.exec', arguments: { command, args, cwd } });
  if (result.isError) return { exitCode: null, stdout: '', stderr: JSON.stringify(result.content).slice(0, 300) };
  return result.structuredContent as Run;
}

async function serve(dir: string, env: NodeJS.ProcessEnv, mode: string, roots: string[], commands: string[]): Promise<TestClient> {
  const config = writeJson(path.join(dir, `${mode}.json`), {
    filesystem: { read: true, write: true, roots },
    shell: { enabled: true, allowedCommands: commands, sandbox: mode, maxRuntimeMs: 180_000 },
  });
  return connectModernStdio(['--config', config], env as Record<string, string>);
}

describe.skipIf(!linuxWithBwrap)('the private-home sandbox', () => {
  const open: TestClient[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    dirs.forEach(removeDir);
  });

  it('hides a file in ~/Documents outside the roots from cat and python3', async () => {
    const home = makeTempDir();
    dirs.push(home);
    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    fs.mkdirSync(path.join(home, 'Documents'));
    const secret = path.join(home, 'Documents', 'taxes.txt');
    fs.writeFileSync(secret, SECRET);
    const env = childEnv(home);
    const read = ['-c', `print(open(${JSON.stringify(secret)}).read())`];
    for (const mode of ['workspace', 'private-home']) {
      const client = await serve(home, env, mode, [project], ['cat', '/usr/bin/python3']);
      open.push(client);
      const cat = await exec(client, 'cat', [secret], project);
      const python = await exec(client, '/usr/bin/python3', read, project);
      if (mode === 'workspace') {
        // Without hiding the home, a granted cat reads it: what this mode exists to stop.
        expect(cat.stdout).toBe(SECRET);
        expect(python.stdout.trim()).toBe(SECRET);
      } else {
        expect(cat).toMatchObject({ exitCode: 1, stdout: '' });
        expect(cat.stderr).toMatch(/No such file or directory/);
        expect(python.exitCode).toBe(1);
        expect(python.stdout).toBe('');
        expect(python.stderr).toMatch(/FileNotFoundError/);
        // The root stays readable and writable.
        expect(await exec(client, '/usr/bin/python3', ['-c', 'open("made.txt", "w").write("x")'], project)).toMatchObject({ exitCode: 0 });
        expect(fs.readFileSync(path.join(project, 'made.txt'), 'utf8')).toBe('x');
      }
    }
  }, 120_000);

  it('runs the common toolchains as "workspace" does', async () => {
    const home = os.homedir();
    const dir = makeTempDir();
    dirs.push(dir);
    const project = path.join(dir, 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'hello.js'), 'console.log("node ok")\n');
    fs.writeFileSync(path.join(project, 'hello.py'), 'import sys; print("python", sys.version_info[0])\n');
    fs.writeFileSync(path.join(project, 'hello.go'), 'package main\nimport "fmt"\nfunc main() { fmt.Println("go ok") }\n');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', scripts: { hi: 'node hello.js' } }));
    fs.writeFileSync(path.join(project, 'Cargo.toml'), '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n');
    fs.writeFileSync(path.join(project, 'src', 'main.rs'), 'fn main() { println!("cargo ok"); }\n');
    // The real home's toolchains on the PATH; the server's own state in the temp dir.
    const extraPath = [path.join(home, '.cargo', 'bin'), path.join(home, '.pyenv', 'shims')].filter((p) => fs.existsSync(p));
    const env: NodeJS.ProcessEnv = { ...childEnv(dir, { PATH: [...extraPath, process.env.PATH].join(':') }), HOME: home };
    const runs: Array<[string, string, string[]]> = [
      ['node', 'node', ['hello.js']],
      ['npm', 'npm', ['run', '--silent', 'hi']],
      ['python3 (pyenv)', 'python3', ['hello.py']],
      ['cargo', 'cargo', ['run', '--offline', '--quiet']],
      ['go', 'go', ['version']],
      ['go run', 'go', ['run', 'hello.go']],
      ['git', 'git', ['status', '--short']],
    ].filter(([, command]) => which(command as string, env.PATH!)) as Array<[string, string, string[]]>;
    // git status needs a repository in the project (made here: git init would read the real ~/.gitconfig).
    fs.mkdirSync(path.join(project, '.git', 'objects'), { recursive: true });
    fs.mkdirSync(path.join(project, '.git', 'refs'), { recursive: true });
    fs.writeFileSync(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const results: Record<string, Record<string, Run>> = {};
    for (const mode of ['workspace', 'private-home']) {
      const client = await serve(dir, env, mode, [project], [...new Set(runs.map(([, command]) => command))]);
      open.push(client);
      results[mode] = {};
      for (const [label, command, args] of runs) results[mode]![label] = await exec(client, command, args, project);
      if (mode === 'private-home') {
        // A real file in the real home, outside the list: hidden (read only by this check).
        const profile = ['.bashrc', '.profile'].map((f) => path.join(home, f)).find((f) => fs.existsSync(f));
        if (profile && which('cat', env.PATH!)) {
          const catClient = await serve(dir, env, 'private-home', [project], ['cat']);
          open.push(catClient);
          expect((await exec(catClient, 'cat', [profile], project)).exitCode).toBe(1);
        }
      }
    }
    const table = runs.map(
      ([label]) => `${label}: workspace ${summary(results.workspace![label]!)}, private-home ${summary(results['private-home']![label]!)}`,
    );
    process.stderr.write(`toolchains in the sandbox:\n  ${table.join('\n  ')}\n`);
    for (const [label] of runs) expect(summary(results['private-home']![label]!), label).toBe(summary(results.workspace![label]!));
    expect(results['private-home']!.node!.stdout).toBe('node ok\n');
  }, 600_000);
});

function which(command: string, PATH: string): boolean {
  return PATH.split(':').some((dir) => fs.existsSync(path.join(dir, command)));
}

function summary(run: Run): string {
  return run.exitCode === 0 ? `ok (${run.stdout.trim().split('\n')[0]})` : `exit ${run.exitCode}: ${run.stderr.trim().split('\n').at(-1)?.slice(0, 120)}`;
}
