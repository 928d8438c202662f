/**
 * fs.edit and fs.patch end to end: real servers on loopback, real v2 and v1 clients, real temp
 * trees. Each refusal is checked to leave every file as it was.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GuardedPath } from '../../adapter/contract/files.js';
import { adapterWith, localAdapter } from '../helpers/adapter.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir } from '../helpers/temp.js';
import { makeUnwritable } from '../helpers/unwritable.js';

let home: string;
let root: string;
let ro: string;
let outside: string;
let configFile: string;
let server: TestHttpServer;
/** Runs once between the edited file's read and its write, as another program would. */
let betweenReadAndWrite: (() => void) | undefined;

const at = (...parts: string[]) => path.join(root, ...parts);
const sha = (data: string) => createHash('sha256').update(data).digest('hex');

/** Every file under `dir`: path -> content (folders as "dir/"), to prove nothing changed. */
function snapshot(dir: string, base = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(path.join(dir, entry.name))}`;
    else if (entry.isDirectory()) Object.assign(out, { [`${rel}/`]: '' }, snapshot(path.join(dir, entry.name), rel));
    else out[rel] = fs.readFileSync(path.join(dir, entry.name), 'utf8');
  }
  return out;
}
/** The root's files, the config file aside. */
function rootFiles(): Record<string, string> {
  const { [path.basename(configFile)]: _config, ...files } = snapshot(root);
  return files;
}
const everything = () => ({ root: snapshot(root), outside: snapshot(outside), config: fs.readFileSync(configFile, 'utf8') });

function tree(files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(at(name)), { recursive: true });
    fs.writeFileSync(at(name), content);
  }
}

beforeAll(async () => {
  ({ home, root, outside } = makeRootAndOutside());
  ro = path.join(home, 'ro');
  fs.mkdirSync(ro);
  // The config in use lives inside a root here: the policy must still refuse it.
  configFile = path.join(root, 'app-config.json');
  const base = localAdapter();
  // The real adapter; fs.edit's file gets a confirm that lets a test act between read and write.
  const files = {
    ...base.files,
    editTextFile: (file: GuardedPath, ...rest: Parameters<typeof base.files.editTextFile> extends [unknown, ...infer R] ? R : never) => {
      let confirms = 0;
      const racing: GuardedPath = {
        path: file.path,
        confirm: (real) => {
          file.confirm(real);
          if (++confirms === 2) betweenReadAndWrite?.();
        },
      };
      return base.files.editTextFile(racing, ...rest);
    },
  };
  server = await startTestServer(
    { filesystem: { write: true, roots: [root, { path: ro, readOnly: true }], maxWriteBytes: 4096, deny: ['**/private/**'] } },
    { adapter: adapterWith({ files }, base), protectedFiles: [configFile] },
  );
});
afterAll(async () => {
  await server.close();
  removeDir(home);
});
beforeEach(() => {
  betweenReadAndWrite = undefined;
  for (const dir of [root, outside, ro]) for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  fs.writeFileSync(configFile, '{"server":{"token":"CONFIG-SECRET"}}');
});

describe.each([
  ['modern', connectModernHttp],
  ['legacy', connectLegacyHttp],
] as const)('through the %s client', (_kind, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect(server.url);
  });
  afterAll(() => client.close());

  async function call(name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    return { error: result.isError ? textOf(result) : null, text: textOf(result), data: result.structuredContent as Record<string, unknown> };
  }
  const patch = (...lines: string[]) => call('fs.patch', { patch: lines.join('\n') + '\n' });

  describe('fs.edit', () => {
    it('replaces exactly, returns the new sha256 and a unified diff, and says so in the text', async () => {
      tree({ 'src/app.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
      const { data, text, error } = await call('fs.edit', { path: 'src/app.ts', edits: [{ oldText: 'const b = 2;', newText: 'const b = 20;' }] });
      expect(error).toBeNull();
      const after = 'const a = 1;\nconst b = 20;\nconst c = 3;\n';
      expect(fs.readFileSync(at('src/app.ts'), 'utf8')).toBe(after);
      expect(data).toEqual({
        path: at('src/app.ts'),
        sha256: sha(after),
        replacements: 1,
        bytesWritten: after.length,
        diff: `--- ${at('src/app.ts')}\n+++ ${at('src/app.ts')}\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;`,
      });
      expect(text).toBe(`Edited ${at('src/app.ts')}: 1 replacement\n${data.diff as string}`);
    });

    it('applies several edits in order, and replaceAll replaces every occurrence', async () => {
      tree({ 'f.txt': 'foo bar\nfoo baz\n' });
      const { data } = await call('fs.edit', {
        path: 'f.txt',
        edits: [
          { oldText: 'foo', newText: 'qux', replaceAll: true },
          { oldText: 'qux bar', newText: 'done' },
        ],
      });
      expect(data).toMatchObject({ replacements: 3 });
      expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('done\nqux baz\n');
    });

    it('NO_MATCH and AMBIGUOUS_MATCH (with line numbers) write nothing', async () => {
      tree({ 'f.txt': 'x = 1\ny = 2\nx = 1\n' });
      const before = fs.statSync(at('f.txt')).mtimeMs;
      const ambiguous = await call('fs.edit', { path: 'f.txt', edits: [{ oldText: 'x = 1', newText: 'x = 3' }] });
      expect(ambiguous.error).toBe('AMBIGUOUS_MATCH: oldText occurs 2 times (lines 1, 3); add surrounding lines to make it unique, or set replaceAll: true');
      const missing = await call('fs.edit', {
        path: 'f.txt',
        edits: [
          { oldText: 'y = 2', newText: 'y = 20' },
          { oldText: 'z = 3', newText: '' },
        ],
      });
      expect(missing.error).toMatch(/^NO_MATCH: edit 2: oldText was not found/);
      expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('x = 1\ny = 2\nx = 1\n');
      expect(fs.statSync(at('f.txt')).mtimeMs).toBe(before);
    });

    it('expectedSha256 from fs.read: edits when it matches, PRECONDITION_FAILED with the current hash when stale', async () => {
      tree({ 'f.txt': 'v1\n' });
      const read = await call('fs.read', { path: 'f.txt' });
      fs.writeFileSync(at('f.txt'), 'v1 changed elsewhere\n');
      const stale = await call('fs.edit', { path: 'f.txt', edits: [{ oldText: 'v1', newText: 'v2' }], expectedSha256: read.data.sha256 });
      expect(stale.error).toMatch(new RegExp(`^PRECONDITION_FAILED: .*changed since it was read \\(sha256 is ${sha('v1 changed elsewhere\n')}\\)`));
      expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('v1 changed elsewhere\n');
      const fresh = await call('fs.read', { path: 'f.txt' });
      const done = await call('fs.edit', { path: 'f.txt', edits: [{ oldText: 'changed', newText: 'edited' }], expectedSha256: fresh.data.sha256 });
      expect(done.data).toMatchObject({ sha256: sha('v1 edited elsewhere\n') });
      expect((await call('fs.edit', { path: 'f.txt', edits: [{ oldText: 'v1', newText: 'v2' }], expectedSha256: 'abc' })).error).toMatch(/sha256 hex digest/);
    });

    it('another program writing the file between the read and the write is PRECONDITION_FAILED, and its content stays', async () => {
      tree({ 'f.txt': 'mine\n' });
      betweenReadAndWrite = () => fs.writeFileSync(at('f.txt'), 'theirs\n');
      const { error } = await call('fs.edit', { path: 'f.txt', edits: [{ oldText: 'mine', newText: 'edited' }] });
      expect(error).toMatch(/^PRECONDITION_FAILED: .*changed since it was read/);
      expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('theirs\n');
    });

    it('edits a CRLF file with LF text and keeps CRLF', async () => {
      tree({ 'w.txt': 'one\r\ntwo\r\n' });
      const { data } = await call('fs.edit', { path: 'w.txt', edits: [{ oldText: 'one\ntwo', newText: 'one\nTWO\nthree' }] });
      expect(fs.readFileSync(at('w.txt'), 'utf8')).toBe('one\r\nTWO\r\nthree\r\n');
      expect(data.sha256).toBe(sha('one\r\nTWO\r\nthree\r\n'));
    });

    it('refuses a file over maxWriteBytes, and an edit that would grow it past the limit', async () => {
      tree({ 'big.txt': 'x'.repeat(5000), 'small.txt': 'abc\n' });
      expect((await call('fs.edit', { path: 'big.txt', edits: [{ oldText: 'x', newText: 'y', replaceAll: true }] })).error).toMatch(
        /^INVALID_INPUT: .*is 5000 bytes; fs\.edit works on files up to 4096 bytes/,
      );
      expect((await call('fs.edit', { path: 'small.txt', edits: [{ oldText: 'abc', newText: 'z'.repeat(5000) }] })).error).toMatch(
        /^INVALID_INPUT: .*would be 5001 bytes after the change; the limit is 4096/,
      );
      expect(rootFiles()).toEqual({ 'big.txt': 'x'.repeat(5000), 'small.txt': 'abc\n' });
    });

    it('refuses binary files, directories and missing files clearly', async () => {
      fs.writeFileSync(at('b.bin'), Buffer.from([0x61, 0, 0x62]));
      fs.mkdirSync(at('d'));
      expect((await call('fs.edit', { path: 'b.bin', edits: [{ oldText: 'a', newText: 'b' }] })).error).toMatch(/^INVALID_INPUT: .*binary/);
      expect((await call('fs.edit', { path: 'd', edits: [{ oldText: 'a', newText: 'b' }] })).error).toMatch(/^INVALID_INPUT: .*not a regular file/);
      expect((await call('fs.edit', { path: 'none.txt', edits: [{ oldText: 'a', newText: 'b' }] })).error).toMatch(/^NOT_FOUND: /);
      expect((await call('fs.edit', { path: 'none.txt', edits: [] })).error).toMatch(/edits/);
    });
  });

  describe('fs.patch', () => {
    it('applies the public apply_patch instructions’ combined example and reports each file', async () => {
      tree({ 'src/app.py': 'def greet():\nprint("Hi")\n', 'obsolete.txt': 'old\n' });
      const { data, text, error } = await patch(
        '*** Begin Patch',
        '*** Add File: hello.txt',
        '+Hello world',
        '*** Update File: src/app.py',
        '*** Move to: src/main.py',
        '@@ def greet():',
        '-print("Hi")',
        '+print("Hello, world!")',
        '*** Delete File: obsolete.txt',
        '*** End Patch',
      );
      expect(error).toBeNull();
      expect(rootFiles()).toEqual({ 'hello.txt': 'Hello world\n', 'src/': '', 'src/main.py': 'def greet():\nprint("Hello, world!")\n' });
      expect(data.files).toEqual([
        { path: at('hello.txt'), action: 'added', sha256: sha('Hello world\n'), diff: expect.stringContaining('+Hello world') },
        {
          path: at('src/app.py'),
          action: 'moved',
          destination: at('src/main.py'),
          sha256: sha('def greet():\nprint("Hello, world!")\n'),
          diff: expect.any(String),
        },
        { path: at('obsolete.txt'), action: 'deleted', diff: '' },
      ]);
      expect(text).toMatch(new RegExp(`^added ${at('hello.txt')}\\n`));
      expect(text).toContain(`moved ${at('src/app.py')} -> ${at('src/main.py')}`);
      expect(text).toContain(`deleted ${at('obsolete.txt')}`);
    });

    it('several @@ anchors, *** End of File, a pure addition, whitespace drift and smart quotes in one update', async () => {
      tree({
        'm.py': [
          'class A:',
          '    def run(self):',
          '        return 1',
          'class B:',
          '    def run(self):',
          '        return 1   ',
          '\tmsg = \u201cready\u201d',
          '    def stop(self):',
          '        pass',
          '',
        ].join('\n'),
      });
      const { error, data } = await patch(
        '*** Begin Patch',
        '*** Update File: m.py',
        '@@ class B:',
        '@@     def run(self):',
        '-        return 1',
        '+        return 2',
        '    msg = "ready"',
        '@@ def stop(self):',
        '+        # stopping',
        '@@',
        '-        pass',
        '+        return None',
        '*** End of File',
        '*** End Patch',
      );
      expect(error).toBeNull();
      expect(fs.readFileSync(at('m.py'), 'utf8')).toBe(
        [
          'class A:',
          '    def run(self):',
          '        return 1',
          'class B:',
          '    def run(self):',
          '        return 2',
          '\tmsg = \u201cready\u201d', // context keeps the file's own text
          '    def stop(self):',
          '        # stopping',
          '        return None',
          '',
        ].join('\n'),
      );
      expect((data.files as Array<{ diff: string }>)[0]!.diff).not.toContain('-\tmsg');
    });

    it('applies git diff output: a/ b/ prefixes, a new file in a new folder, a deleted file, no newline at end', async () => {
      tree({ 'lib/x.js': 'one\ntwo\nthree', 'gone.txt': 'bye\n' });
      const { error, data } = await patch(
        'diff --git a/lib/x.js b/lib/x.js',
        'index 1111111..2222222 100644',
        '--- a/lib/x.js',
        '+++ b/lib/x.js',
        '@@ -1,3 +1,3 @@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '\\ No newline at end of file',
        'diff --git a/docs/new.md b/docs/new.md',
        'new file mode 100644',
        'index 0000000..3333333',
        '--- /dev/null',
        '+++ b/docs/new.md',
        '@@ -0,0 +1,2 @@',
        '+# New',
        '+text',
        'diff --git a/gone.txt b/gone.txt',
        'deleted file mode 100644',
        'index 4444444..0000000',
        '--- a/gone.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
      );
      expect(error).toBeNull();
      expect(rootFiles()).toEqual({ 'docs/': '', 'docs/new.md': '# New\ntext\n', 'lib/': '', 'lib/x.js': 'one\nTWO\nthree' });
      expect((data.files as Array<{ action: string }>).map((f) => f.action)).toEqual(['updated', 'added', 'deleted']);
    });

    it('all or nothing: a later chunk that does not apply leaves the files before it unchanged', async () => {
      tree({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
      const before = everything();
      const { error } = await patch(
        '*** Begin Patch',
        '*** Update File: a.txt',
        '@@',
        '-a',
        '+A',
        '*** Add File: c.txt',
        '+c',
        '*** Update File: b.txt',
        '@@',
        '-nope',
        '+B',
        '*** End Patch',
      );
      expect(error).toMatch(/^NO_MATCH: .*b\.txt: the chunk at patch line 9 does not apply/);
      expect(everything()).toEqual(before);
    });

    it('all or nothing: a write that fails midway puts back what was already written', async (context) => {
      tree({ 'a.txt': 'a\n', 'locked/b.txt': 'b\n' });
      const locked = makeUnwritable(at('locked'));
      if (typeof locked === 'string') return context.skip(locked);
      try {
        const before = everything();
        const { error } = await patch(
          '*** Begin Patch',
          '*** Update File: a.txt',
          '-a',
          '+A',
          '*** Add File: new/c.txt',
          '+c',
          '*** Update File: locked/b.txt',
          '-b',
          '+B',
          '*** End Patch',
        );
        expect(error).toMatch(/^OS_ERROR: /);
        expect(everything()).toEqual(before);
      } finally {
        locked.release();
      }
    });

    it('a malformed patch is INVALID_INPUT naming the line; nothing is touched', async () => {
      tree({ 'a.txt': 'a\n' });
      const before = everything();
      expect((await patch('*** Begin Patch', '*** Update File: a.txt', '@@', ' a', 'oops', '*** End Patch')).error).toMatch(
        /^INVALID_INPUT: the patch is malformed at line 5: chunk lines start with " ", "-" or "\+"; got "oops"/,
      );
      expect((await patch('*** Begin Patch', '*** Update File: a.txt', '-a', '+b')).error).toMatch(
        /^INVALID_INPUT: .*line 4: a patch ends with "\*\*\* End Patch"/,
      );
      expect((await call('fs.patch', { patch: 'make a.txt say b' })).error).toMatch(/^INVALID_INPUT: not a patch/);
      expect(everything()).toEqual(before);
    });

    it('a file named twice (directly, or as a move destination) is refused before anything changes', async () => {
      tree({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
      const before = everything();
      expect((await patch('*** Begin Patch', '*** Update File: a.txt', '-a', '+A', '*** Delete File: ./a.txt', '*** End Patch')).error).toMatch(
        /^INVALID_INPUT: .*a\.txt appears twice in the patch/,
      );
      expect(
        (await patch('*** Begin Patch', '*** Update File: a.txt', '*** Move to: b.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B', '*** End Patch'))
          .error,
      ).toMatch(/appears twice/);
      expect(everything()).toEqual(before);
    });
  });

  describe('every path through the policy', () => {
    beforeEach(() => {
      tree({ 'ok.txt': 'ok\n', '.env': 'API_KEY=secret-value\n', 'private/notes.txt': 'private\n', '.git/hooks/pre-commit': '#!/bin/sh\n' });
      fs.writeFileSync(path.join(outside, 'victim.txt'), 'victim\n');
      fs.writeFileSync(path.join(ro, 'law.txt'), 'law\n');
      fs.symlinkSync(outside, at('out-dir'));
      fs.symlinkSync(path.join(outside, 'victim.txt'), at('out-file.txt'));
    });

    const refusals: Array<[string, string, RegExp]> = [
      ['a path outside the roots', '__OUTSIDE__/victim.txt', /outside the allowed roots/],
      ['a relative path climbing out', '../outside/victim.txt', /outside the allowed roots/],
      ['a secret file', '.env', /secret pattern "\.env"/],
      ['a denied pattern', 'private/notes.txt', /deny pattern/],
      ['a symlinked folder leading outside', 'out-dir/victim.txt', /symlink/],
      ['a symlinked file leading outside', 'out-file.txt', /symlink/],
      ['a read-only root', '__RO__/law.txt', /read-only root/],
      ["git's hooks", '.git/hooks/pre-commit', /where git runs code from/],
      ["this server's config file", '__CONFIG__', /configuration or token file/],
    ];
    const place = (p: string) => p.replace('__OUTSIDE__', outside).replace('__RO__', ro).replace('__CONFIG__', configFile);

    it('a deny pattern starting with ** still lets ordinary files be deleted and moved, and keeps its folder in place', async () => {
      expect((await call('fs.move', { source: 'ok.txt', destination: 'moved.txt' })).error).toBeNull();
      expect((await call('fs.delete', { path: 'moved.txt' })).error).toBeNull();
      expect((await patch('*** Begin Patch', '*** Add File: gone.txt', '+x', '*** End Patch')).error).toBeNull();
      expect((await patch('*** Begin Patch', '*** Delete File: gone.txt', '*** End Patch')).error).toBeNull();
      expect((await call('fs.move', { source: 'private', destination: 'public' })).error).toMatch(/^PATH_NOT_ALLOWED: .*deny pattern/);
      expect(fs.readFileSync(at('private/notes.txt'), 'utf8')).toBe('private\n');
    });

    it.each(refusals)('fs.edit refuses %s', async (_what, target, reason) => {
      const before = everything();
      const { error } = await call('fs.edit', { path: place(target), edits: [{ oldText: 'a', newText: 'b' }] });
      expect(error).toMatch(/^PATH_NOT_ALLOWED: /);
      expect(error).toMatch(reason);
      expect(error).not.toContain('secret-value');
      expect(everything()).toEqual(before);
    });

    it.each(refusals)('fs.patch refuses %s in any role (update, add, delete, move to), with the rest of the patch', async (_what, target, reason) => {
      tree({ 'ok2.txt': 'x\n' });
      const before = everything();
      const p = place(target);
      const roles = [
        [`*** Update File: ${p}`, '-x', '+y'],
        [`*** Add File: ${p}`, '+x'],
        [`*** Delete File: ${p}`],
        ['*** Update File: ok2.txt', `*** Move to: ${p}`, '-x', '+y'],
      ];
      for (const role of roles) {
        const { error } = await patch(
          '*** Begin Patch',
          '*** Update File: ok.txt',
          '-ok',
          '+changed',
          '*** Add File: fresh/new.txt',
          '+x',
          ...role,
          '*** End Patch',
        );
        expect(error, role[0]).toMatch(/^PATH_NOT_ALLOWED: /);
        // Deleting works on the entry itself: a link is refused as a link, not for where it leads.
        if (!role[0]!.startsWith('*** Delete') || !target.startsWith('out-file')) expect(error, role[0]).toMatch(reason);
        expect(error).not.toContain('secret-value');
        expect(everything()).toEqual(before);
      }
    });
  });
});
