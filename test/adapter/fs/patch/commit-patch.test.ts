import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../../../adapter/contract/errors.js';
import type { GuardedPath, PatchGuards, PatchTarget, PatchOp } from '../../../../adapter/contract/files.js';
import { applyPatchText } from '../../../../adapter/fs/patch/commit-patch.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { makeUnwritable } from '../../../helpers/unwritable.js';

let dir: string;
const cleanups: Array<() => void> = [];
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  removeDir(dir);
});

const sha = (data: string) => createHash('sha256').update(data).digest('hex');
const at = (...parts: string[]) => path.join(dir, ...parts);
const options = { maxBytes: 4096, revealHash: true };

function tree(files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(at(name)), { recursive: true });
    fs.writeFileSync(at(name), content);
  }
}

/** Every state of the tree: path -> content, for "nothing changed" checks. */
function snapshot(root = dir, base = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, { [`${rel}/`]: '' }, snapshot(path.join(root, entry.name), rel));
    else out[rel] = fs.readFileSync(path.join(root, entry.name), 'utf8');
  }
  return out;
}

interface GuardOptions {
  /** Called on every confirm with the path of the target it belongs to (a hook to act as another program). */
  onConfirm?: (target: string, real: string) => void;
  resolved?: PatchOp[][];
}

function guards(hooks: GuardOptions = {}): PatchGuards {
  const guarded = (p: string): GuardedPath => ({
    path: at(p),
    confirm: (real) => {
      if (real.includes('denied')) throw adapterError('PATH_NOT_ALLOWED', 'test', `refused ${real}`);
      hooks.onConfirm?.(p, real);
    },
  });
  return {
    resolve: async (ops) => {
      hooks.resolved?.push(ops);
      const refused = ops.find((op) => op.path.includes('denied'));
      if (refused) throw adapterError('PATH_NOT_ALLOWED', 'test', `refused ${refused.path}`);
      return ops.map((op): PatchTarget =>
        op.kind === 'update' && op.moveTo ? { op, file: guarded(op.path), moveTo: guarded(op.moveTo) } : { op, file: guarded(op.path) },
      );
    },
    lock: (_targets, apply) => apply(),
  };
}

const apply = (patch: string[], hooks?: GuardOptions) => applyPatchText(patch.join('\n'), guards(hooks), options);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => Promise.reject(new Error('expected the patch to fail')),
    (e: Error & { code: string }) => e,
  );

describe('applyPatchText', () => {
  it('applies the public instructions’ combined example: add, update with move, delete', async () => {
    tree({ 'src/app.py': 'def greet():\nprint("Hi")\n', 'obsolete.txt': 'old\n' });
    const results = await apply([
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
    ]);
    expect(snapshot()).toEqual({ 'hello.txt': 'Hello world\n', 'src/': '', 'src/main.py': 'def greet():\nprint("Hello, world!")\n' });
    expect(results).toEqual([
      { path: at('hello.txt'), action: 'added', sha256: sha('Hello world\n'), diff: expect.stringContaining('+Hello world') },
      {
        path: at('src/app.py'),
        action: 'moved',
        destination: at('src/main.py'),
        sha256: sha('def greet():\nprint("Hello, world!")\n'),
        diff: expect.stringContaining('-print("Hi")\n+print("Hello, world!")'),
      },
      { path: at('obsolete.txt'), action: 'deleted', diff: '' },
    ]);
  });

  it('creates the folders an added or moved file needs, as apply_patch does', async () => {
    tree({ 'old/name.txt': 'from\n', 'modify.txt': 'line1\nline2\n' });
    await apply([
      '*** Begin Patch',
      '*** Add File: nested/deeper/new.txt',
      '+created',
      '*** Update File: old/name.txt',
      '*** Move to: renamed/dir/name.txt',
      '@@',
      '-from',
      '+to',
      '*** Update File: modify.txt',
      '@@',
      '-line2',
      '+changed',
      '*** End Patch',
    ]);
    expect(snapshot()).toEqual({
      'modify.txt': 'line1\nchanged\n',
      'nested/': '',
      'nested/deeper/': '',
      'nested/deeper/new.txt': 'created\n',
      'old/': '',
      'renamed/': '',
      'renamed/dir/': '',
      'renamed/dir/name.txt': 'to\n',
    });
  });

  it('applies a git diff with a change, a new file and a deleted file', async () => {
    tree({ 'a.txt': 'one\ntwo\nthree', 'gone.txt': 'bye\n' });
    const results = await apply([
      'diff --git a/a.txt b/a.txt',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+2',
      ' three',
      '\\ No newline at end of file',
      'diff --git a/new/b.txt b/new/b.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new/b.txt',
      '@@ -0,0 +1 @@',
      '+bee',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '',
    ]);
    expect(snapshot()).toEqual({ 'a.txt': 'one\n2\nthree', 'new/': '', 'new/b.txt': 'bee\n' });
    expect(results.map((r) => r.action)).toEqual(['updated', 'added', 'deleted']);
  });

  it('changes nothing when a later file’s chunk does not apply', async () => {
    tree({ 'first.txt': 'a\n', 'second.txt': 'b\n', 'third.txt': 'c\n' });
    const before = snapshot();
    const error = await failure(
      apply([
        '*** Begin Patch',
        '*** Update File: first.txt',
        '@@',
        '-a',
        '+A',
        '*** Add File: added.txt',
        '+new',
        '*** Delete File: third.txt',
        '*** Update File: second.txt',
        '@@',
        '-not there',
        '+B',
        '*** End Patch',
      ]),
    );
    expect(error).toMatchObject({ code: 'NO_MATCH', message: expect.stringContaining('second.txt: the chunk at patch line 10') });
    expect(snapshot()).toEqual(before);
  });

  it('a write that fails midway puts back every file already changed, added, moved or deleted', async (context) => {
    tree({ 'a.txt': 'a\n', 'moved.txt': 'm\n', 'doomed.txt': 'd\n', 'locked/b.txt': 'b\n' });
    const locked = makeUnwritable(at('locked'));
    if (typeof locked === 'string') return context.skip(locked);
    cleanups.push(() => locked.release());
    const before = snapshot();
    const error = await failure(
      apply([
        '*** Begin Patch',
        '*** Update File: a.txt',
        '@@',
        '-a',
        '+A',
        '*** Add File: fresh/new.txt',
        '+new',
        '*** Update File: moved.txt',
        '*** Move to: elsewhere/moved.txt',
        '@@',
        '-m',
        '+M',
        '*** Delete File: doomed.txt',
        '*** Update File: locked/b.txt',
        '@@',
        '-b',
        '+B',
        '*** End Patch',
      ]),
    );
    expect(error).toMatchObject({ code: 'OS_ERROR' });
    expect(snapshot()).toEqual(before);
  });

  it('another program changing a file between the read and the write fails the patch and undoes the rest; its change stays', async () => {
    tree({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    let bConfirms = 0;
    const onConfirm = (target: string) => {
      // b.txt is confirmed when read, then when its write opens the directory: change it in between.
      if (target === 'b.txt' && ++bConfirms === 2) fs.writeFileSync(at('b.txt'), 'theirs\n');
    };
    const error = await failure(
      apply(['*** Begin Patch', '*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B', '*** End Patch'], { onConfirm }),
    );
    expect(error).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(snapshot()).toEqual({ 'a.txt': 'a\n', 'b.txt': 'theirs\n' });
  });

  it('a target that becomes a directory before its write fails the patch and undoes the rest', async () => {
    tree({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    let bConfirms = 0;
    const onConfirm = (target: string) => {
      if (target === 'b.txt' && ++bConfirms === 2) {
        fs.rmSync(at('b.txt'));
        fs.mkdirSync(at('b.txt'));
      }
    };
    const error = await failure(
      apply(['*** Begin Patch', '*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B', '*** End Patch'], { onConfirm }),
    );
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('not a regular file') });
    expect(snapshot()).toEqual({ 'a.txt': 'a\n', 'b.txt/': '' });
  });

  it('refuses the whole patch when the policy refuses any path, before touching a file', async () => {
    tree({ 'a.txt': 'a\n' });
    const before = snapshot();
    const error = await failure(apply(['*** Begin Patch', '*** Update File: a.txt', '-a', '+A', '*** Add File: denied/x.txt', '+x', '*** End Patch']));
    expect(error).toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    expect(snapshot()).toEqual(before);
  });

  it('update and delete of a missing file are NOT_FOUND; deleting a directory is refused; nothing changes', async () => {
    tree({ 'a.txt': 'a\n', 'd/keep.txt': 'k\n' });
    const before = snapshot();
    const head = ['*** Begin Patch', '*** Update File: a.txt', '-a', '+A'];
    expect(await failure(apply([...head, '*** Update File: missing.txt', '-x', '+y', '*** End Patch']))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure(apply([...head, '*** Delete File: missing.txt', '*** End Patch']))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure(apply([...head, '*** Delete File: d', '*** End Patch']))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(snapshot()).toEqual(before);
  });

  it('an Add File of an existing file and a Move to onto an existing file replace them (as apply_patch does)', async () => {
    tree({ 'dup.txt': 'old\n', 'src.txt': 'src\n', 'dst.txt': 'dst\n' });
    await apply(['*** Begin Patch', '*** Add File: dup.txt', '+new', '*** Update File: src.txt', '*** Move to: dst.txt', '-src', '+moved', '*** End Patch']);
    expect(snapshot()).toEqual({ 'dup.txt': 'new\n', 'dst.txt': 'moved\n' });
  });

  it('refuses a result larger than maxBytes before writing anything', async () => {
    tree({ 'a.txt': 'a\n' });
    const error = await failure(
      apply(['*** Begin Patch', '*** Update File: a.txt', '-a', '+A', '*** Add File: big.txt', `+${'x'.repeat(5000)}`, '*** End Patch']),
    );
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('(filesystem.maxWriteBytes)') });
    expect(snapshot()).toEqual({ 'a.txt': 'a\n' });
  });

  it('says what is wrong with a malformed patch, with the line, and resolves no path', async () => {
    const resolved: PatchOp[][] = [];
    const error = await failure(apply(['*** Begin Patch', '*** Update File: a.txt', '@@', ' a', 'b', '*** End Patch'], { resolved }));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^the patch is malformed at line 5: /) });
    expect(await failure(applyPatchText('please change a.txt', guards({ resolved }), options))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('not a patch'),
    });
    expect(resolved).toEqual([]);
  });
});
